package server

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/sim"
)

// absences says, in match order, which teams of a simulation that has just
// ended had agents missing throughout, and why (docs/leagues.md,
// "Forfeits"): a team none of whose agents connected forfeits it. Only
// teams whose agents the server starts (a team command), or every team when
// Options.ForfeitAbsent says nobody connects agents by hand, can be
// absent: in a tournament played by hand an empty account is the
// organiser's business, as it always was.
func (s *Server) absences(mc *matchCommands, teams []config.Team, agents []sim.AgentStats) []sim.Absence {
	connected, total := sim.ConnectedAgents(agents)
	var out []sim.Absence
	for _, t := range teams {
		n, in := total[t.Name], connected[t.Name]
		if n == 0 || in == n {
			continue
		}
		tc := mc.of(t.Name)
		if tc == nil && !s.opts.ForfeitAbsent {
			continue
		}
		a := sim.Absence{Team: t.Name, Connected: in, Agents: n, Reason: absenceReason(tc, t, in, n, neverConnected(agents, t.Name))}
		out = append(out, a)
		ev := s.log.Warn().Str("team", t.Name).Int("connected", in).Int("agents", n).Str("reason", a.Reason)
		if a.Forfeited() {
			ev.Msg("the team forfeits the simulation: none of its agents connected")
		} else {
			ev.Msg("the team played the simulation with agents missing")
		}
	}
	return out
}

// of returns the command of team ("nil" without one).
func (mc *matchCommands) of(team string) *teamCommand {
	if mc == nil {
		return nil
	}
	for _, tc := range mc.cmds {
		if tc.team.Name == team {
			return tc
		}
	}
	return nil
}

// absenceReason says for people why only in of a team's n agents
// connected during a simulation: the failure of its command when there is
// one ("program "x" not found"), else which agents never came (missing).
func absenceReason(tc *teamCommand, t config.Team, in, n int, missing []string) string {
	agents := fmt.Sprintf("none of its %d agents connected", n)
	if in > 0 {
		agents = "never connected: " + namesCapped(missing, 3)
	}
	switch {
	case tc == nil:
		return "no team command, and " + agents
	case tc.proc == nil:
		return "team command not started: " + tc.startErr.Error()
	}
	c := tc.proc.Counts()
	if why, ok := strings.CutPrefix(c.Status, "cannot start: "); ok {
		return cannotStart(t, why)
	}
	if !c.Running && c.Exits > 0 {
		return fmt.Sprintf("team command exited (%s), %s", c.Status, agents)
	}
	return agents
}

// cannotStart names the common causes of a command that could not be
// started, as a teacher would fix them; other errors as they are.
func cannotStart(t config.Team, why string) string {
	program := ""
	if len(t.Command) > 0 {
		program = t.Command[0]
	}
	switch {
	case strings.Contains(why, "chdir ") && strings.Contains(why, "no such file or directory"):
		return fmt.Sprintf("the team's folder %q (dir) does not exist", t.Dir)
	case strings.Contains(why, "executable file not found"):
		return fmt.Sprintf("program not found: %q is not on the PATH", program)
	case strings.Contains(why, "no such file or directory"):
		if !filepath.IsAbs(program) && t.Dir != "" {
			return fmt.Sprintf("program not found: %q (in the team's folder %s)", program, t.Dir)
		}
		return fmt.Sprintf("program not found: %q", program)
	case strings.Contains(why, "permission denied"):
		return fmt.Sprintf("program %q cannot be run (permission denied: not executable?)", program)
	}
	return "team command cannot start: " + why
}

// neverConnected lists the agents of team that were offline throughout
// the simulation, in the order of the stats.
func neverConnected(agents []sim.AgentStats, team string) []string {
	var out []string
	for _, a := range agents {
		if a.Team == team && a.Actions+a.Timeouts == 0 {
			out = append(out, a.Agent)
		}
	}
	return out
}

// namesCapped joins names, at most limit of them and "and N more".
func namesCapped(names []string, limit int) string {
	if len(names) <= limit {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:limit], ", "), len(names)-limit)
}
