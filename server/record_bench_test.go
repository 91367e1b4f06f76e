package server

import (
	"fmt"
	"testing"
	"time"
)

// bigTournament is a 50-team round-robin of 3 simulations per match:
// 1225 matches, 3675 simulations.
func bigTournament() ([]string, []SimRecord) {
	var teams []string
	for i := range 50 {
		teams = append(teams, fmt.Sprintf("team%02d", i))
	}
	var sims []SimRecord
	for i := range teams {
		for j := i + 1; j < len(teams); j++ {
			for k := range 3 {
				sims = append(sims, sim(fmt.Sprintf("%d_%s_%s", k, teams[i], teams[j]), teams[i], (i*7+k)%11*40, teams[j], (j*5+k)%13*40))
			}
		}
	}
	return teams, sims
}

func BenchmarkComputeStandings50Teams(b *testing.B) {
	teams, sims := bigTournament()
	b.ReportAllocs()
	for b.Loop() {
		ComputeStandings(teams, sims)
	}
}

// BenchmarkRecordSimulation measures what the step loop pays after each
// simulation of a big tournament: manifest and standings, each written to
// a temporary file, fsynced and renamed.
func BenchmarkRecordSimulation(b *testing.B) {
	teams, sims := bigTournament()
	rec := &record{dir: b.TempDir(), now: time.Now, manifest: Manifest{Format: ManifestFormat, Teams: teams,
		Simulations: sims[:len(sims)-1], ResultFiles: []ResultFileRecord{}}}
	last := sims[len(sims)-1]
	b.ReportAllocs()
	for b.Loop() {
		rec.manifest.Simulations = rec.manifest.Simulations[:len(sims)-1]
		rec.addSimulation(last)
		if len(rec.failing) > 0 {
			b.Fatal(rec.failing)
		}
	}
}
