package league

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/massim-go/massim/tournament"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A child's JSON log lines move its simulation and step; other lines
// (and partial ones, until their end comes) are ignored.
func TestChild_ReadsItsProgressFromItsLogLines(t *testing.T) {
	c := &child{match: Match{Dir: "matches/003-A-B"}, sim: -1, firstSim: -1, step: -1}
	var sink bytes.Buffer
	w := &lineWriter{to: &sink, line: c.readLogLine}
	assert.Equal(t, "003-A-B  starting", c.progressText(2))
	lines := []string{
		`{"level":"info","addr":"[::]:40123","message":"listening for agents"}`,
		`{"level":"info","sim":"x","index":1,"steps":50,"message":"simulation starts"}`,
		`not json`,
		`{"level":"info","index":1,"step":17,"steps":50,"message":"progress"}`,
	}
	text := strings.Join(lines, "\n") + "\n"
	_, err := w.Write([]byte(text[:40]))
	require.NoError(t, err)
	_, err = w.Write([]byte(text[40:]))
	require.NoError(t, err)
	assert.Equal(t, text, sink.String(), "everything goes on to the log file")
	assert.Equal(t, "[::]:40123", c.agentsAt)
	assert.Equal(t, "003-A-B  simulation 2/2  step 17/49", c.progressText(2))
	inMatch, since := c.progress([]int{50, 50}, false)
	assert.Equal(t, 50+18, inMatch)
	assert.Equal(t, 18, since, "it started with the second simulation (a resumed match)")
	inMatch, since = c.progress([]int{50, 50}, true)
	assert.Equal(t, []int{100, 50}, []int{inMatch, since})
}

func TestStatus_TimeLeftAtTheRateOfThisRun(t *testing.T) {
	start := time.Date(2026, 12, 4, 8, 0, 0, 0, time.UTC)
	running := &child{match: Match{Dir: "matches/002-A-C"}, sim: 0, firstSim: 0, step: 49, steps: 100}
	st := &status{planned: 4, done: 2, left: 1, stepsPlayed: 200, running: []*child{running},
		started: start, matchSteps: 200, steps: []int{100, 100}}
	// 200 + 50 steps in 50 s: 5 steps/s; left: 200 (the pending match) + 150 (the running one).
	left, ok := st.timeLeft(start.Add(50 * time.Second))
	require.True(t, ok)
	assert.Equal(t, 70*time.Second, left)
	_, ok = (&status{started: start, matchSteps: 200}).timeLeft(start.Add(time.Second))
	assert.False(t, ok, "nothing played yet: no rate")
}

func TestView_TerminalBlockAndLogLines(t *testing.T) {
	start := time.Date(2026, 12, 4, 8, 0, 0, 0, time.UTC)
	running := &child{match: Match{Dir: "matches/002-A-C"}, sim: 0, firstSim: 0, step: 49, steps: 100}
	st := &status{planned: 4, done: 2, left: 1, failed: 1, stepsPlayed: 200, running: []*child{running},
		started: start, matchSteps: 200, steps: []int{100, 100},
		standings: []tournament.Standing{{Rank: 1, Team: "A", Played: 2, Wins: 2, Points: 6, Rating: 1620, RatingError: 250}}}

	var term bytes.Buffer
	v := NewView(&term, true)
	v.show(st, start.Add(50*time.Second))
	v.show(st, start.Add(51*time.Second))
	out := term.String()
	assert.Contains(t, out, "league: 2/4 matches done, 1 running, 1 left, 1 failed, 50s so far, about 1m10s left\n")
	assert.Contains(t, out, "  002-A-C  simulation 1/2  step 49/99\n")
	assert.Contains(t, out, "1620 ± 250")
	assert.Contains(t, out, "\033[4A\033[J", "the second drawing replaces the four lines of the first")

	var logs bytes.Buffer
	log := zerolog.New(&logs)
	v = NewView(&bytes.Buffer{}, false)
	v.SetLog(&log)
	v.show(st, start.Add(50*time.Second))
	v.show(st, start.Add(51*time.Second))
	assert.Equal(t, 1, strings.Count(logs.String(), "league progress"), "one line every few seconds")
	assert.Contains(t, logs.String(), `"matches":["002-A-C  simulation 1/2  step 49/99"]`)
	v.matchEnded(st, start.Add(52*time.Second))
	assert.Equal(t, 2, strings.Count(logs.String(), "league progress"), "and one after every match")
}
