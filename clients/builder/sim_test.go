package builder

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// The tests drive the pure world (package scenario) in-process as a
// simulator: every step, each agent gets its percept exactly as the server
// would send it and answers through the agent.Behaviour interface. Agents
// act one after the other, so a run is reproducible.

// newBehaviour makes one agent's behaviour (index from 1).
type newBehaviour func(index int, user string) agent.Behaviour

// simulation is a world with the agents playing in it.
type simulation struct {
	w      *scenario.World
	agents map[string]agent.Behaviour
	names  []string
	// actions records every agent's actions, step by step, and results
	// their results (as the next percept reports them).
	actions map[string][]scenario.Action
	results map[string][]string
	roles   map[string][]string
	// onPercept, if set, sees every percept before the agent does.
	onPercept func(name string, p *protocol.StepPercept)
	// onStep, if set, is called after each step's actions.
	onStep func()
}

// demoParams is the demo config's match with another seed.
func demoParams(t testing.TB, seed int64) scenario.Params {
	t.Helper()
	cfg, err := config.Demo()
	require.NoError(t, err)
	p, err := sim.WorldParams(cfg, cfg.Match[0], time.Now())
	require.NoError(t, err)
	p.Seed = seed
	return p
}

// newSimulation builds the world and gives every agent of team i the
// behaviour made by teams[i]'s factory.
func newSimulation(t testing.TB, p scenario.Params, teams []scenario.Team, factories []newBehaviour) *simulation {
	t.Helper()
	w, err := scenario.New(p, teams)
	require.NoError(t, err)
	s := &simulation{w: w, agents: map[string]agent.Behaviour{}, actions: map[string][]scenario.Action{},
		results: map[string][]string{}, roles: map[string][]string{}}
	for ti, team := range teams {
		for i := range p.TeamSize {
			name := scenario.AgentName(team, i)
			b := factories[ti](i+1, name)
			ip, ok := w.InitialPercept(name)
			require.True(t, ok, name)
			b.SimStart(ip)
			s.agents[name] = b
			s.names = append(s.names, name)
		}
	}
	return s
}

// step plays one step.
func (s *simulation) step(t testing.TB) {
	t.Helper()
	require.NoError(t, s.w.Prepare())
	actions := map[string]scenario.Action{}
	for _, name := range s.names {
		p, ok := s.w.Percept(name)
		require.True(t, ok)
		if s.w.Step() > 0 {
			s.results[name] = append(s.results[name], p.LastActionResult)
		}
		s.roles[name] = append(s.roles[name], p.Role)
		if s.onPercept != nil {
			s.onPercept(name, &p)
		}
		typ, params := s.agents[name].Act(&protocol.RequestAction{ID: int64(s.w.Step()), Step: s.w.Step(), Percept: p})
		a := scenario.Action{Name: typ, Params: params}
		actions[name] = a
		s.actions[name] = append(s.actions[name], a)
	}
	require.NoError(t, s.w.Execute(actions))
	if s.onStep != nil {
		s.onStep()
	}
}

// run plays until the end.
func (s *simulation) run(t testing.TB) {
	for !s.w.Done() {
		s.step(t)
	}
}

// score is a team's score.
func (s *simulation) score(team string) int64 {
	for _, sc := range s.w.Scores() {
		if sc.Team == team {
			return sc.Score
		}
	}
	return 0
}

// did counts the successful actions of a kind of the team's agents as
// seen in their last percepts... simpler: count the actions sent.
func (s *simulation) sent(team, action string) int {
	n := 0
	for name, list := range s.actions {
		if !strings.Contains(name, team) {
			continue
		}
		for _, a := range list {
			if a.Name == action {
				n++
			}
		}
	}
	return n
}
