package publish

import (
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/league"
	"github.com/massim-go/massim/tournament"
)

// League is what a league folder (one with league.json) adds to the
// site: its matches in the order of the plan, numbered by their league
// index as every league command numbers them (-replay 3,7), and a page per
// team and a cross table (docs/publishing.md, "Leagues").
type League struct {
	Rounds int               // rounds of the plan (1 when it has none)
	Teams  []string          // the plan's teams, config order
	Pages  map[string]string // team → its page, relative to the site
}

// Replaced is an earlier play of a match, set aside to play it again
// (league -replay, -replay-team); only the current play counts.
type Replaced struct {
	At     time.Time
	Why    string
	Result string // what the earlier play ended with, "" when unknown
}

// leagueMatches builds the site's matches from a league plan: match
// i of the plan is the tournament folder plan.Matches[i].Dir (absent: not
// played yet). tours are the tournament folders found in dir; those the
// plan sets aside (Replaced) are returned in aside, so that their replays
// are not published as loose ones: only a match's current play counts.
func (site *Site) leagueMatches(dir string, plan *league.Plan, tours []tournamentFolder) (sims []tournament.SimRecord, aside map[string]bool) {
	byRel := map[string]tournamentFolder{}
	for _, t := range tours {
		byRel[t.rel] = t
	}
	maps := mapLabels(plan.Config)
	aside = map[string]bool{}
	lg := &League{Rounds: max(plan.Rounds, 1), Teams: plan.Teams, Pages: map[string]string{}}
	for _, pm := range plan.Matches {
		rel := path.Clean(filepath.ToSlash(pm.Dir))
		m := Match{Folder: rel, Teams: pm.Teams, Pending: true}
		if t, ok := byRel[rel]; ok {
			if ms := site.folderMatches(dir, t); len(ms) > 0 {
				m = ms[0] // a league's match folder holds its one match
				m.Pending = t.manifest.State != tournament.StateFinished
				sims = append(sims, t.manifest.Simulations...)
			}
		}
		m.Number, m.ID, m.Round = pm.Index, fmt.Sprintf("match-%d", pm.Index), max(pm.Round, 1)
		m.Teams = pm.Teams
		m.Label = fmt.Sprintf("Match %d · %s", pm.Index, strings.Join(pm.Teams, " vs "))
		for i, s := range m.Sims {
			s.Number, s.ID = i+1, fmt.Sprintf("sim-%d-%d", pm.Index, i+1)
			s.Map = maps.of(s.index)
		}
		for _, r := range pm.Replaced {
			old := path.Clean(filepath.ToSlash(r.Dir))
			aside[old] = true
			rep := Replaced{At: r.At, Why: r.Why}
			if t, ok := byRel[old]; ok {
				if ms := matchesOf(t); len(ms) > 0 {
					rep.Result = pointsText(ms[0].Teams, ms[0].Points)
				}
			}
			m.Replaced = append(m.Replaced, rep)
		}
		site.Matches = append(site.Matches, m)
	}
	for _, team := range plan.Teams {
		lg.Pages[team] = teamPage(team)
	}
	site.League = lg
	return sims, aside
}

// teamPage is the site path of a team's page.
func teamPage(team string) string { return "teams/" + slug(team) + ".html" }

// simMaps names the map of each simulation of a match: the config's match
// entry i is simulation i.
type simMaps []string

func (m simMaps) of(i int) string {
	if i < 0 || i >= len(m) {
		return ""
	}
	return m[i]
}

// mapLabels reads the league's config for the name of each simulation's
// map. A config that is gone or no longer loads only costs the names.
func mapLabels(conf string) simMaps {
	cfg, err := config.Load(conf)
	if err != nil {
		return nil
	}
	var out simMaps
	for _, m := range cfg.Match {
		out = append(out, mapLabel(m.ID, m.Grid.File, m.Grid.Width, m.Grid.Height))
	}
	return out
}

// mapLabel names a map for people: its file's name without the
// extension, else the match entry's id, with the grid's size.
func mapLabel(id, file string, width, height int) string {
	name := id
	if file != "" {
		name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	size := ""
	if width > 0 && height > 0 {
		size = fmt.Sprintf("%d×%d", width, height)
	}
	return strings.TrimSpace(name + " " + size)
}

// replayMap is the map label of a replay written by our server: its match
// record names the config's entry (a config.Match in JSON).
func replayMap(match json.RawMessage) string {
	var m struct {
		ID   string
		Grid struct {
			File          string
			Width, Height int
		}
	}
	if len(match) == 0 || json.Unmarshal(match, &m) != nil {
		return ""
	}
	return mapLabel(m.ID, m.Grid.File, m.Grid.Width, m.Grid.Height)
}
