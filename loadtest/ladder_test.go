package loadtest

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/massimbin"
)

func TestMain(m *testing.M) {
	code := m.Run()
	massimbin.Remove()
	os.Exit(code)
}

// TestPlayLadder_ReportsEveryFigure: a tiny run of bench-ladder (two
// matches at once, paced) fills in every figure it reports.
func TestPlayLadder_ReportsEveryFigure(t *testing.T) {
	var log bytes.Buffer
	r, err := PlayLadder(LadderRun{Server: massimbin.Path(t), Matches: 2, Agents: 2, Size: 20, Steps: 5, Pace: 100 * time.Millisecond, Log: &log})
	require.NoError(t, err, "%s", log.String())
	assert.Positive(t, r.StartP50MS)
	assert.Positive(t, r.StepP50MS)
	assert.Positive(t, r.CPUPerStepMS)
	assert.Positive(t, r.IdleRSSMB)
	assert.GreaterOrEqual(t, r.PeakRSSMB, r.IdleRSSMB)
	assert.GreaterOrEqual(t, r.LateMaxMS, r.LateP99MS)
	var out bytes.Buffer
	PrintLadderReport(&out, r)
	assert.Contains(t, out.String(), "2 matches at once")
}

// TestPlaySeason_PlaysAndReadsTheSeason: a tiny simulated season plays
// its matches and reads games, waits and ratings back.
func TestPlaySeason_PlaysAndReadsTheSeason(t *testing.T) {
	var log bytes.Buffer
	r, err := PlaySeason(SeasonRun{Server: massimbin.Path(t), Matches: 3, Agents: 2, Size: 20, Steps: 10, Seed: 1, Log: &log})
	require.NoError(t, err, "%s", log.String())
	assert.GreaterOrEqual(t, r.Matches, 3)
	total := 0
	for _, n := range r.Games {
		total += n
	}
	assert.Equal(t, 2*r.Matches-r.House, total, "two teams a match (one against the house)")
	assert.NotEmpty(t, r.Ratings)
	var out bytes.Buffer
	PrintSeasonReport(&out, r)
	assert.Contains(t, out.String(), "games per team")
}
