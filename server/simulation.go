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
)

// simulation is one running simulation: its world and its participants.
type simulation struct {
	srv          *Server
	info         SimInfo
	world        *scenario.World
	participants []*account                 // world.Agents() order
	percept      protocol.StepPercept       // reused for each participant's percept
	enc          requestEncoder             // of the request-actions
	conduct      *conduct                   // the participants' AgentStats
	actions      map[string]scenario.Action // of the step being executed, reused (World.Execute keeps no reference)
	spare        *scenario.Snapshot         // memory for the next snapshot (SnapshotRecycler)
	observers    observerRoles              // the server's observers, their roles resolved once
	pacer        answerPacer                // how long to let the answers gather before reading them
	timer        *time.Timer                // of the time to answer, one for all steps
	log          zerolog.Logger
}

// runSimulation plays one match entry with the given teams (docs/protocol.md, "Steps, ids and deadlines");
// matchNo is the match's number in the schedule.
func (s *Server) runSimulation(ctx context.Context, matchNo int, matchStart time.Time, index int, teams []config.Team) (SimInfo, SimResult, error) {
	entry := s.cfg.Match[index]
	start := s.simulationStart()
	params, err := worldParams(s.fileReader(), entry, start)
	if err != nil {
		return SimInfo{}, SimResult{}, fmt.Errorf("simulation %d: %w", index, err)
	}
	names := make([]string, len(teams))
	scTeams := make([]scenario.Team, len(teams))
	for i, t := range teams {
		names[i] = t.Name
		scTeams[i] = scenario.Team{Name: t.Name, Prefix: t.Prefix}
	}
	world, err := scenario.New(params, scTeams)
	if err != nil {
		return SimInfo{}, SimResult{}, fmt.Errorf("simulation %d: set up world: %w", index, err)
	}
	info := SimInfo{
		Name:       strconv.FormatInt(start.UnixMilli(), 10) + "_" + strings.Join(names, "_"),
		MatchStart: matchStart, Match: matchNo, Index: index, Teams: names, Steps: entry.Steps,
		Seed: params.Seed, Config: entry, Agents: world.Agents(), AgentTimeout: s.cfg.Server.AgentTimeout,
		ReadFile: s.fileReader().ReadFile,
	}
	for _, t := range teams {
		info.Prefixes = append(info.Prefixes, t.Prefix)
	}
	sim := &simulation{srv: s, info: info, world: world, observers: resolveRoles(s.opts.Observers),
		log: s.log.With().Str("sim", info.Name).Logger()}
	for _, name := range world.Agents() {
		acc, ok := s.accounts[name]
		if !ok {
			return info, SimResult{}, fmt.Errorf("simulation %d: no account %s", index, name)
		}
		sim.participants = append(sim.participants, acc)
	}
	sim.conduct = newConduct(sim.participants, sim.log)
	s.status.simulationStarted(names, index)
	s.ctrl.simulationStarted(info)
	s.statusChanged()
	sim.log.Info().Int("index", index).Int("steps", entry.Steps).Int64("seed", params.Seed).
		Int("teamSize", entry.TeamSize).Msg("simulation starts")
	for _, w := range world.SetupWarnings() {
		sim.log.Warn().Msg("setup " + w.String())
	}
	if r := world.Reachability(); !r.Connected() {
		sim.log.Warn().Str("terrain", r.String()).Msg("not every start cell, dispenser and zone is reachable (grid.connected would carve paths)")
	}

	if len(s.opts.Observers) > 0 {
		static, initial := world.Static(info.Name), world.Snapshot()
		for _, o := range s.opts.Observers {
			o.SimulationStarted(info, static, initial)
		}
	}
	if r := s.opts.Rerun; r != nil {
		if err := sim.rerun(ctx, r); err != nil {
			return info, SimResult{}, err
		}
	}
	for _, acc := range sim.participants {
		percept, _ := world.InitialPercept(acc.user)
		acc.joinSimulation(&protocol.SimStart{Time: start.UnixMilli(), Percept: percept})
	}
	defer func() {
		for _, acc := range sim.participants {
			acc.leaveSimulation()
		}
	}()

	for !world.Done() {
		if err := sim.step(ctx); err != nil {
			return info, SimResult{}, err
		}
	}
	result := SimResult{Scores: world.Scores(), Ranking: world.Ranking(), Agents: inTeamOrder(sim.conduct.finish(sim.participants), info.Teams)}
	sim.end(result)
	return info, result, nil
}

