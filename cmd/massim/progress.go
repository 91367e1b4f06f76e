package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// How often progress is shown: redrawn in place on a terminal, a line
// (a log line, or a plain line without a logger) otherwise. The rate of
// steps per second is measured over at least rateWindow.
const (
	terminalRedraw   = 100 * time.Millisecond
	progressInterval = 5 * time.Second
	rateWindow       = time.Second
)

// progress shows the running simulation: simulation, step/steps, steps per
// second and scores. On a terminal it is one line rewritten in place (and
// log lines written through logsAround clear it first); otherwise it is a
// log line every progressInterval, or a plain line on out when there is no
// logger (the demo). Steps are numbered as the agents and the monitor
// number them: 0 to steps-1.
type progress struct {
	mu          sync.Mutex
	out         io.Writer
	terminal    bool
	log         *zerolog.Logger
	simulations int // entries of the match array
	now         func() time.Time
	every       time.Duration // between lines off a terminal

	line string // shown in place on the terminal
	open bool   // line is on screen

	info      sim.Info
	step      int
	scores    []scenario.TeamScore
	shown     time.Time // last redraw or line
	markAt    time.Time // start of the rate window
	markStep  int
	rate      float64
	rateKnown bool
}

var _ sim.ScoreObserver = (*progress)(nil)

// newProgress shows progress on out; log, when not nil, gets the progress
// lines when out is not a terminal.
func newProgress(out io.Writer, log *zerolog.Logger, simulations int) *progress {
	return &progress{out: out, terminal: isTerminal(out), log: log, simulations: simulations, now: time.Now, every: progressInterval}
}

func (p *progress) SimulationStarted(info sim.Info, _ scenario.Static, _ *scenario.Snapshot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLine()
	now := p.now()
	p.info, p.step, p.scores = info, -1, nil
	p.markAt, p.markStep, p.rateKnown, p.shown = now, -1, false, now
	if p.log == nil || p.terminal {
		fmt.Fprintf(p.out, "simulation %d/%d (%s): %d steps\n", info.Index+1, p.simulations, strings.Join(info.Teams, " vs "), info.Steps)
	}
}

// StepDone is StepScored for callers that have a snapshot.
func (p *progress) StepDone(info sim.Info, snap *scenario.Snapshot) {
	p.StepScored(info, snap.Step, snap.Scores)
}

// StepScored makes progress a sim.ScoreObserver: the step loop builds no
// snapshot for it.
func (p *progress) StepScored(info sim.Info, step int, scores []scenario.TeamScore) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	p.step, p.scores = step, scores
	if d := now.Sub(p.markAt); d >= rateWindow {
		p.rate, p.rateKnown = float64(p.step-p.markStep)/d.Seconds(), true
		p.markAt, p.markStep = now, p.step
	}
	last := p.step == info.Steps-1
	switch {
	case p.terminal:
		if last || now.Sub(p.shown) >= terminalRedraw {
			p.shown = now
			p.draw(p.text())
		}
	case last && p.log == nil:
		fmt.Fprintln(p.out, p.text())
	case !last && now.Sub(p.shown) >= p.every:
		p.shown = now
		if p.log != nil {
			p.logLine()
		} else {
			fmt.Fprintln(p.out, p.text())
		}
	}
}

func (p *progress) SimulationEnded(sim.Info, sim.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.endLine()
}

// finish ends a line left open on the terminal.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.endLine()
}

// text is the progress line.
func (p *progress) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "simulation %d/%d  step %4d/%d", p.info.Index+1, p.simulations, p.step, p.info.Steps-1)
	if p.rateKnown {
		fmt.Fprintf(&b, "  %6.1f steps/s", p.rate)
	}
	for _, s := range p.scores {
		fmt.Fprintf(&b, "   %s %d", s.Team, s.Score)
	}
	return b.String()
}

func (p *progress) logLine() {
	ev := p.log.Info().Str("sim", p.info.Name).Int("index", p.info.Index).Int("step", p.step).Int("steps", p.info.Steps)
	if p.rateKnown {
		ev = ev.Float64("stepsPerSecond", float64(int(p.rate*10))/10)
	}
	scores := zerolog.Dict()
	for _, s := range p.scores {
		scores = scores.Int64(s.Team, s.Score)
	}
	ev.Dict("scores", scores).Msg("progress")
}

// draw shows text in place of the current line.
func (p *progress) draw(text string) {
	p.line = text
	fmt.Fprintf(p.out, "\r%s\033[K", text)
	p.open = true
}

func (p *progress) clearLine() {
	if p.open {
		fmt.Fprint(p.out, "\r\033[K")
		p.open = false
	}
}

func (p *progress) endLine() {
	if p.open {
		fmt.Fprintln(p.out)
		p.open, p.line = false, ""
	}
}

// logsAround returns the writer for log lines that go to the same
// terminal as the progress line: each log line clears the progress line
// first and redraws it after, so that the two never mix. Off a terminal
// it is w itself.
func (p *progress) logsAround(w io.Writer) io.Writer {
	if !p.terminal {
		return w
	}
	return &aroundProgress{p: p, w: w}
}

type aroundProgress struct {
	p *progress
	w io.Writer
}

func (a *aroundProgress) underlying() io.Writer { return a.w }

func (a *aroundProgress) Write(b []byte) (int, error) {
	a.p.mu.Lock()
	defer a.p.mu.Unlock()
	redraw := a.p.open
	a.p.clearLine()
	n, err := a.w.Write(b)
	if redraw {
		a.p.draw(a.p.line)
	}
	return n, err
}
