package ladder

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// team is a registered team as the ladder keeps it while the season runs.
type team struct {
	cfg config.Team
	// arrivals decides when its agents are in (docs/protocol.md,
	// "Connecting a team"); a fresh one after every match.
	arrivals tournament.Arrivals
	// readySince is when it became ready (zero: not ready).
	readySince time.Time
	// playing is the number of the match it plays (0: none); rests until
	// the end of its rest after a match.
	playing int
	rests   time.Time
	// stale: its password or accounts changed while it played; its
	// connections are dropped when they come back from the match.
	stale bool
}

// command reports whether the ladder starts the team's agents.
func (t *team) command() bool { return len(t.cfg.Command) > 0 }

// The house team (docs/seasons.md, "The house team"): our sample agents,
// started by the ladder as the team command of a house match. Several
// house matches may run at once, so each gets accounts of its own: team
// "house" with the prefix houseStem and a slot number (house accounts
// ladder-h1-house1, …). Registered teams may not use the name nor
// accounts that start with the stem.
const (
	houseName = "house"
	houseStem = "ladder-h"
)

// houseTeam is the house team of slot k (1, 2, …).
func (l *Ladder) houseTeam(k int) config.Team {
	strategy := l.cfg.Ladder.HouseTeam
	cmd := []string{l.opts.Executable, "agents", "-host", "{host}", "-port", "{port}", "-team", "{team}",
		"-prefix", "{prefix}", "-password", "{password}", "-count", "{agents}", "-strategy", strategy, "-log-format", "json"}
	if files := l.cfg.Server.AgentTLS; files.On() {
		cmd = append(cmd, "-tls", "-tls-ca", files.Cert)
	}
	return config.Team{Name: houseName, Prefix: fmt.Sprintf("%s%d-", houseStem, k), Password: l.housePassword, Command: cmd}
}

// checkSandbox says why the commands of teams and of the house team
// cannot be started in their sandboxes on this machine, as a tournament's
// server does before its first match (server.CheckSandbox; nil when they
// can, or teamSandbox is "none"). The running season's server block
// decides: a reload changes only the teams.
func (l *Ladder) checkSandbox(teams []config.Team) error {
	l.mu.Lock()
	c := *l.cfg
	c.Teams = slices.Clone(teams)
	if c.Ladder.HouseTeam != config.HouseOff {
		c.Teams = append(c.Teams, l.houseTeam(1))
	}
	l.mu.Unlock()
	if c.Ladder.HouseTeam != config.HouseOff {
		l.warnHiddenHouse(&c)
	}
	return server.CheckSandbox(&c, c.Teams)
}

// warnHiddenHouse warns when the house team's command, the massim binary
// itself, lies in a folder its sandbox hides or replaces (the working
// folder, the config's, /tmp and the home folder, which are the team's
// own scratch space there): its agents would never connect.
func (l *Ladder) warnHiddenHouse(cfg *config.Config) {
	if cfg.Server.TeamSandbox == config.SandboxNone || l.opts.Executable == "" {
		return
	}
	hidden := []string{"/tmp"}
	if wd, err := os.Getwd(); err == nil {
		hidden = append(hidden, wd)
	}
	if home, err := os.UserHomeDir(); err == nil {
		hidden = append(hidden, home)
	}
	for _, f := range cfg.Files {
		hidden = append(hidden, filepath.Dir(f))
	}
	for _, h := range hidden {
		if rel, err := filepath.Rel(h, l.opts.Executable); err == nil && !strings.HasPrefix(rel, "..") {
			l.log.Warn().Str("binary", l.opts.Executable).Str("folder", h).
				Msg("the house team's command is this massim binary, in a folder the team sandbox hides (the working folder, the config's, /tmp, the home folder): install massim elsewhere (e.g. /usr/local/bin), or set ladder.houseTeam to \"off\"")
			return
		}
	}
}

// newHousePassword is a password nobody knows, made at every start.
func newHousePassword() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// checkTeams refuses teams the ladder cannot run: a team named like the
// house team or with accounts of its stem, when the house plays.
func checkTeams(cfg *config.Config) error {
	if cfg.Ladder.HouseTeam == config.HouseOff {
		return nil
	}
	var errs []error
	for _, t := range cfg.Teams {
		switch {
		case t.Name == houseName:
			errs = append(errs, fmt.Errorf("%s: teams.%s: the name of the house team (ladder.houseTeam); rename the team or set houseTeam to \"off\"", cfg.Path, t.Name))
		case strings.HasPrefix(t.Prefix+t.Name, houseStem):
			errs = append(errs, fmt.Errorf("%s: teams.%s: accounts %s… are the house team's (%s…); use another prefix", cfg.Path, t.Name, t.Prefix+t.Name, houseStem))
		}
	}
	return errors.Join(errs...)
}

