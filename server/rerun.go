package server

import (
	"context"
	"fmt"

	"github.com/massim-go/massim/scenario"
)

// Rerun starts a simulation from a recorded one (docs/practice.md, "Start
// from any step"): the world is built from the recorded match entry and
// seed, steps 0 … Step are played with the recorded answers without asking
// the agents (the observers see and record them as usual), and the agents
// play on from step Step+1, with sim-start first. The config must hold
// exactly the recorded match entry (its seed set) and the recorded teams,
// and the server must play one simulation.
type Rerun struct {
	// Step is the last step played from the record; −1 plays none.
	Step int
	// Answers holds the recorded answers of steps 0 … Step (at least),
	// in the world's agent order.
	Answers [][]Answer
	// Files serves the files the match entry names (grid.file, setup) in
	// place of the config.
	Files FileReader
}

// fileReader is where the simulation's files come from.
func (s *Server) fileReader() FileReader {
	if r := s.opts.Rerun; r != nil && r.Files != nil {
		return r.Files
	}
	return s.cfg
}

// rerun plays the recorded steps of Options.Rerun.
func (sim *simulation) rerun(ctx context.Context, r *Rerun) error {
	w := sim.world
	if r.Step >= len(r.Answers) {
		return fmt.Errorf("rerun: the record holds the answers of steps 0 … %d, not %d", len(r.Answers)-1, r.Step)
	}
	actions := make(map[string]scenario.Action, len(sim.participants))
	for w.Step() < r.Step && !w.Done() {
		if ctx.Err() != nil {
			return fmt.Errorf("%w in simulation %s, step %d", ErrInterrupted, sim.info.Name, w.Step()+1)
		}
		if err := w.Prepare(); err != nil {
			return fmt.Errorf("rerun: prepare step %d: %w", w.Step()+1, err)
		}
		answers := r.Answers[w.Step()]
		if len(answers) != len(sim.participants) {
			return fmt.Errorf("rerun: step %d records %d answers for %d agents", w.Step(), len(answers), len(sim.participants))
		}
		clear(actions)
		for i, acc := range sim.participants {
			if a := answers[i]; a.Kind == AnswerInTime || a.Kind == scenario.AnswerUnrecorded {
				actions[acc.user] = scenario.Action{Name: a.Action.Name, Params: a.Action.Params}
			}
		}
		if err := w.Execute(actions); err != nil {
			return fmt.Errorf("rerun: execute step %d: %w", w.Step(), err)
		}
		scores := w.Scores()
		sim.srv.ctrl.stepDone(w.Step(), scores)
		sim.tellObservers(scores, answers)
	}
	sim.log.Info().Int("step", w.Step()).Msg("recorded steps played; the agents play on")
	return nil
}
