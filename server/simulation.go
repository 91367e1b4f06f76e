package server

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// simulation is one running simulation: its world and its participants.
type simulation struct {
	srv          *Server
	info         sim.Info
	world        *scenario.World
	participants []*account                 // world.Agents() order
	percept      protocol.StepPercept       // reused for each participant's percept
	enc          requestEncoder             // of the request-actions
	conduct      *conduct                   // the participants' sim.AgentStats
	actions      map[string]scenario.Action // of the step being executed, reused (World.Execute keeps no reference)
	spare        *scenario.Snapshot         // memory for the next snapshot (sim.SnapshotRecycler)
	observers    observerRoles              // the server's observers, their roles resolved once
	pacer        answerPacer                // how long to let the answers gather before reading them
	timer        *time.Timer                // of the time to answer, one for all steps
	log          zerolog.Logger
}

// runSimulation plays one match entry with the given teams (docs/protocol.md, "Steps, ids and deadlines");
// matchNo is the match's number in the schedule.
func (s *Server) runSimulation(ctx context.Context, matchNo int, matchStart time.Time, index int, teams []config.Team) (sim.Info, sim.Result, error) {
	entry := s.cfg.Match[index]
	start := s.simulationStart()
	params, err := sim.WorldParams(s.fileReader(), entry, start)
	if err != nil {
		return sim.Info{}, sim.Result{}, fmt.Errorf("simulation %d: %w", index, err)
	}
	names := make([]string, len(teams))
	scTeams := make([]scenario.Team, len(teams))
	for i, t := range teams {
		names[i] = t.Name
		scTeams[i] = scenario.Team{Name: t.Name, Prefix: t.Prefix}
	}
	world, err := scenario.New(params, scTeams)
	if err != nil {
		return sim.Info{}, sim.Result{}, fmt.Errorf("simulation %d: set up world: %w", index, err)
	}
	info := sim.Info{
		Name:       strconv.FormatInt(start.UnixMilli(), 10) + "_" + strings.Join(names, "_"),
		MatchStart: matchStart, Match: matchNo, Index: index, Teams: names, Steps: entry.Steps,
		Seed: params.Seed, Config: entry, Agents: world.Agents(), AgentTimeout: s.cfg.Server.AgentTimeout,
		ReadFile: s.fileReader().ReadFile,
	}
	for _, t := range teams {
		info.Prefixes = append(info.Prefixes, t.Prefix)
	}
	run := &simulation{srv: s, info: info, world: world, observers: resolveRoles(s.opts.Observers),
		log: s.log.With().Str("sim", info.Name).Logger()}
	for _, name := range world.Agents() {
		acc, ok := s.accounts[name]
		if !ok {
			return info, sim.Result{}, fmt.Errorf("simulation %d: no account %s", index, name)
		}
		run.participants = append(run.participants, acc)
	}
	run.conduct = newConduct(run.participants, run.log)
	s.status.simulationStarted(names, index)
	s.ctrl.simulationStarted(info)
	s.statusChanged()
	run.log.Info().Int("index", index).Int("steps", entry.Steps).Int64("seed", params.Seed).
		Int("teamSize", entry.TeamSize).Msg("simulation starts")
	for _, w := range world.SetupWarnings() {
		run.log.Warn().Msg("setup " + w.String())
	}
	if r := world.Reachability(); !r.Connected() {
		run.log.Warn().Str("terrain", r.String()).Msg("not every start cell, dispenser and zone is reachable (grid.connected would carve paths)")
	}

	if len(s.opts.Observers) > 0 {
		static, initial := world.Static(info.Name), world.Snapshot()
		for _, o := range s.opts.Observers {
			o.SimulationStarted(info, static, initial)
		}
	}
	if r := s.opts.Rerun; r != nil {
		if err := run.rerun(ctx, r); err != nil {
			return info, sim.Result{}, err
		}
	}
	for _, acc := range run.participants {
		percept, _ := world.InitialPercept(acc.user)
		acc.joinSimulation(&protocol.SimStart{Time: start.UnixMilli(), Percept: percept})
	}
	defer func() {
		for _, acc := range run.participants {
			acc.leaveSimulation()
		}
	}()

	for !world.Done() {
		if err := run.step(ctx); err != nil {
			return info, sim.Result{}, err
		}
	}
	result := sim.Result{Scores: world.Scores(), Ranking: world.Ranking(), Agents: sim.InTeamOrder(run.conduct.finish(run.participants), info.Teams)}
	run.end(result)
	return info, result, nil
}

