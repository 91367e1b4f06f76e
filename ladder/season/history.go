package season

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/massim-go/massim/tournament"
)

// Match is a match of the history: the ladder's record and, once
// finished, what its folder recorded of each team.
type Match struct {
	MatchRecord
	Sims    []tournament.SimRecord // the simulations its manifest records
	Results []TeamResult           // its teams, in match order (finished matches)
}

// TeamResult is how a team did in a whole match.
type TeamResult struct {
	Team  string `json:"team"`
	Score int64  `json:"score"`  // summed over the match's simulations
	Wins  int    `json:"wins"`   // simulations won
	Draws int    `json:"draws"`  // simulations drawn
	Loss  int    `json:"losses"` // simulations lost
	// NoAction is the share of the team's agent steps that were played
	// with no_action because no answer came in time (or the agent had no
	// connection), from the stats file; -1 when unknown.
	NoAction float64 `json:"noAction"`
}

// Ends reports whether the match no longer runs.
func (m Match) Ends() bool { return m.State != StateRunning }

// Result returns the result of team in the match.
func (m Match) Result(team string) (TeamResult, bool) {
	i := slices.IndexFunc(m.Results, func(r TeamResult) bool { return r.Team == team })
	if i < 0 {
		return TeamResult{}, false
	}
	return m.Results[i], true
}

// LoadMatch reads match number of the season folder dir: its record, its
// manifest and stats when the server wrote them.
func LoadMatch(dir string, number int) (Match, error) {
	rec, err := ReadMatch(dir, number)
	if err != nil {
		return Match{}, err
	}
	m := Match{MatchRecord: rec}
	folder := MatchDir(dir, number)
	man, err := tournament.ReadManifest(folder)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return m, fmt.Errorf("season: match %s: %w", Name(number), err)
	}
	m.Sims = man.Simulations
	if rec.State == StateRunning && man.State == tournament.StateFinished {
		// The ladder died after the match was recorded, before it noted
		// so: the manifest is the record (Recover writes it down).
		m.State, m.Ended = StateFinished, man.Updated
	}
	if m.State == StateFinished {
		m.Results = results(rec.Teams, man.Simulations, noActionShares(folder))
	}
	return m, nil
}

// results sums the simulations of a match per team.
func results(teams []string, sims []tournament.SimRecord, noAction map[string]float64) []TeamResult {
	out := make([]TeamResult, len(teams))
	for i, t := range teams {
		out[i] = TeamResult{Team: t, NoAction: -1}
		if v, ok := noAction[t]; ok {
			out[i].NoAction = v
		}
	}
	for _, sim := range sims {
		for _, row := range tournament.ComputeStandings(nil, []tournament.SimRecord{sim}) {
			i := slices.Index(teams, row.Team)
			if i < 0 {
				continue
			}
			r := &out[i]
			r.Score += row.Score
			switch {
			case row.Wins > 0 && row.Losses == 0:
				r.Wins++
			case row.Losses > 0 && row.Wins == 0:
				r.Loss++
			default:
				r.Draws++
			}
		}
	}
	return out
}

// noActionShares reads the stats file of a match folder: per team, the
// share of agent steps without an action in time (timeouts and offline
// steps over all steps). An unreadable file gives none.
func noActionShares(folder string) map[string]float64 {
	st, err := tournament.ReadStats(folder)
	if err != nil {
		return nil
	}
	missed, all := map[string]int64{}, map[string]int64{}
	for _, sim := range st.Simulations {
		for _, a := range sim.Agents {
			missed[a.Team] += a.Timeouts + a.Offline
			all[a.Team] += a.Actions + a.Timeouts + a.Offline
		}
	}
	out := map[string]float64{}
	for team, n := range all {
		if n > 0 {
			out[team] = float64(missed[team]) / float64(n)
		}
	}
	return out
}

// History is every match of a season, by number.
type History struct {
	Matches []Match
}

// Load reads every match of the season folder dir.
func Load(dir string) (*History, error) {
	numbers, err := MatchNumbers(dir)
	if err != nil {
		return nil, err
	}
	h := &History{}
	for _, n := range numbers {
		m, err := LoadMatch(dir, n)
		if err != nil {
			return nil, err
		}
		h.Matches = append(h.Matches, m)
	}
	// Ratings after each rated match are in its record; a record without
	// them (written by hand, or lost) gets them fit again, in the order
	// the matches ended.
	for _, m := range h.Ended() {
		if m.Rated() && len(m.After) == 0 {
			h.Matches[slices.IndexFunc(h.Matches, func(o Match) bool { return o.Number == m.Number })].After = h.ratingsAfter(m)
		}
	}
	return h, nil
}

// NextNumber is the number of the next match.
func (h *History) NextNumber() int {
	if len(h.Matches) == 0 {
		return 1
	}
	return h.Matches[len(h.Matches)-1].Number + 1
}

// Recover settles the matches a previous ladder left running (it was
// killed, or crashed): a match whose folder recorded it as finished counts
// (its ratings are fit now); any other was cut and never counts. Their
// records are rewritten; it returns the numbers of the matches it cut.
func (h *History) Recover(dir string, now time.Time) (cut []int, err error) {
	for i := range h.Matches {
		m := &h.Matches[i]
		rec, rerr := ReadMatch(dir, m.Number)
		if rerr != nil {
			return cut, rerr
		}
		switch {
		case rec.State != StateRunning:
			continue
		case m.State == StateFinished:
			m.After = h.ratingsAfter(*m)
		default:
			m.State, m.Ended = StateCut, now.UTC()
			m.Note = "the ladder stopped during the match (killed or crashed); not counted"
			cut = append(cut, m.Number)
		}
		if err := WriteMatch(dir, m.MatchRecord); err != nil {
			return cut, err
		}
	}
	return cut, nil
}

// Add puts a match into the history (a new one, or one that ended: it
// replaces the entry of the same number). A rated match gets its teams'
// ratings after it (After) first.
func (h *History) Add(m Match) Match {
	if m.Rated() && len(m.After) == 0 {
		m.After = h.ratingsAfter(m)
	}
	i := slices.IndexFunc(h.Matches, func(o Match) bool { return o.Number == m.Number })
	if i >= 0 {
		h.Matches[i] = m
		return m
	}
	h.Matches = append(h.Matches, m)
	slices.SortFunc(h.Matches, func(a, b Match) int { return cmp.Compare(a.Number, b.Number) })
	return m
}

// Ended lists the matches that ended, finished or not, in the order they
// ended (then by number).
func (h *History) Ended() []Match {
	var out []Match
	for _, m := range h.Matches {
		if m.Ends() && m.State != StateFailed {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b Match) int { return byEnd(a, b) })
	return out
}

// Running lists the matches that run, by number.
func (h *History) Running() []Match {
	var out []Match
	for _, m := range h.Matches {
		if !m.Ends() {
			out = append(out, m)
		}
	}
	return out
}

// Of lists the ended matches of team, in the order they ended.
func (h *History) Of(team string) []Match {
	var out []Match
	for _, m := range h.Ended() {
		if slices.Contains(m.Teams, team) {
			out = append(out, m)
		}
	}
	return out
}

func byEnd(a, b Match) int {
	return cmp.Or(a.Ended.Compare(b.Ended), cmp.Compare(a.Number, b.Number))
}
