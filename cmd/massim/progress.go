package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/server"
)

// progressLine shows the running simulation's step and scores: one line
// rewritten in place on a terminal, a line every 10 % otherwise.
type progressLine struct {
	mu       sync.Mutex
	w        io.Writer
	terminal bool
	open     bool // a line is being rewritten in place
}

func newProgressLine(w io.Writer) *progressLine {
	terminal := false
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			terminal = true
		}
	}
	return &progressLine{w: w, terminal: terminal}
}

func (p *progressLine) SimulationStarted(info server.SimInfo, _ scenario.Static, _ *scenario.Snapshot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.endLine()
	fmt.Fprintf(p.w, "simulation %d (%s): %d steps\n", info.Index, strings.Join(info.Teams, " vs "), info.Steps)
}

func (p *progressLine) StepDone(info server.SimInfo, snap *scenario.Snapshot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	step := snap.Step + 1
	if !p.terminal && step%max(info.Steps/10, 1) != 0 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "step %4d/%d", step, info.Steps)
	for _, s := range snap.Scores {
		fmt.Fprintf(&b, "   %s %d", s.Team, s.Score)
	}
	if p.terminal {
		fmt.Fprintf(p.w, "\r%s\033[K", b.String())
		p.open = true
	} else {
		fmt.Fprintln(p.w, b.String())
	}
}

func (p *progressLine) SimulationEnded(server.SimInfo, server.SimResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.endLine()
}

func (p *progressLine) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.endLine()
}

func (p *progressLine) endLine() {
	if p.open {
		fmt.Fprintln(p.w)
		p.open = false
	}
}
