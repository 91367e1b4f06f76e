package tournament

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Tournament points, compared pairwise: in every simulation each team meets
// every other team of that simulation once. Against each opponent a higher
// score is a win (3 points), an equal score a draw (1 point), a lower score a
// loss (0 points). With two teams per match this is the usual 3/1/0; with
// more, a simulation of n teams counts n-1 results for each team, so the
// second of three teams gets one win and one loss (3 points), which ranking
// only by first place would throw away.
const (
	PointsWin  = 3
	PointsDraw = 1
	PointsLoss = 0
)

// Result is one team's result against one other team of a simulation.
type Result int

const (
	NoResult Result = iota // both forfeited: no result between them
	Win
	Draw
	Loss
)

// Against is the result of a team with score against a team with other in
// one simulation; gone and otherGone say who forfeited it (none of its
// agents connected): a forfeit loses to a team that was there, whatever
// the scores, and two forfeits make no result (docs/leagues.md,
// "Forfeits"). The one rule of the standings, the cross table and the team
// pages.
func Against(score, other int64, gone, otherGone bool) Result {
	switch {
	case gone && otherGone:
		return NoResult
	case gone:
		return Loss
	case otherGone || score > other:
		return Win
	case score == other:
		return Draw
	}
	return Loss
}

// Points are the tournament points of the result.
func (r Result) Points() int {
	switch r {
	case Win:
		return PointsWin
	case Draw:
		return PointsDraw
	}
	return PointsLoss
}

// Opposite is the other team's result of the same meeting.
func (r Result) Opposite() Result {
	switch r {
	case Win:
		return Loss
	case Loss:
		return Win
	}
	return r
}

// Scoring describes the points scheme in the standings file.
const Scoring = "pairwise: against each other team of a simulation, higher score = win (3), equal = draw (1), lower = loss (0); " +
	"a team none of whose agents connected forfeits: a loss for it, a win for each team that was there; a simulation every team forfeited counts for nobody"

// Standing is one team's line of the standings table.
type Standing struct {
	Rank   int    `json:"rank"`
	Team   string `json:"team"`
	Played int    `json:"played"` // simulations played
	Wins   int    `json:"wins"`   // pairwise results, see PointsWin
	Draws  int    `json:"draws"`
	Losses int    `json:"losses"`
	Points int    `json:"points"`
	Score  int64  `json:"score"` // sum of the team's scores over its simulations
	// Forfeits counts the simulations the team forfeited (none of its
	// agents connected; docs/leagues.md, "Forfeits"), also those every
	// team forfeited, which count for nobody otherwise.
	Forfeits int `json:"forfeits"`
	// Rating and RatingError, when set, are the team's Bradley–Terry
	// rating and its standard error on an Elo-like scale, fit from the
	// pairwise results (league/rating; docs/leagues.md, "Ratings"). They
	// stand beside the points, which stay the ranking.
	Rating      float64 `json:"rating,omitempty"`
	RatingError float64 `json:"ratingError,omitempty"`
}

// ComputeStandings builds the standings table from completed simulations.
// teams lists the teams to show even without a simulation, in the order
// that breaks full ties (config order); teams found only in sims follow in
// order of appearance. Rows are sorted by points, then total score, both
// highest first; teams equal in both share a rank (1, 1, 3).
func ComputeStandings(teams []string, sims []SimRecord) []Standing {
	var rows []Standing
	index := make(map[string]int)
	row := func(team string) *Standing {
		i, ok := index[team]
		if !ok {
			i = len(rows)
			index[team] = i
			rows = append(rows, Standing{Team: team})
		}
		return &rows[i]
	}
	for _, t := range teams {
		row(t)
	}
	for _, sim := range sims {
		notPlayed := sim.NotPlayed()
		for i, a := range sim.Scores {
			r := row(a.Team)
			if sim.Forfeited(a.Team) {
				r.Forfeits++
			}
			if notPlayed {
				continue
			}
			r.Played++
			r.Score += a.Score
			for j, b := range sim.Scores {
				if i == j {
					continue
				}
				res := Against(a.Score, b.Score, sim.Forfeited(a.Team), sim.Forfeited(b.Team))
				switch res {
				case Win:
					r.Wins++
				case Draw:
					r.Draws++
				case Loss:
					r.Losses++
				}
				r.Points += res.Points()
			}
		}
	}
	// Stable: full ties keep the order of teams.
	slices.SortStableFunc(rows, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.Score, a.Score))
	})
	for i := range rows {
		rows[i].Rank = i + 1
		if i > 0 && rows[i].Points == rows[i-1].Points && rows[i].Score == rows[i-1].Score {
			rows[i].Rank = rows[i-1].Rank
		}
	}
	return rows
}

// WriteStandingsTable prints the standings as an aligned text table: team
// names left-aligned, numbers right-aligned; with a "forfeits" column when
// a team forfeited, and a "rating" column ("1612 ± 180") when the rows carry
// ratings.
func WriteStandingsTable(w io.Writer, rows []Standing) error {
	header := []string{"rank", "team", "played", "won", "drawn", "lost", "points", "score"}
	forfeits := slices.ContainsFunc(rows, func(r Standing) bool { return r.Forfeits != 0 })
	if forfeits {
		header = append(header, "forfeits")
	}
	rated := slices.ContainsFunc(rows, func(r Standing) bool { return r.Rating != 0 })
	if rated {
		header = append(header, "rating")
	}
	cells := [][]string{header}
	for _, r := range rows {
		line := []string{
			strconv.Itoa(r.Rank), r.Team, strconv.Itoa(r.Played), strconv.Itoa(r.Wins), strconv.Itoa(r.Draws),
			strconv.Itoa(r.Losses), strconv.Itoa(r.Points), strconv.FormatInt(r.Score, 10),
		}
		if forfeits {
			line = append(line, strconv.Itoa(r.Forfeits))
		}
		if rated {
			line = append(line, fmt.Sprintf("%.0f ± %.0f", r.Rating, r.RatingError))
		}
		cells = append(cells, line)
	}
	width := make([]int, len(header))
	for _, line := range cells {
		for i, c := range line {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, line := range cells {
		for i, c := range line {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			switch {
			case i == 1:
				b.WriteString("  " + c + pad)
			case i == 0:
				b.WriteString(pad + c)
			default:
				b.WriteString("  " + pad + c)
			}
		}
		b.WriteString("\n")
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("tournament: print standings: %w", err)
	}
	return nil
}

// StandingsFormat tags standings files.
const StandingsFormat = "massim-go standings 1"

// StandingsFile is the JSON standings file of a tournament directory (and of
// "massim standings -o").
type StandingsFile struct {
	Format      string    `json:"format"`
	Updated     time.Time `json:"updated"`
	Scoring     string    `json:"scoring"`
	Simulations int       `json:"simulations"` // completed simulations counted
	// NotPlayed counts the simulations every team forfeited, which are
	// not among those counted.
	NotPlayed int        `json:"notPlayed,omitempty"`
	Standings []Standing `json:"standings"`
}

// NewStandingsFile computes the standings file content for sims.
func NewStandingsFile(teams []string, sims []SimRecord, now time.Time) StandingsFile {
	f := StandingsFile{
		Format: StandingsFormat, Updated: now.UTC(), Scoring: Scoring,
		Simulations: len(sims), Standings: ComputeStandings(teams, sims),
	}
	for _, s := range sims {
		if s.NotPlayed() {
			f.Simulations--
			f.NotPlayed++
		}
	}
	return f
}

// WriteStandingsFile writes the standings atomically to path.
func WriteStandingsFile(path string, f StandingsFile) error {
	return writeJSONAtomic(path, f)
}
