package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// playSteps feeds a simulation of n steps to p on a clock that advances
// by each between steps.
func playSteps(p *progress, n int, each time.Duration) {
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	p.now = func() time.Time { return at }
	info := sim.Info{Name: "1_A_B", Index: 1, Teams: []string{"A", "B"}, Steps: n}
	p.SimulationStarted(info, scenario.Static{}, nil)
	for step := range n {
		at = at.Add(each)
		p.StepDone(info, &scenario.Snapshot{Step: step, Scores: []scenario.TeamScore{{Team: "A", Score: int64(step)}, {Team: "B", Score: 0}}})
	}
	p.SimulationEnded(info, sim.Result{})
}

func TestProgress_ALogLineEveryFewSecondsOffATerminal(t *testing.T) {
	var out, logs bytes.Buffer
	log := zerolog.New(&logs)
	p := newProgress(&out, &log, 3)
	playSteps(p, 23, time.Second) // a line at 5, 10, 15, 20 s
	assert.Empty(t, out.String(), "with a logger nothing goes to stdout")
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	assert.Len(t, lines, 4)
	assert.Equal(t, `{"level":"info","sim":"1_A_B","index":1,"step":4,"steps":23,"stepsPerSecond":1,"scores":{"A":4,"B":0},"message":"progress"}`, lines[0])
}

func TestProgress_PlainLinesWithoutALogger(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, nil, 3)
	playSteps(p, 12, time.Second)
	assert.Equal(t, "simulation 2/3 (A vs B): 12 steps\n"+
		"simulation 2/3  step    4/11     1.0 steps/s   A 4   B 0\n"+
		"simulation 2/3  step    9/11     1.0 steps/s   A 9   B 0\n"+
		"simulation 2/3  step   11/11     1.0 steps/s   A 11   B 0\n", out.String(),
		"every 5 s, and the last step")
}

func TestProgress_OnATerminalOneLineInPlaceAndLogLinesAroundIt(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, nil, 1)
	p.terminal = true
	playSteps(p, 3, 40*time.Millisecond) // redrawn at most every 100 ms, and at the last step
	assert.Equal(t, "simulation 2/1 (A vs B): 3 steps\n"+
		"\rsimulation 2/1  step    2/2   A 2   B 0\x1b[K\n", out.String())

	out.Reset()
	p.SimulationStarted(sim.Info{Index: 0, Teams: []string{"A", "B"}, Steps: 10}, scenario.Static{}, nil)
	p.now = func() time.Time { return time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC) }
	p.StepDone(sim.Info{Steps: 10}, &scenario.Snapshot{Step: 0})
	out.Reset()
	logs := p.logsAround(&out)
	_, _ = logs.Write([]byte("12:00:00.000 INF agent authenticated\n"))
	assert.Equal(t, "\r\x1b[K12:00:00.000 INF agent authenticated\n\rsimulation 1/1  step    0/9     0.0 steps/s\x1b[K", out.String(),
		"the progress line is cleared, the log line written, the progress line drawn again")
}
