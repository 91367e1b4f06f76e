package league

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/league/rating"
	"github.com/massim-go/massim/tournament"
)

func played(name string, scores ...any) tournament.SimRecord {
	r := tournament.SimRecord{Name: name}
	for i := 0; i < len(scores); i += 2 {
		r.Scores = append(r.Scores, tournament.TeamResult{Team: scores[i].(string), Score: int64(scores[i+1].(int))})
	}
	return r
}

// The ratings are fit from the same pairwise results as the points: a
// simulation of three teams counts three pairs.
func TestStandings_RatingsBesideThePoints(t *testing.T) {
	now := time.Date(2026, 12, 4, 8, 0, 0, 0, time.UTC)
	file := Standings([]string{"A", "B", "C", "D"}, []tournament.SimRecord{
		played("1", "A", 10, "B", 0, "C", 5),
		played("2", "B", 3, "C", 3),
	}, now)
	want := rating.Fit([]string{"A", "B", "C", "D"}, []rating.Result{
		{A: "A", B: "B", Score: 1}, {A: "A", B: "C", Score: 1}, {A: "B", B: "C", Score: 0},
		{A: "B", B: "C", Score: 0.5},
	})
	require.Len(t, file.Standings, 4)
	for _, row := range file.Standings {
		for _, r := range want {
			if r.Team == row.Team {
				assert.InDelta(t, r.Rating, row.Rating, 1e-9, row.Team)
				assert.InDelta(t, r.Error, row.RatingError, 1e-9, row.Team)
			}
		}
	}
	assert.Equal(t, "A", file.Standings[0].Team, "points rank: A has 6")
	assert.Greater(t, file.Standings[0].Rating, file.Standings[1].Rating)
	assert.Equal(t, "D", file.Standings[3].Team)
	assert.InDelta(t, rating.Base, file.Standings[3].Rating, 1e-9, "no games: average")
}

// Merge reads the folders of the matches played so far and writes both
// standings files; a league not yet started has a table of zeros.
func TestMerge_WritesTheStandingsOfTheRecordedMatches(t *testing.T) {
	dir := t.TempDir()
	cfg := demo(t, config.ModeRoundRobin, "A", "B", "C")
	p, err := NewPlan(cfg, demoConfig, Planning{Matches: 0, Seed: 1}, time.Now())
	require.NoError(t, err)
	merged, err := Merge(dir, p, time.Now())
	require.NoError(t, err)
	assert.Equal(t, 0, merged.Matches)
	assert.Equal(t, 0, merged.File.Simulations)
	require.Len(t, merged.File.Standings, 3)

	for i, state := range []string{tournament.StateFinished, tournament.StateRunning} {
		m := tournament.Manifest{Format: tournament.ManifestFormat, ConfigChecksum: p.ConfigChecksum, Mode: tournament.ModeMatch,
			Teams: p.Matches[i].Teams, State: state,
			Simulations: []tournament.SimRecord{played("s"+p.Matches[i].Name(), p.Matches[i].Teams[0], 5, p.Matches[i].Teams[1], 1)}}
		folder := filepath.Join(dir, p.Matches[i].Dir)
		require.NoError(t, os.MkdirAll(folder, 0o755))
		data, err := json.Marshal(m)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(folder, tournament.ManifestFile), data, 0o644))
	}
	merged, err = Merge(dir, p, time.Now())
	require.NoError(t, err)
	assert.Equal(t, 2, merged.Matches)
	assert.Equal(t, 2, merged.File.Simulations)
	require.Len(t, merged.Notes, 1, "the running match is noted")
	assert.Equal(t, "A", merged.File.Standings[0].Team)
	assert.Equal(t, 6, merged.File.Standings[0].Points)
	text, err := os.ReadFile(filepath.Join(dir, StandingsText))
	require.NoError(t, err)
	assert.Contains(t, string(text), "2 simulations of 2 matches (of 3 planned)")
	assert.FileExists(t, filepath.Join(dir, tournament.StandingsName))
}
