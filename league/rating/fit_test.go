package rating

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// results builds games from "A>B", "A=B" strings.
func results(games ...string) []Result {
	var out []Result
	for _, g := range games {
		score := map[byte]float64{'>': 1, '=': 0.5, '<': 0}[g[1]]
		out = append(out, Result{A: g[:1], B: g[2:], Score: score})
	}
	return out
}

func byTeam(rs []Rating) map[string]Rating {
	m := map[string]Rating{}
	for _, r := range rs {
		m[r.Team] = r
	}
	return m
}

// The hand-computed cases: with the prior, two teams after one game solve
// 2(1−σ(2x)) + 1 − 2σ(x) = 0 for θA = −θB = x (x = 0.75631), and after
// three wins and a loss 2(3 − 4σ(2x)) + 1 − 2σ(x) = 0 (x = 0.47444). The
// standard error of two teams is √((w+q)/(q(2w+q))) with w = σ(2x)(1−σ(2x))
// and q = σ(x)(1−σ(x)). A team without games keeps the prior alone: θ = 0,
// information ¼, error 2 (347.4 on the Elo scale).
func TestFit_HandComputedCases(t *testing.T) {
	cases := []struct {
		name    string
		teams   []string
		games   []Result
		want    map[string]float64 // rating
		wantErr map[string]float64
	}{
		{name: "no games: average, prior error", teams: []string{"A", "B"},
			want: map[string]float64{"A": 1500, "B": 1500}, wantErr: map[string]float64{"A": 347.4356, "B": 347.4356}},
		{name: "one win", games: results("A>B"),
			want: map[string]float64{"A": 1631.3841, "B": 1368.6159}, wantErr: map[string]float64{"A": 314.3271, "B": 314.3271}},
		{name: "three wins and a loss", games: results("A>B", "A>B", "B>A", "A>B"),
			want: map[string]float64{"A": 1582.4193, "B": 1417.5807}},
		{name: "a draw counts half each way", games: results("A=B"),
			want: map[string]float64{"A": 1500, "B": 1500}},
		{name: "a win and a loss", games: results("A>B", "A<B"),
			want: map[string]float64{"A": 1500, "B": 1500}},
		{name: "a third team without games stays average", teams: []string{"A", "B", "C"}, games: results("A>B"),
			want: map[string]float64{"A": 1631.3841, "B": 1368.6159, "C": 1500}, wantErr: map[string]float64{"C": 347.4356}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := byTeam(Fit(c.teams, c.games))
			require.Len(t, got, len(c.want))
			for team, want := range c.want {
				assert.InDelta(t, want, got[team].Rating, 1e-3, team)
			}
			for team, want := range c.wantErr {
				assert.InDelta(t, want, got[team].Error, 1e-3, team)
			}
		})
	}
}

func TestFit_SymmetricSchedulesGiveEqualRatings(t *testing.T) {
	cases := map[string][]Result{
		"a cycle of three":           results("A>B", "B>C", "C>A"),
		"everyone draws everyone":    results("A=B", "A=C", "B=C", "A=D", "B=D", "C=D"),
		"each pair splits its games": results("A>B", "B>A", "A>C", "C>A", "B>C", "C>B"),
	}
	for name, games := range cases {
		t.Run(name, func(t *testing.T) {
			rs := Fit(nil, games)
			for _, r := range rs {
				assert.InDelta(t, 1500, r.Rating, 1e-6, r.Team)
				assert.InDelta(t, rs[0].Error, r.Error, 1e-6, r.Team)
			}
		})
	}
}

func TestFit_ATransitiveChainOrdersTheTeams(t *testing.T) {
	rs := Fit(nil, results("A>B", "B>C", "C>D", "A>C", "B>D", "A>D"))
	require.Len(t, rs, 4)
	for i := 1; i < len(rs); i++ {
		assert.Greater(t, rs[i-1].Rating, rs[i].Rating, "%s above %s", rs[i-1].Team, rs[i].Team)
	}
	sum := 0.0
	for _, r := range rs {
		sum += r.Rating - Base
	}
	assert.InDelta(t, 0, sum, 1e-6, "symmetric schedule: the ratings centre on the average")
}

// Unbeaten and winless teams and groups that never met still get finite
// ratings; two separate but identical groups rate alike.
func TestFit_ExtremeAndDisconnectedResultsStayFinite(t *testing.T) {
	var many []Result
	for range 200 {
		many = append(many, results("A>B")...)
	}
	for _, r := range Fit(nil, many) {
		assert.False(t, math.IsInf(r.Rating, 0) || math.IsNaN(r.Rating) || math.IsNaN(r.Error), "%+v", r)
		assert.Equal(t, 200, r.Games)
	}
	rs := byTeam(Fit(nil, results("A>B", "C>D")))
	assert.InDelta(t, rs["A"].Rating, rs["C"].Rating, 1e-9)
	assert.InDelta(t, rs["B"].Rating, rs["D"].Rating, 1e-9)
	assert.Greater(t, rs["A"].Rating, rs["B"].Rating)
}

// More games, smaller error; the order of the results does not matter.
func TestFit_ErrorShrinksWithGamesAndOrderDoesNotMatter(t *testing.T) {
	few := byTeam(Fit(nil, results("A>B", "B>A")))
	var more []Result
	for range 20 {
		more = append(more, results("A>B", "B>A")...)
	}
	many := byTeam(Fit(nil, more))
	assert.Less(t, many["A"].Error, few["A"].Error)

	games := results("A>B", "B>C", "A=C", "C>D", "D>A", "B>D")
	reversed := make([]Result, len(games))
	for i, g := range games {
		reversed[len(games)-1-i] = g
	}
	a, b := byTeam(Fit(nil, games)), byTeam(Fit(nil, reversed))
	for team := range a {
		assert.InDelta(t, a[team].Rating, b[team].Rating, 1e-6, team)
	}
}
