package season

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"time"

	"github.com/massim-go/massim/config"
)

// Registration is a team as the season records it: every team ever
// registered stays, so that a retired team keeps its history and a team
// that comes back keeps its games. No password is kept here: the config
// holds them.
type Registration struct {
	Team       string     `json:"team"`
	Prefix     string     `json:"prefix"`
	Command    bool       `json:"command,omitempty"` // started by the ladder for its matches
	Registered time.Time  `json:"registered"`
	Retired    *time.Time `json:"retired,omitempty"`
}

// Registry is the teams file of a season folder.
type Registry struct {
	Format string         `json:"format"`
	Teams  []Registration `json:"teams"` // in order of first registration
}

// ReadRegistry reads the teams file of dir; a season without one yet has
// none registered.
func ReadRegistry(dir string) (Registry, error) {
	var r Registry
	err := readJSON(filepath.Join(dir, TeamsFile), TeamsFormat, &r, &r.Format)
	if errors.Is(err, fs.ErrNotExist) {
		return Registry{Format: TeamsFormat}, nil
	}
	return r, err
}

// Write writes the teams file of dir.
func (r Registry) Write(dir string) error {
	r.Format = TeamsFormat
	return writeJSON(filepath.Join(dir, TeamsFile), r)
}

// Active reports whether team is registered and not retired.
func (r Registry) Active(team string) bool {
	i := slices.IndexFunc(r.Teams, func(g Registration) bool { return g.Team == team })
	return i >= 0 && r.Teams[i].Retired == nil
}

// Names lists every team ever registered, in order of registration.
func (r Registry) Names() []string {
	out := make([]string, len(r.Teams))
	for i, g := range r.Teams {
		out[i] = g.Team
	}
	return out
}

// Changes says what Apply changed.
type Changes struct {
	Added, Retired, Back, Changed []string
}

// Empty reports whether nothing changed.
func (c Changes) Empty() bool {
	return len(c.Added)+len(c.Retired)+len(c.Back)+len(c.Changed) == 0
}

// Apply makes the registry follow the teams of a config: new teams are
// registered, teams no longer there retired, retired teams that are there
// again back; a team whose prefix or command changed is Changed.
func (r *Registry) Apply(teams []config.Team, now time.Time) Changes {
	var c Changes
	now = now.UTC()
	for _, t := range teams {
		i := slices.IndexFunc(r.Teams, func(g Registration) bool { return g.Team == t.Name })
		if i < 0 {
			r.Teams = append(r.Teams, Registration{Team: t.Name, Prefix: t.Prefix, Command: len(t.Command) > 0, Registered: now})
			c.Added = append(c.Added, t.Name)
			continue
		}
		g := &r.Teams[i]
		if g.Retired != nil {
			g.Retired = nil
			c.Back = append(c.Back, t.Name)
		}
		if g.Prefix != t.Prefix || g.Command != (len(t.Command) > 0) {
			g.Prefix, g.Command = t.Prefix, len(t.Command) > 0
			c.Changed = append(c.Changed, t.Name)
		}
	}
	for i := range r.Teams {
		g := &r.Teams[i]
		if g.Retired == nil && !slices.ContainsFunc(teams, func(t config.Team) bool { return t.Name == g.Team }) {
			g.Retired = &now
			c.Retired = append(c.Retired, g.Team)
		}
	}
	return c
}
