package server

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server/teamcmd"
	"github.com/massim-go/massim/server/teamcmd/sandbox"
)

// SandboxLimits are the limits of each team command that the server block
// sets (docs/config.md, "Team sandbox").
func SandboxLimits(c config.Server) sandbox.Limits {
	return sandbox.Limits{CPUs: c.TeamCPUs, Memory: int64(c.TeamMemoryMiB) << 20, Processes: c.TeamProcesses,
		Scratch: int64(c.TeamScratchMiB) << 20, OpenFiles: c.TeamOpenFiles}
}

// CheckSandbox says why the team commands of teams cannot be started: the
// sandbox cannot be built on this machine, or a team's image is not here.
// Nil when none of teams has a command, when the config says teamSandbox
// "none", or when everything is there (docs/untrusted-teams.md, "What the
// organiser provides").
func CheckSandbox(cfg *config.Config, teams []config.Team) error {
	if cfg.Server.TeamSandbox == config.SandboxNone {
		return nil
	}
	var commands, images []config.Team
	for _, t := range teams {
		if len(t.Command) > 0 {
			commands = append(commands, t)
			if t.Image != "" {
				images = append(images, t)
			}
		}
	}
	if len(commands) == 0 {
		return nil
	}
	ids := cfg.Server.TeamUIDs
	err := sandbox.Check(ids.Min, ids.Max, len(images) > 0)
	if err == nil && len(images) > 0 {
		engine, _ := sandbox.Engine()
		var errs []error
		for _, t := range images {
			if err := sandbox.ImageExists(engine, t.Image); err != nil {
				errs = append(errs, fmt.Errorf("team %s: %w", t.Name, err))
			}
		}
		err = errors.Join(errs...)
	}
	if err != nil {
		return fmt.Errorf("server: the team commands are not started without a sandbox: %w\n"+
			"(to run them unconfined, as the server's user, set \"teamSandbox\": \"none\" in the server block: only for teams you trust; docs/untrusted-teams.md)", err)
	}
	return nil
}

// teamSandbox is how team t's command is isolated; nil for teamSandbox
// "none".
func (s *Server) teamSandbox(t config.Team) *teamcmd.Sandbox {
	c := s.cfg.Server
	if c.TeamSandbox == config.SandboxNone {
		return nil
	}
	return &teamcmd.Sandbox{Limits: SandboxLimits(c), FirstUID: c.TeamUIDs.Min, LastUID: c.TeamUIDs.Max,
		Hide: s.hiddenFrom(t), Listen: &net.ListenConfig{KeepAliveConfig: agentKeepAlive}}
}

// hiddenFrom lists what team t's command must not see: the server's
// working folder, the config's files and their folders, the tournament
// folder, the log and replay folders, the TLS files, what Options.Private
// names (a league's folder), and the other teams' dirs. Its own dir is
// shown even where it lies in one of these (the sandbox's Show).
func (s *Server) hiddenFrom(t config.Team) []string {
	c := s.cfg.Server
	paths := []string{s.tournamentDir(), c.ResultPath, c.LogPath, c.ReplayPath,
		c.AgentTLS.Cert, c.AgentTLS.Key, c.MonitorTLS.Cert, c.MonitorTLS.Key}
	if wd, err := os.Getwd(); err == nil {
		paths = append(paths, wd)
	}
	for _, f := range s.cfg.Files {
		paths = append(paths, f, filepath.Dir(f))
	}
	paths = append(paths, s.opts.Private...)
	for _, other := range s.cfg.Teams {
		if other.Name != t.Name && other.Dir != "" && other.Dir != t.Dir {
			paths = append(paths, other.Dir)
		}
	}
	var out []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		if abs, err := filepath.Abs(p); err == nil && !slices.Contains(out, abs) {
			out = append(out, abs)
		}
	}
	return out
}

// serveTeamPort accepts team's agents from the agent port inside its
// sandbox, wrapped as the server's own port (TLS when configured), until
// the team's command is stopped or the server shuts down.
func (s *Server) serveTeamPort(raw net.Listener, team string) {
	l, err := s.wrapAgentListener(raw)
	if err != nil {
		s.log.Error().Err(err).Str("team", team).Msg("cannot serve the agent port in the team's sandbox")
		_ = raw.Close()
		return
	}
	s.connMu.Lock()
	defer s.connMu.Unlock()
	if s.closed {
		_ = l.Close()
		return
	}
	if s.teamPorts == nil {
		s.teamPorts = map[net.Listener]struct{}{}
	}
	s.teamPorts[l] = struct{}{}
	s.wg.Add(1)
	go func() {
		s.acceptLoop(l, team)
		s.connMu.Lock()
		delete(s.teamPorts, l)
		s.connMu.Unlock()
	}()
}

// playingTeams are the teams the server may start commands of: the
// line-up of a match, else every team.
func (s *Server) playingTeams() []config.Team {
	if len(s.opts.Lineup) == 0 {
		return s.cfg.Teams
	}
	var out []config.Team
	for _, t := range s.cfg.Teams {
		if slices.Contains(s.opts.Lineup, t.Name) {
			out = append(out, t)
		}
	}
	return out
}

// TeamIsolation says how the config isolates team t's command, for pages:
// "connects by itself" without a command, "none (teamSandbox \"none\")",
// or the sandbox with its limits.
func TeamIsolation(cfg *config.Config, t config.Team) string {
	c := cfg.Server
	switch {
	case len(t.Command) == 0:
		return "connects by itself"
	case c.TeamSandbox == config.SandboxNone:
		return `none (teamSandbox "none")`
	case t.Image != "":
		return "podman image " + t.Image + ", a user id of teamUIDs, " + SandboxLimits(c).String()
	}
	return "namespaces, a user id of teamUIDs, " + SandboxLimits(c).String()
}