// step runs one step: preparation, request-actions, waiting for answers,
// action phase, observers.
func (run *simulation) step(ctx context.Context) error {
	w := run.world
	if ctx.Err() != nil { // awaitActions does not look when nobody is connected
		return fmt.Errorf("%w in simulation %s, step %d", ErrInterrupted, run.info.Name, w.Step()+1)
	}
	if err := run.srv.ctrl.beforeStep(ctx); err != nil { // pause and single steps act here
		return fmt.Errorf("%w (simulation %s)", err, run.info.Name)
	}
	began := time.Now()
	if err := w.Prepare(); err != nil {
		return fmt.Errorf("prepare step %d: %w", w.Step()+1, err)
	}
	now := run.srv.now()
	timeout := run.srv.cfg.Server.AgentTimeout
	deadline := now.Add(timeout)
	gate := &run.srv.gate
	gate.open(deadline.Add(-reconnectMargin(timeout)))
	for _, acc := range run.participants {
		w.PerceptInto(acc.user, &run.percept)
		acc.request(w.Step(), &run.percept, now, deadline, gate, &run.enc, run.srv.cfg.Server.WaitForOffline)
	}
	sent := time.Now()
	if gate.waiting.Load() > 0 && run.srv.opts.Desk == nil {
		holdThread(run.pacer.hold(timeout))
	}
	settled, err := run.awaitActions(ctx, deadline.Sub(now), gate)
	if err != nil {
		return err
	}
	run.pacer.learn(time.Since(sent), settled)
	if run.actions == nil {
		run.actions = make(map[string]scenario.Action, len(run.participants))
	}
	actions := run.actions
	clear(actions)
	answers := make([]sim.Answer, len(run.participants)) // observers keep it
	for i, acc := range run.participants {
		answers[i] = acc.collect()
		if answers[i].Kind == sim.AnswerInTime {
			actions[acc.user] = answers[i].Action
		}
	}
	if err := w.Execute(actions); err != nil {
		return fmt.Errorf("execute step %d: %w", w.Step(), err)
	}
	run.srv.stepCounted(run.info, w.Step(), time.Since(began), run.conduct, answers)
	scores := w.Scores()
	run.srv.ctrl.stepDone(w.Step(), scores)
	run.tellObservers(scores, answers)
	if pace := run.srv.opts.MinStepDuration; pace > 0 {
		if err := sleepCtx(ctx, pace-time.Since(began)); err != nil {
			return fmt.Errorf("%w in simulation %s, step %d", ErrInterrupted, run.info.Name, w.Step())
		}
	}
	return nil
}

// tellObservers reports the step just executed. The world's snapshot is
// built only when an observer needs more than the scores, and then once for
// all of them.
func (run *simulation) tellObservers(scores []scenario.TeamScore, answers []sim.Answer) {
	w := run.world
	var snap *scenario.Snapshot
	for _, o := range run.observers.list {
		if o.scores != nil {
			o.scores.StepScored(run.info, w.Step(), scores)
			continue
		}
		if o.answers != nil {
			o.answers.StepAnswers(run.info, w.Step(), answers)
		}
		if snap == nil {
			snap, run.spare = w.SnapshotReusing(run.spare), nil
		}
		o.Observer.StepDone(run.info, snap)
	}
	if r := run.observers.recycler; r != nil {
		run.spare = r.SpareSnapshot()
	}
}

// observerRoles are the observers with the optional interfaces each
// implements, asserted once per simulation rather than for every observer
// at every step (an assertion to an interface costs a hash lookup whenever
// its call site's cache misses, which in a step loop is most of the time).
type observerRoles struct {
	list []observerRole
	// recycler is the only snapshot taker, when it hands back spares; with
	// more takers each would have to give a snapshot back.
	recycler sim.SnapshotRecycler
}

type observerRole struct {
	sim.Observer
	scores  sim.ScoreObserver  // takes only the scores
	answers sim.ActionRecorder // also takes the answers
}

func resolveRoles(observers []sim.Observer) observerRoles {
	var roles observerRoles
	takers, recycler := 0, sim.SnapshotRecycler(nil)
	for _, o := range observers {
		role := observerRole{Observer: o}
		role.scores, _ = o.(sim.ScoreObserver)
		if role.scores == nil {
			role.answers, _ = o.(sim.ActionRecorder)
			takers++
			recycler, _ = o.(sim.SnapshotRecycler)
		}
		roles.list = append(roles.list, role)
	}
	if takers == 1 {
		roles.recycler = recycler
	}
	return roles
}

// testHookStepSettled, when set by a test, runs after the step loop has seen
// that nobody is left to wait for and before it closes the step: the window
// in which a reconnection used to get a request-action whose answer was
// then lost.
var testHookStepSettled func()

// awaitActions returns when every connected participant has answered or the
// time to answer has passed; disconnected agents only as server.waitForOffline says. It
// waits a duration, not until the deadline: the deadline is on the game clock
// (Options.Now), which need not be the real one. It closes the step's gate:
// later answers and reconnections belong to the next step. settled says
// that nobody was missing when it closed.
func (run *simulation) awaitActions(ctx context.Context, timeToAnswer time.Duration, gate *stepGate) (settled bool, err error) {
	if run.timer == nil {
		run.timer = time.NewTimer(timeToAnswer)
	} else {
		run.timer.Reset(timeToAnswer) // since Go 1.23 no stale expiry survives Stop or Reset
	}
	timer := run.timer
	defer timer.Stop()
	for {
		if gate.waiting.Load() == 0 {
			if testHookStepSettled != nil {
				testHookStepSettled()
			}
			if gate.tryClose() {
				return true, nil
			}
		}
		select {
		case <-run.srv.wake:
		case <-timer.C:
			gate.close()
			return false, nil
		case <-ctx.Done():
			gate.close()
			return false, fmt.Errorf("%w in simulation %s, step %d", ErrInterrupted, run.info.Name, run.world.Step())
		}
	}
}

// end sends sim-end to every participant and tells the observers.
func (run *simulation) end(result sim.Result) {
	now := run.srv.now().UnixMilli()
	rank := make(map[string]int, len(result.Scores))
	score := make(map[string]int64, len(result.Scores))
	for i, ts := range result.Scores {
		rank[ts.Team], score[ts.Team] = result.Ranking[i], ts.Score
	}
	for _, acc := range run.participants {
		acc.send(&protocol.SimEnd{Time: now, Score: score[acc.team], Ranking: rank[acc.team]})
	}
	ev := run.log.Info()
	for _, ts := range result.Scores {
		ev = ev.Int64(ts.Team, ts.Score)
	}
	ev.Msg("simulation ended")
	for _, o := range run.srv.opts.Observers {
		o.SimulationEnded(run.info, result)
	}
}

// sleepCtx sleeps for d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