// LoadConfig reads the config file for a start or a reload, refusing what
// massim serve refuses and what checkTeams refuses.
func LoadConfig(path string) (*config.Config, error) {
	cfg, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	skipped, err := sim.CheckMatches(cfg)
	if err != nil {
		return nil, err
	}
	cfg.Warnings = append(cfg.Warnings, skipped...)
	if err := checkTeams(cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// ReloadReport says what a reload changed.
type ReloadReport struct {
	Added   []string `json:"added"`
	Retired []string `json:"retired"`
	Back    []string `json:"back"`    // retired teams registered again
	Changed []string `json:"changed"` // password, prefix or command changed
	// Ignored names the parts of the config besides the teams that differ
	// from the running season's: a reload changes only the teams; a
	// restart (-resume) applies the rest.
	Ignored []string `json:"ignored"`
}

// Reload reads the config file again and applies its teams (SIGHUP, POST
// /admin/reload): new teams are registered, teams that are gone retired
// (their results stay), teams whose password, prefix or command changed
// updated (their idle connections are closed: they log in again). A file
// that does not load, or whose teams the ladder cannot run, is refused
// whole, with its file and key, and changes nothing.
func (l *Ladder) Reload() (ReloadReport, error) {
	cfg, err := LoadConfig(l.opts.ConfigPath)
	if err != nil {
		l.log.Error().Err(err).Str("config", l.opts.ConfigPath).Msg("reload refused; the season goes on unchanged")
		return ReloadReport{}, fmt.Errorf("ladder: reload refused: %w", err)
	}
	if err := l.checkSandbox(cfg.Teams); err != nil {
		l.log.Error().Err(err).Str("config", l.opts.ConfigPath).Msg("reload refused; the season goes on unchanged")
		return ReloadReport{}, fmt.Errorf("ladder: reload refused: %w", err)
	}
	l.mu.Lock()
	rep, drop := l.applyTeams(cfg.Teams)
	if oldParts, err1 := l.cfg.ChecksumParts(); err1 == nil {
		if newParts, err2 := cfg.ChecksumParts(); err2 == nil {
			for _, p := range config.DifferingParts(oldParts, newParts) {
				if !strings.HasPrefix(p, "teams") { // "teams", "teams.X", "teams (order)"
					rep.Ignored = append(rep.Ignored, p)
				}
			}
		}
	}
	err = l.saveRegistry()
	l.mu.Unlock()
	l.desk.Drop(drop)
	l.log.Info().Strs("added", rep.Added).Strs("retired", rep.Retired).Strs("back", rep.Back).Strs("changed", rep.Changed).
		Msg("teams reloaded")
	if len(rep.Ignored) > 0 {
		l.log.Warn().Strs("parts", rep.Ignored).Msg("a reload changes only the teams; these changed parts of the config apply after a restart with -resume")
	}
	l.poke()
	return rep, err
}

// applyTeams makes teams the registered teams (l.mu held) and returns what
// changed and the idle accounts to drop.
func (l *Ladder) applyTeams(teams []config.Team) (ReloadReport, []string) {
	var rep ReloadReport
	var drop []string
	now := l.now()
	ch := l.reg.Apply(teams, now)
	rep.Added, rep.Retired, rep.Back = ch.Added, ch.Retired, ch.Back
	for _, t := range teams {
		old, ok := l.teams[t.Name]
		if !ok {
			l.teams[t.Name] = &team{cfg: t, arrivals: tournament.Arrivals{Quiet: l.cfg.Server.TeamQuietTime}}
			continue
		}
		if old.cfg.Password != t.Password || old.cfg.Prefix != t.Prefix || !slices.Equal(old.cfg.Command, t.Command) {
			if !slices.Contains(rep.Changed, t.Name) {
				rep.Changed = append(rep.Changed, t.Name)
			}
			drop = append(drop, l.accountsOf(old.cfg)...)
			old.stale = old.playing != 0
			old.readySince, old.arrivals = time.Time{}, tournament.Arrivals{Quiet: l.cfg.Server.TeamQuietTime}
		}
		old.cfg = t
	}
	for name, t := range l.teams {
		if !slices.ContainsFunc(teams, func(c config.Team) bool { return c.Name == name }) {
			drop = append(drop, l.accountsOf(t.cfg)...)
			if t.playing == 0 {
				delete(l.teams, name)
			} else {
				t.stale = true // dropped when its match ends
			}
		}
	}
	l.cfg.Teams = slices.Clone(teams)
	l.indexAccounts()
	return rep, drop
}

// accountsOf lists a team's accounts (1 … the largest team size).
func (l *Ladder) accountsOf(t config.Team) []string {
	n := l.cfg.MaxTeamSize()
	out := make([]string, n)
	for i := range n {
		out[i] = t.AccountName(i + 1)
	}
	return out
}

// indexAccounts rebuilds the passwords the desk checks logins against:
// the registered teams' and those of the house teams that play (l.mu held).
func (l *Ladder) indexAccounts() {
	l.passwords = map[string]string{}
	for _, t := range l.teams {
		if l.reg.Active(t.cfg.Name) {
			for _, u := range l.accountsOf(t.cfg) {
				l.passwords[u] = t.cfg.Password
			}
		}
	}
	for _, m := range l.running {
		if m.house != nil {
			for _, u := range l.accountsOf(*m.house) {
				l.passwords[u] = m.house.Password
			}
		}
	}
}

// password is the desk's check of a login.
func (l *Ladder) password(user string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p, ok := l.passwords[user]
	return p, ok
}

// saveRegistry writes the teams file (l.mu held).
func (l *Ladder) saveRegistry() error {
	if err := l.reg.Write(l.opts.Dir); err != nil {
		l.log.Error().Err(err).Msg("the season's teams file was not written")
		return err
	}
	return nil
}
