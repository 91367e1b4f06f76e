package server

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server/teamcmd"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// teamCommand is one team's command in a running match.
type teamCommand struct {
	team      config.Team
	proc      *teamcmd.Process // nil when it could not be started
	startErr  error
	agents    int
	connected int // accounts connected when the wait ended
	waited    time.Duration
	inTime    bool
	quiet     bool // the wait ended on teamQuietTime, before every account was in
	arrivals  tournament.Arrivals
	gaveUp    bool           // the command exited for good while the server waited
	mark      teamcmd.Counts // counts when the previous simulation ended
	cpuMark   time.Duration  // CPU time when the previous simulation ended
}

// matchCommands are the team commands of one match.
type matchCommands struct {
	srv  *Server
	cmds []*teamCommand
}

// matchID is the {match} value and the log file prefix of match no.
func (s *Server) matchID(no int) string {
	if s.opts.MatchID != "" {
		return s.opts.MatchID
	}
	return strconv.Itoa(no)
}

// agentEndpoint is where team commands connect: the bound agent port, on
// loopback when the server listens on every address.
func (s *Server) agentEndpoint() (string, int) {
	addr, ok := s.Addr().(*net.TCPAddr)
	if !ok {
		return "127.0.0.1", 0
	}
	host := "127.0.0.1"
	if !addr.IP.IsUnspecified() && addr.IP != nil {
		host = addr.IP.String()
	}
	return host, addr.Port
}

// startTeamCommands starts the command of every team of the match that has
// one and waits until their accounts 1 … agents are connected, or some are
// and no other has logged in for teamQuietTime, at most teamConnectTimeout
// (docs/config.md, "Team commands"). A stop or the end of ctx ends the
// wait early.
func (s *Server) startTeamCommands(ctx context.Context, p *plan, no, firstSim int, teams []config.Team) *matchCommands {
	mc := &matchCommands{srv: s}
	agents := s.cfg.Match[firstSim].TeamSize
	host, port := s.agentEndpoint()
	id := s.matchID(no)
	logDir := ""
	if p.record.dir != "" {
		logDir = filepath.Join(p.record.dir, "teams")
		if err := os.MkdirAll(logDir, 0o755); err != nil {
			s.log.Error().Err(err).Msg("cannot create the folder of the team logs; team output is dropped")
			logDir = ""
		}
	}
	for _, t := range teams {
		if len(t.Command) == 0 {
			continue
		}
		tc := &teamCommand{team: t, agents: agents, arrivals: tournament.Arrivals{Quiet: s.cfg.Server.TeamQuietTime}}
		o := teamcmd.Options{
			Team:     t,
			Values:   teamcmd.Values{Host: host, Port: port, Team: t.Name, Prefix: t.Prefix, Password: t.Password, Agents: agents, Match: id},
			LogLimit: s.cfg.Server.TeamLogLimit, Restarts: s.cfg.Server.TeamRestarts, StopGrace: s.cfg.Server.TeamStopGrace,
			Log:     s.log.With().Int("match", no).Logger(),
			Sandbox: s.teamSandbox(t), Serve: func(l net.Listener) { s.serveTeamPort(l, t.Name) },
		}
		if logDir != "" {
			o.LogPath = filepath.Join(logDir, teamcmd.LogName(id, t.Name))
		}
		tc.proc, tc.startErr = teamcmd.Start(o)
		if tc.startErr != nil {
			s.log.Error().Err(tc.startErr).Str("team", t.Name).Msg("team command not started; the team plays without it")
		} else {
			s.log.Info().Str("team", t.Name).Strs("command", t.Command).Str("log", o.LogPath).Int("agents", agents).
				Msg("team command starting")
		}
		mc.cmds = append(mc.cmds, tc)
	}
	if len(mc.cmds) > 0 {
		mc.waitConnected(ctx)
	}
	return mc
}

