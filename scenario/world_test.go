package scenario

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

func TestNew_AgentKOfEveryTeamSharesAStartCell(t *testing.T) {
	w, err := New(testParams(), testTeams)
	require.NoError(t, err)
	require.Len(t, w.entities, 10)
	for i := 1; i <= 5; i++ {
		a := w.byName["agentA"+itoa(i)]
		b := w.byName["agentB"+itoa(i)]
		require.NotNil(t, a)
		require.NotNil(t, b)
		assert.Equal(t, a.t.pos, b.t.pos, "agent %d", i)
		assert.Nil(t, w.things.unique(a.t.pos), "a shared start cell has no unique attachable")
	}
	assert.Equal(t, -1, w.Step())
	assert.Len(t, w.goalZones, 2)
	assert.Len(t, w.roleZones, 1)
}

func TestNew_IdsFollowCreationOrder(t *testing.T) {
	w, err := New(testParams(), testTeams)
	require.NoError(t, err)
	for id, th := range w.things.all[1:] {
		assert.Equal(t, id+1, th.id)
	}
}

func TestNew_SameSeedSameWorld(t *testing.T) {
	a, err := New(testParams(), testTeams)
	require.NoError(t, err)
	b, err := New(testParams(), testTeams)
	require.NoError(t, err)
	ja, _ := json.Marshal(a.Snapshot())
	jb, _ := json.Marshal(b.Snapshot())
	assert.Equal(t, string(ja), string(jb))
}

func TestStep_OutOfOrderIsRefused(t *testing.T) {
	w, err := New(testParams(), testTeams)
	require.NoError(t, err)
	assert.ErrorIs(t, w.Execute(nil), ErrPhase)
	require.NoError(t, w.Prepare())
	assert.ErrorIs(t, w.Prepare(), ErrPhase)
	require.NoError(t, w.Execute(nil))
}

func TestStep_RunsToDone(t *testing.T) {
	w, err := New(testParams(), testTeams)
	require.NoError(t, err)
	for !w.Done() {
		require.NoError(t, w.Prepare())
		require.NoError(t, w.Execute(nil))
	}
	assert.Equal(t, 19, w.Step())
	assert.ErrorIs(t, w.Prepare(), ErrPhase)
	for _, e := range w.entities {
		assert.Equal(t, protocol.ActionNoAction, e.action)
		assert.Equal(t, protocol.ResultSuccess, e.result)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
