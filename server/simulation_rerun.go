package server

import (
	"context"
	"fmt"

	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// fileReader is where the simulation's files come from.
func (s *Server) fileReader() sim.FileReader {
	if r := s.opts.Rerun; r != nil && r.Files != nil {
		return r.Files
	}
	return s.cfg
}

// rerun plays the recorded steps of Options.Rerun.
func (run *simulation) rerun(ctx context.Context, r *sim.Rerun) error {
	w := run.world
	if r.Step >= len(r.Answers) {
		return fmt.Errorf("rerun: the record holds the answers of steps 0 … %d, not %d", len(r.Answers)-1, r.Step)
	}
	actions := make(map[string]scenario.Action, len(run.participants))
	for w.Step() < r.Step && !w.Done() {
		if ctx.Err() != nil {
			return fmt.Errorf("%w in simulation %s, step %d", ErrInterrupted, run.info.Name, w.Step()+1)
		}
		if err := w.Prepare(); err != nil {
			return fmt.Errorf("rerun: prepare step %d: %w", w.Step()+1, err)
		}
		answers := r.Answers[w.Step()]
		if len(answers) != len(run.participants) {
			return fmt.Errorf("rerun: step %d records %d answers for %d agents", w.Step(), len(answers), len(run.participants))
		}
		clear(actions)
		for i, acc := range run.participants {
			if a := answers[i]; a.Kind == sim.AnswerInTime || a.Kind == scenario.AnswerUnrecorded {
				actions[acc.user] = scenario.Action{Name: a.Action.Name, Params: a.Action.Params}
			}
		}
		if err := w.Execute(actions); err != nil {
			return fmt.Errorf("rerun: execute step %d: %w", w.Step(), err)
		}
		scores := w.Scores()
		run.srv.ctrl.stepDone(w.Step(), scores)
		run.tellObservers(scores, answers)
	}
	run.log.Info().Int("step", w.Step()).Msg("recorded steps played; the agents play on")
	return nil
}
