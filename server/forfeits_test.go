package server

import (
	"errors"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/sim"
)

func TestCannotStart_SaysTheCommonCausesAsATeacherFixesThem(t *testing.T) {
	tests := []struct {
		name string
		team config.Team
		why  string
		want string
	}{
		{"not on the PATH", config.Team{Command: []string{"massim"}}, `exec: "massim": executable file not found in $PATH`,
			`program not found: "massim" is not on the PATH`},
		{"no such file", config.Team{Command: []string{"/opt/team/run"}}, "fork/exec /opt/team/run: no such file or directory",
			`program not found: "/opt/team/run"`},
		{"relative to dir", config.Team{Command: []string{"./run"}, Dir: "/opt/team"}, "fork/exec ./run: no such file or directory",
			`program not found: "./run" (in the team's folder /opt/team)`},
		{"dir missing", config.Team{Command: []string{"./run"}, Dir: "/opt/gone"}, "chdir /opt/gone: no such file or directory",
			`the team's folder "/opt/gone" (dir) does not exist`},
		{"not executable", config.Team{Command: []string{"./run"}}, "fork/exec ./run: permission denied",
			`program "./run" cannot be run (permission denied: not executable?)`},
		{"anything else", config.Team{Command: []string{"x"}}, "open /dev/null: too many open files",
			"team command cannot start: open /dev/null: too many open files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, cannotStart(tt.team, tt.why))
		})
	}
}

// agentsOf makes the stats of a team's agents: the first connected ones
// answered, the others were offline throughout.
func agentsOf(team string, connected, n int) []sim.AgentStats {
	var out []sim.AgentStats
	for i := range n {
		a := sim.AgentStats{Agent: team + string(rune('1'+i)), Team: team, Offline: 5}
		if i < connected {
			a.Offline, a.Actions = 0, 5
		}
		out = append(out, a)
	}
	return out
}

// Who can be absent: a team with a command always, a team without one
// only in a league's match (ForfeitAbsent); a team with every agent
// connected never.
func TestAbsences_WhoForfeitsAndWhy(t *testing.T) {
	withCmd := config.Team{Name: "A", Command: []string{"nosuch"}}
	plain := config.Team{Name: "B"}
	full := config.Team{Name: "C", Command: []string{"ok"}}
	mc := &matchCommands{cmds: []*teamCommand{
		{team: withCmd, startErr: errors.New("boom")},
		{team: full},
	}}
	agents := append(append(agentsOf("A", 0, 2), agentsOf("B", 1, 2)...), agentsOf("C", 2, 2)...)
	teams := []config.Team{withCmd, plain, full}

	s := &Server{log: zerolog.Nop()}
	assert.Equal(t, []sim.Absence{{Team: "A", Connected: 0, Agents: 2, Reason: "team command not started: boom"}},
		s.absences(mc, teams, agents), "by hand, a team without a command is the organiser's business")

	s.opts.ForfeitAbsent = true
	assert.Equal(t, []sim.Absence{
		{Team: "A", Connected: 0, Agents: 2, Reason: "team command not started: boom"},
		{Team: "B", Connected: 1, Agents: 2, Reason: "no team command, and never connected: B2"},
	}, s.absences(mc, teams, agents))
	assert.Equal(t, []sim.Absence{{Team: "B", Connected: 0, Agents: 2, Reason: "no team command, and none of its 2 agents connected"}},
		s.absences(nil, []config.Team{plain}, agentsOf("B", 0, 2)))
}

func TestNamesCapped(t *testing.T) {
	assert.Equal(t, "a1, a2", namesCapped([]string{"a1", "a2"}, 3))
	assert.Equal(t, "a1, a2, a3 and 2 more", namesCapped([]string{"a1", "a2", "a3", "a4", "a5"}, 3))
}