// waitConnected waits until every started command's team is ready
// (tournament.Arrivals: all its accounts connected, or some and no new
// login for teamQuietTime), at most teamConnectTimeout.
func (mc *matchCommands) waitConnected(ctx context.Context) {
	s := mc.srv
	began := time.Now()
	timeout := time.NewTimer(s.cfg.Server.TeamConnectTimeout)
	defer timeout.Stop()
	tick := time.NewTicker(agentPollInterval)
	defer tick.Stop()
	for {
		waiting := 0
		for _, tc := range mc.cmds {
			if tc.proc == nil || tc.inTime || tc.quiet || tc.gaveUp {
				continue
			}
			tc.connected = s.connectedOf(tc.team, tc.agents)
			switch tc.arrivals.Look(time.Now(), tc.connected, tc.agents) {
			case tournament.AllIn:
				tc.inTime, tc.waited = true, time.Since(began)
				s.log.Info().Str("team", tc.team.Name).Int64("after_ms", tc.waited.Milliseconds()).Msg("team command's agents connected")
				continue
			case tournament.Quiet:
				tc.quiet, tc.waited = true, time.Since(began)
				s.log.Info().Str("team", tc.team.Name).Int("connected", tc.connected).Int("agents", tc.agents).
					Int64("after_ms", tc.waited.Milliseconds()).Int64("quiet_ms", s.cfg.Server.TeamQuietTime.Milliseconds()).
					Msg("team command's agents: no new login for teamQuietTime; the match starts, the others join when they log in")
				continue
			}
			select {
			case <-tc.proc.Done(): // exited more often than it may restart: no agent will come
				tc.gaveUp, tc.waited = true, time.Since(began)
				s.log.Warn().Str("team", tc.team.Name).Int("connected", tc.connected).Int("agents", tc.agents).
					Msg("team command ended before its agents were connected; the match starts, the missing agents play no_action")
				continue
			default:
			}
			waiting++
		}
		if waiting == 0 {
			return
		}
		interrupted := false
		select {
		case <-tick.C:
			continue
		case <-timeout.C:
		case <-s.ctrl.stopped():
			interrupted = true
		case <-ctx.Done():
			interrupted = true
		}
		for _, tc := range mc.cmds {
			if tc.proc != nil && !tc.inTime && !tc.quiet && !tc.gaveUp {
				tc.waited = time.Since(began)
				ev := s.log.Warn()
				msg := "team command's agents not connected in time (teamConnectTimeout); the match starts, the missing agents play no_action"
				if interrupted {
					// Stopped (Ctrl-C, the stop command): nobody's fault.
					ev, msg = s.log.Info(), "waiting for the team command's agents interrupted: the match is stopped"
				}
				ev.Str("team", tc.team.Name).Int("connected", tc.connected).Int("agents", tc.agents).
					Int64("waited_ms", tc.waited.Milliseconds()).Msg(msg)
			}
		}
		return
	}
}

// connectedOf counts the connected accounts 1 … n of a team.
func (s *Server) connectedOf(t config.Team, n int) int {
	c := 0
	for i := 1; i <= n; i++ {
		if acc, ok := s.accounts[t.AccountName(i)]; ok && acc.connected() {
			c++
		}
	}
	return c
}

// simulationEnded returns the sim.CommandStats of a simulation that has just
// ended, in the order of teams, and each team's note ("" for none) for the
// result file, in match order.
func (mc *matchCommands) simulationEnded(teams []string, agents []sim.AgentStats) ([]sim.CommandStats, []string) {
	if mc == nil || len(mc.cmds) == 0 {
		return nil, nil
	}
	notes := make([]string, len(teams))
	var out []sim.CommandStats
	for _, tc := range mc.cmds {
		st := sim.CommandStats{Team: tc.team.Name, Agents: tc.agents, Connected: tc.inTime, QuietStart: tc.quiet, ConnectMillis: tc.waited.Milliseconds()}
		var why []string
		if tc.proc == nil {
			why = append(why, "team command not started: "+tc.startErr.Error())
		} else {
			now := tc.proc.Counts()
			st.Exits, st.Restarts, st.Status = now.Exits-tc.mark.Exits, now.Restarts-tc.mark.Restarts, now.Status
			st.OutOfMemory, st.Isolation = now.OutOfMemory-tc.mark.OutOfMemory, tc.proc.Isolation()
			if cpu := tc.proc.CPU(); cpu > 0 {
				st.CPUMillis, tc.cpuMark = (cpu - tc.cpuMark).Milliseconds(), cpu
			}
			tc.mark = now
			offline := offlineSteps(agents, tc.team.Name)
			switch {
			case tc.gaveUp && offline > 0:
				why = append(why, fmt.Sprintf("team command ended (%s) before its agents were connected (%d of %d); agents without a connection played no_action",
					now.Status, tc.connected, tc.agents))
			case tc.quiet && offline > 0:
				why = append(why, fmt.Sprintf("team command: %d of %d agents connected before the match started (no new login for teamQuietTime, %s); agents without a connection played no_action until they logged in",
					tc.connected, tc.agents, mc.srv.cfg.Server.TeamQuietTime))
			case !tc.inTime && offline > 0:
				why = append(why, fmt.Sprintf("team command: %d of %d agents connected within teamConnectTimeout (%s); agents without a connection played no_action",
					tc.connected, tc.agents, mc.srv.cfg.Server.TeamConnectTimeout))
			}
			if st.Exits > 0 {
				oom := ""
				if st.OutOfMemory > 0 {
					oom = fmt.Sprintf(", %d of them out of memory (teamMemoryMiB %d)", st.OutOfMemory, mc.srv.cfg.Server.TeamMemoryMiB)
				}
				why = append(why, fmt.Sprintf("team command exited %d times during the simulation%s (last: %s), restarted %d times",
					st.Exits, oom, st.Status, st.Restarts))
			}
		}
		st.Note = strings.Join(why, "; ")
		for i, name := range teams {
			if name == tc.team.Name {
				notes[i] = st.Note
			}
		}
		out = append(out, st)
	}
	return out, notes
}

// offlineSteps sums the steps a team's agents had no connection.
func offlineSteps(agents []sim.AgentStats, team string) int64 {
	var n int64
	for _, a := range agents {
		if a.Team == team {
			n += a.Offline
		}
	}
	return n
}

// stop stops every team command of the match, all at once, and returns
// when none is left.
func (mc *matchCommands) stop() {
	if mc == nil {
		return
	}
	var wg sync.WaitGroup
	for _, tc := range mc.cmds {
		if tc.proc != nil {
			wg.Go(tc.proc.Stop)
		}
	}
	wg.Wait()
}
