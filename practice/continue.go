package practice

import (
	"fmt"
	"slices"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/replays/rebuild"
	"github.com/massim-go/massim/sim"
)

// Continue makes cfg play on from step of a recorded simulation
// (docs/practice.md, "Start from any step"): its match array becomes the
// record's match entry (with the recorded seed) and its teams the recorded
// ones in match order, each with the password (and team command) of the
// config's team of the same name and the recorded account prefix. It
// returns the Rerun and the line-up of the server that plays on (server.Options.Rerun and Lineup).
func Continue(cfg *config.Config, rec *rebuild.Record, step int) (*sim.Rerun, []string, error) {
	if step < -1 || step > rec.Last {
		return nil, nil, fmt.Errorf("practice: -step %d: the replay holds steps -1 … %d", step, rec.Last)
	}
	r := rec.Meta.Record
	m, err := rebuild.Match(r)
	if err != nil {
		return nil, nil, fmt.Errorf("practice: %w", err)
	}
	teams := make([]config.Team, len(r.Teams))
	lineup := make([]string, len(r.Teams))
	for i, rt := range r.Teams {
		k := slices.IndexFunc(cfg.Teams, func(t config.Team) bool { return t.Name == rt.Name })
		if k < 0 {
			return nil, nil, fmt.Errorf("practice: the replay's team %q is not in the config (its teams: %s)", rt.Name, teamNames(cfg.Teams))
		}
		teams[i] = cfg.Teams[k]
		teams[i].Prefix = rt.Prefix
		lineup[i] = rt.Name
	}
	cfg.Match = []config.Match{m}
	cfg.Teams = teams
	cfg.Server.TeamsPerMatch = len(teams)
	rerun := &sim.Rerun{Step: step, Answers: rec.Answers[:step+1], Files: rebuild.Files(r.Files)}
	return rerun, lineup, nil
}

func teamNames(teams []config.Team) string {
	var s string
	for i, t := range teams {
		if i > 0 {
			s += ", "
		}
		s += t.Name
	}
	return s
}
