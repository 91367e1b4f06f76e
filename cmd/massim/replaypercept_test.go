package main

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server"
)

// TestReplayPercept_IsWhatTheAgentReceived plays a match over TCP in which
// team A's agents keep every percept as it came over the wire, then asks
// massim replay percept for some of them: the bytes are the same.
func TestReplayPercept_IsWhatTheAgentReceived(t *testing.T) {
	cfg, err := config.Demo()
	require.NoError(t, err)
	cfg.Match[0].Steps, cfg.Match[0].RandomSeed, cfg.Match[0].HasRandomSeed = 80, 11, true
	path, agents := recordedMatch(t, cfg, server.Options{}, 1, func(_ string, i int) choose { return randomChoice(uint64(i)) })
	for _, a := range []*rawAgent{agents[0], agents[2], agents[len(agents)-1]} {
		for _, step := range []int{0, 1, 37, 79} {
			var out, errOut bytes.Buffer
			code := run([]string{"replay", "percept", path, "-agent", a.user, "-step", strconv.Itoa(step)}, &out, &errOut)
			require.Equal(t, 0, code, errOut.String())
			var got struct {
				Agent   string          `json:"agent"`
				Step    int             `json:"step"`
				Percept json.RawMessage `json:"percept"`
				Answer  string          `json:"answer"`
				Action  string          `json:"action"`
				Result  string          `json:"actionResult"`
			}
			require.NoError(t, json.Unmarshal(out.Bytes(), &got))
			require.Contains(t, a.percepts, step)
			assert.Equal(t, string(a.percepts[step]), string(got.Percept), "%s step %d", a.user, step)
			assert.Equal(t, a.user, got.Agent)
			assert.Equal(t, step, got.Step)
			assert.NotEmpty(t, got.Action)
			assert.NotEmpty(t, got.Result)
		}
	}
	var out, errOut bytes.Buffer
	assert.Equal(t, 1, run([]string{"replay", "percept", path, "-agent", "nobody", "-step", "3"}, &out, &errOut))
	assert.Contains(t, errOut.String(), `no agent "nobody"`)
	errOut.Reset()
	assert.Equal(t, 1, run([]string{"replay", "percept", path, "-agent", agents[0].user, "-step", "80"}, &out, &errOut))
	assert.Contains(t, errOut.String(), "steps are 0 … 79")
}
