package league

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/massim-go/massim/internal/atomicfile"
	"github.com/massim-go/massim/league/rating"
	"github.com/massim-go/massim/tournament"
)

// Standings computes the standings of simulations, the official 3/1/0
// table (tournament.ComputeStandings), with every team's rating beside its
// points, fit from the same pairwise results. Forfeited simulations are
// left out of the ratings (docs/leagues.md, "Forfeits"): a win over a team
// that was not there says nothing about strength.
func Standings(teams []string, sims []tournament.SimRecord, now time.Time) tournament.StandingsFile {
	file := tournament.NewStandingsFile(teams, sims, now)
	var results []rating.Result
	for _, sim := range sims {
		if len(sim.Forfeit) > 0 {
			continue
		}
		for i, a := range sim.Scores {
			for _, b := range sim.Scores[i+1:] {
				score := 0.5
				switch {
				case a.Score > b.Score:
					score = 1
				case a.Score < b.Score:
					score = 0
				}
				results = append(results, rating.Result{A: a.Team, B: b.Team, Score: score})
			}
		}
	}
	ratings := rating.Fit(teams, results)
	byTeam := make(map[string]rating.Rating, len(ratings))
	for _, r := range ratings {
		byTeam[r.Team] = r
	}
	for i := range file.Standings {
		r := byTeam[file.Standings[i].Team]
		file.Standings[i].Rating, file.Standings[i].RatingError = r.Rating, r.Error
	}
	return file
}

// Merged is the merged standings of a league folder.
type Merged struct {
	File    tournament.StandingsFile
	Matches int      // matches with at least one recorded simulation
	Notes   []string // matches not finished
	// Absences are the recorded absences (forfeits and teams short of
	// agents) by match index.
	Absences map[int][]Absent
}

// Merge merges the standings of every match recorded in the league
// folder dir and writes them to dir/standings.json and, as a table, to
// dir/standings.txt. Matches not yet played are left out.
func Merge(dir string, p *Plan, now time.Time) (Merged, error) {
	var folders []string
	matchOf := map[string]Match{}
	for _, m := range p.Matches {
		folder := filepath.Join(dir, filepath.FromSlash(m.Dir))
		if _, err := os.Stat(filepath.Join(folder, tournament.ManifestFile)); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		folders = append(folders, folder)
		matchOf[folder] = m
	}
	sims := []tournament.SimRecord{}
	var notes []string
	absences := map[int][]Absent{}
	if len(folders) > 0 {
		merged, err := tournament.MergeManifests(folders)
		if err != nil {
			return Merged{}, fmt.Errorf("league: merge standings: %w", err)
		}
		sims, notes = merged.Simulations, merged.Notes
		for i, s := range sims {
			m := matchOf[merged.Sources[i]]
			for _, a := range s.Absences {
				absences[m.Index] = append(absences[m.Index], Absent{Match: m, Simulation: s.Index, Absence: a})
			}
		}
	}
	out := Merged{File: Standings(p.Teams, sims, now), Matches: len(folders), Notes: notes, Absences: absences}
	if err := tournament.WriteStandingsFile(filepath.Join(dir, tournament.StandingsName), out.File); err != nil {
		return Merged{}, fmt.Errorf("league: %w", err)
	}
	var table bytes.Buffer
	fmt.Fprintf(&table, "%d simulations of %d matches (of %d planned)\n", out.File.Simulations, len(folders), len(p.Matches))
	if err := tournament.WriteStandingsTable(&table, out.File.Standings); err != nil {
		return Merged{}, fmt.Errorf("league: %w", err)
	}
	writeAbsences(&table, p, out)
	if err := atomicfile.Write(filepath.Join(dir, StandingsText), table.Bytes(), atomicfile.Options{}); err != nil {
		return Merged{}, fmt.Errorf("league: write standings table: %w", err)
	}
	return out, nil
}