// step runs one step: preparation, request-actions, waiting for answers,
// action phase, observers.
func (sim *simulation) step(ctx context.Context) error {
	w := sim.world
	if ctx.Err() != nil { // awaitActions does not look when nobody is connected
		return fmt.Errorf("%w in simulation %s, step %d", ErrInterrupted, sim.info.Name, w.Step()+1)
	}
	if err := sim.srv.ctrl.beforeStep(ctx); err != nil { // pause and single steps act here
		return fmt.Errorf("%w (simulation %s)", err, sim.info.Name)
	}
	began := time.Now()
	if err := w.Prepare(); err != nil {
		return fmt.Errorf("prepare step %d: %w", w.Step()+1, err)
	}
	now := sim.srv.now()
	timeout := sim.srv.cfg.Server.AgentTimeout
	deadline := now.Add(timeout)
	gate := &sim.srv.gate
	gate.open(deadline.Add(-reconnectMargin(timeout)))
	for _, acc := range sim.participants {
		w.PerceptInto(acc.user, &sim.percept)
		acc.request(w.Step(), &sim.percept, now, deadline, gate, &sim.enc, sim.srv.cfg.Server.WaitForOffline)
	}
	sent := time.Now()
	if gate.waiting.Load() > 0 {
		holdThread(sim.pacer.hold(timeout))
	}
	settled, err := sim.awaitActions(ctx, deadline.Sub(now), gate)
	if err != nil {
		return err
	}
	sim.pacer.learn(time.Since(sent), settled)
	if sim.actions == nil {
		sim.actions = make(map[string]scenario.Action, len(sim.participants))
	}
	actions := sim.actions
	clear(actions)
	answers := make([]Answer, len(sim.participants)) // observers keep it
	for i, acc := range sim.participants {
		answers[i] = acc.collect()
		if answers[i].Kind == AnswerInTime {
			actions[acc.user] = answers[i].Action
		}
	}
	if err := w.Execute(actions); err != nil {
		return fmt.Errorf("execute step %d: %w", w.Step(), err)
	}
	sim.srv.stepCounted(sim.info, w.Step(), time.Since(began), sim.conduct, answers)
	scores := w.Scores()
	sim.srv.ctrl.stepDone(w.Step(), scores)
	sim.tellObservers(scores, answers)
	if pace := sim.srv.opts.MinStepDuration; pace > 0 {
		if err := sleepCtx(ctx, pace-time.Since(began)); err != nil {
			return fmt.Errorf("%w in simulation %s, step %d", ErrInterrupted, sim.info.Name, w.Step())
		}
	}
	return nil
}

// tellObservers reports the step just executed. The world's snapshot is
// built only when an observer needs more than the scores, and then once for
// all of them.
func (sim *simulation) tellObservers(scores []scenario.TeamScore, answers []Answer) {
	w := sim.world
	var snap *scenario.Snapshot
	for _, o := range sim.observers.list {
		if o.scores != nil {
			o.scores.StepScored(sim.info, w.Step(), scores)
			continue
		}
		if o.answers != nil {
			o.answers.StepAnswers(sim.info, w.Step(), answers)
		}
		if snap == nil {
			snap, sim.spare = w.SnapshotReusing(sim.spare), nil
		}
		o.Observer.StepDone(sim.info, snap)
	}
	if r := sim.observers.recycler; r != nil {
		sim.spare = r.SpareSnapshot()
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
	recycler SnapshotRecycler
}

type observerRole struct {
	Observer
	scores  ScoreObserver  // takes only the scores
	answers ActionRecorder // also takes the answers
}

func resolveRoles(observers []Observer) observerRoles {
	var roles observerRoles
	takers, recycler := 0, SnapshotRecycler(nil)
	for _, o := range observers {
		role := observerRole{Observer: o}
		role.scores, _ = o.(ScoreObserver)
		if role.scores == nil {
			role.answers, _ = o.(ActionRecorder)
			takers++
			recycler, _ = o.(SnapshotRecycler)
		}
		roles.list = append(roles.list, role)
	}
	if takers == 1 {
		roles.recycler = recycler
	}
	return roles
}

// awaitActions returns when every connected participant has answered or the
// time to answer has passed; disconnected agents only as server.waitForOffline says. It
// waits a duration, not until the deadline: the deadline is on the game clock
// (Options.Now), which need not be the real one. It closes the step's gate:
// later answers and reconnections belong to the next step. settled says
// that nobody was missing when it closed.
func (sim *simulation) awaitActions(ctx context.Context, timeToAnswer time.Duration, gate *stepGate) (settled bool, err error) {
	if sim.timer == nil {
		sim.timer = time.NewTimer(timeToAnswer)
	} else {
		sim.timer.Reset(timeToAnswer) // since Go 1.23 no stale expiry survives Stop or Reset
	}
	timer := sim.timer
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
		case <-sim.srv.wake:
		case <-timer.C:
			gate.close()
			return false, nil
		case <-ctx.Done():
			gate.close()
			return false, fmt.Errorf("%w in simulation %s, step %d", ErrInterrupted, sim.info.Name, sim.world.Step())
		}
	}
}

// end sends sim-end to every participant and tells the observers.
func (sim *simulation) end(result SimResult) {
	now := sim.srv.now().UnixMilli()
	rank := make(map[string]int, len(result.Scores))
	score := make(map[string]int64, len(result.Scores))
	for i, ts := range result.Scores {
		rank[ts.Team], score[ts.Team] = result.Ranking[i], ts.Score
	}
	for _, acc := range sim.participants {
		acc.send(&protocol.SimEnd{Time: now, Score: score[acc.team], Ranking: rank[acc.team]})
	}
	ev := sim.log.Info()
	for _, ts := range result.Scores {
		ev = ev.Int64(ts.Team, ts.Score)
	}
	ev.Msg("simulation ended")
	for _, o := range sim.srv.opts.Observers {
		o.SimulationEnded(sim.info, result)
	}
}
