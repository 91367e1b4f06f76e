package monitor

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/scenario"
)

// An official replay cut short says how far it goes in steps counted as
// the library's card counts them ("2 of 4 steps"), not in step numbers.
func TestOfficialSource_ACutReplayCountsItsSteps(t *testing.T) {
	const folder = "2000-01-01-12-00-00-946728000000_A_B"
	root := t.TempDir()
	static := scenario.Static{Sim: "946728000000_A_B", Width: 20, Height: 12, Teams: []string{"A", "B"}, Steps: 4}
	snap := func(step int) *scenario.Snapshot {
		return &scenario.Snapshot{Step: step, Scores: []scenario.TeamScore{{Team: "A"}, {Team: "B"}}}
	}
	wr := replays.NewWriter(root, replays.WriterOptions{NoSync: true})
	wr.Start(folder, static, snap(-1))
	wr.Step(snap(0))
	wr.Step(snap(1))
	require.NoError(t, wr.Close())
	src, err := openOfficial(found{path: filepath.Join(root, folder)})
	require.NoError(t, err)
	idx, err := src.index()
	require.NoError(t, err)
	assert.Equal(t, 1, idx.Last)
	assert.Equal(t, "the replay ends after 2 of 4 steps", idx.Problem)
}
