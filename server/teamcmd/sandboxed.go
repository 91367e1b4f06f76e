package teamcmd

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server/teamcmd/sandbox"
)

// Sandbox says how to isolate a team's command (docs/untrusted-teams.md):
// its limits, the range of user ids to take one from, and what it must not
// see.
type Sandbox struct {
	Limits            sandbox.Limits
	FirstUID, LastUID int
	// Hide are the paths the team must not see (the config, the
	// tournament folder, the other teams' dirs, …); the team's own dir,
	// and the massim binary when its command uses {massim}, are shown even
	// where they lie in a hidden folder.
	Hide []string
	// Listen configures the listener on the agent port inside the sandbox
	// (nil: Go's defaults).
	Listen *net.ListenConfig
}

// sandboxed is a started command's sandbox, as the server holds it.
type sandboxed struct {
	spec   sandbox.Spec
	lease  *os.File // the user id's lease, handed to the supervisor
	listen *net.ListenConfig
	port   int
	serve  func(net.Listener)
}

// lease takes a user id for team and builds its sandbox's spec.
func (s *Sandbox) lease(team config.Team, grace time.Duration) (*sandboxed, error) {
	uid, lease, err := sandbox.LeaseUID(s.FirstUID, s.LastUID)
	if err != nil {
		return nil, fmt.Errorf("teamcmd: team %s: %w", team.Name, err)
	}
	sp := sandbox.Spec{Mode: sandbox.ModeNamespaces, Team: team.Name, UID: uid, Limits: s.Limits,
		Cgroup: sandbox.CgroupName(uid), Hide: existing(s.Hide), Grace: grace}
	if team.Dir != "" {
		sp.Show = existing([]string{team.Dir})
	}
	if team.UsesPlaceholder(config.ProgramPlaceholder) {
		// {massim} is this binary, wherever it lies (often the working
		// folder, which is hidden): the team sees that one file.
		sp.Show = append(sp.Show, existing([]string{Massim()})...)
	}
	if team.Image != "" {
		engine, err := sandbox.Engine()
		if err != nil {
			_ = lease.Close()
			return nil, fmt.Errorf("teamcmd: team %s: %w", team.Name, err)
		}
		sp.Mode, sp.Engine, sp.Image, sp.Container = sandbox.ModePodman, engine, team.Image, sandbox.ContainerName(uid)
	}
	return &sandboxed{spec: sp, lease: lease, listen: s.Listen}, nil
}

// existing resolves symbolic links in paths (the view is built from what
// they point to) and leaves out the paths that do not exist.
func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			if abs, err := filepath.Abs(real); err == nil {
				out = append(out, abs)
			}
		}
	}
	return out
}

// host is {host} in a sandbox: the agent port is on its loopback.
func (b *sandboxed) host() string { return "127.0.0.1" }

// openAgentPort runs when the supervisor has built the sandbox: it opens
// the agent port inside the team's network namespace, hands it to Serve
// and lets the supervisor start the command. A port that cannot be opened
// stops the team: its agents could reach nothing.
func (p *Process) openAgentPort() {
	l, err := sandbox.ListenIn(p.cmd.Process.Pid, p.box.listen, p.box.port)
	if err != nil {
		p.log.Error().Err(err).Msg("cannot open the agent port in the team's sandbox; the team is stopped")
		p.stopOnce.Do(func() { _ = p.stdin.Close() })
		return
	}
	p.mu.Lock()
	p.listener = l
	p.mu.Unlock()
	if p.box.serve != nil {
		p.box.serve(l)
	}
	p.log.Info().Str("sandbox", p.box.spec.Describe()).Msg("team sandbox ready")
	_, _ = p.stdin.WriteString(goLine) // fails only when the team was stopped meanwhile
}

// ended closes the agent port of the sandbox and removes what a killed
// supervisor left (its cgroup, a container).
func (b *sandboxed) ended(l net.Listener, log zerolog.Logger) {
	if l != nil {
		_ = l.Close()
	}
	if err := sandbox.Remove(b.spec); err != nil {
		log.Error().Err(err).Msg("cannot remove the team's cgroup")
	}
}

// Isolation says how the team is isolated: the sandbox's description, or
// "none".
func (p *Process) Isolation() string {
	if p.box == nil {
		return "none"
	}
	return p.box.spec.Describe()
}

// Sandboxed reports whether the team runs in a sandbox: then PID is a pid
// of the team's own PID namespace (not of the server's).
func (p *Process) Sandboxed() bool { return p.box != nil }

// CPU is the CPU time the sandboxed team has used so far (all its
// processes; 0 without a sandbox).
func (p *Process) CPU() time.Duration {
	if p.box == nil {
		return 0
	}
	d, err := sandbox.CPU(p.box.spec)
	if err != nil {
		return 0
	}
	return d
}
