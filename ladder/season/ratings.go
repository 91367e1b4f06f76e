package season

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/massim-go/massim/internal/atomicfile"

	"github.com/massim-go/massim/league"
	"github.com/massim-go/massim/tournament"
)

// The standings and ratings of a season (docs/seasons.md, "Standings and
// ratings") count its rated matches only: finished ranked matches
// (automatic pairings and ranked scrimmages). Unranked scrimmages, house
// matches and cut matches are in each team's history, not in the table.
// As in a league, every simulation is a pairwise result; the ratings are
// the league's Bradley–Terry fit with standard errors (league/rating),
// refit over the whole season after every rated match.

// rated lists the simulations of the rated matches that ended up to and
// including upTo (all when upTo is the zero Match), in the order they
// ended.
func (h *History) rated(upTo *Match) []tournament.SimRecord {
	var sims []tournament.SimRecord
	for _, m := range h.Ended() {
		if upTo != nil && byEnd(m, *upTo) > 0 {
			break
		}
		if m.Rated() && (upTo == nil || m.Number != upTo.Number) {
			sims = append(sims, m.Sims...)
		}
	}
	if upTo != nil && upTo.Rated() {
		sims = append(sims, upTo.Sims...)
	}
	return sims
}

// ratingsAfter fits the ratings of the rated matches up to m, which has
// just ended, and returns those of m's teams.
func (h *History) ratingsAfter(m Match) []RatingPoint {
	games := h.ratedGames(&m)
	var out []RatingPoint
	for _, st := range league.Standings(m.Teams, h.rated(&m), time.Time{}).Standings {
		if slices.Contains(m.Teams, st.Team) {
			out = append(out, RatingPoint{Team: st.Team, Rating: st.Rating, Error: st.RatingError, Games: games[st.Team]})
		}
	}
	return out
}

// ratedGames counts the rated matches of each team up to m (nil: all).
func (h *History) ratedGames(upTo *Match) map[string]int {
	games := map[string]int{}
	for _, m := range h.Ended() {
		if upTo != nil && byEnd(m, *upTo) > 0 {
			break
		}
		if m.Rated() && (upTo == nil || m.Number != upTo.Number) {
			for _, t := range m.Teams {
				games[t]++
			}
		}
	}
	if upTo != nil && upTo.Rated() {
		for _, t := range upTo.Teams {
			games[t]++
		}
	}
	return games
}

// Row is a team's line of the season's standings.
type Row struct {
	tournament.Standing
	Games       int  `json:"games"`       // rated matches
	Provisional bool `json:"provisional"` // fewer than ladder.provisional rated matches
	Retired     bool `json:"retired,omitempty"`
	Unranked    int  `json:"unranked"` // unranked scrimmages played
	// HouseWins, HouseDraws and HouseLosses count the simulations against
	// the house team (not rated).
	HouseWins   int `json:"houseWins"`
	HouseDraws  int `json:"houseDraws"`
	HouseLosses int `json:"houseLosses"`
}

// Standings are the season's standings: every registered team (retired
// ones marked), ranked by points as in a tournament, with its rating; the
// file is the league's (tournament.StandingsFile with ratings), which
// massim publish reads.
func (h *History) Standings(reg Registry, provisional int, now time.Time) ([]Row, tournament.StandingsFile) {
	teams := reg.Names()
	file := league.Standings(teams, h.rated(nil), now)
	games := h.ratedGames(nil)
	var rows []Row
	for _, st := range file.Standings {
		if !slices.Contains(teams, st.Team) {
			continue // a house team in a rated match cannot happen; a team gone from the registry can
		}
		r := Row{Standing: st, Games: games[st.Team], Retired: !reg.Active(st.Team)}
		r.Provisional = r.Games < provisional
		if r.Games == 0 {
			r.Rating, r.RatingError = 0, 0 // no rating without a game
		}
		for _, m := range h.Of(st.Team) {
			switch {
			case m.State != StateFinished:
			case m.Kind == KindUnranked:
				r.Unranked++
			case m.Kind == KindHouse:
				if res, ok := m.Result(st.Team); ok {
					r.HouseWins += res.Wins
					r.HouseDraws += res.Draws
					r.HouseLosses += res.Loss
				}
			}
		}
		rows = append(rows, r)
	}
	for i := range file.Standings {
		if games[file.Standings[i].Team] == 0 {
			file.Standings[i].Rating, file.Standings[i].RatingError = 0, 0
		}
	}
	return rows, file
}

// RatingHistory is a team's rating after each of its rated matches, in
// the order they ended.
func (h *History) RatingHistory(team string) []HistoryPoint {
	var out []HistoryPoint
	for _, m := range h.Of(team) {
		if !m.Rated() {
			continue
		}
		for _, p := range m.After {
			if p.Team == team {
				out = append(out, HistoryPoint{Match: m.Number, Ended: m.Ended, RatingPoint: p})
			}
		}
	}
	return out
}

// HistoryPoint is a point of a team's rating history.
type HistoryPoint struct {
	Match int       `json:"match"`
	Ended time.Time `json:"ended"`
	RatingPoint
}

// WriteStandings writes the standings file (league format) and its table
// into the season folder dir.
func WriteStandings(dir string, file tournament.StandingsFile) error {
	if err := tournament.WriteStandingsFile(filepath.Join(dir, StandingsFile), file); err != nil {
		return fmt.Errorf("season: %w", err)
	}
	var table bytes.Buffer
	fmt.Fprintf(&table, "%d simulations of rated matches\n", file.Simulations)
	if err := tournament.WriteStandingsTable(&table, file.Standings); err != nil {
		return fmt.Errorf("season: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, StandingsText), table.Bytes(), atomicfile.Options{}); err != nil {
		return fmt.Errorf("season: write standings table: %w", err)
	}
	return nil
}
