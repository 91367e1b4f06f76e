package server

import (
	"fmt"
	"testing"
	"time"

	"github.com/massim-go/massim/tournament"
)

// BenchmarkRecordSimulation measures what the step loop pays after each
// simulation of a big tournament (a 50-team round-robin of 3 simulations
// per match: 3675 simulations): stats, manifest and standings, each written
// to a temporary file, fsynced and renamed.
func BenchmarkRecordSimulation(b *testing.B) {
	const teams, simulations = 50, 3675
	names := make([]string, teams)
	for i := range names {
		names[i] = fmt.Sprintf("team%02d", i)
	}
	sims := make([]tournament.SimRecord, simulations)
	for i := range sims {
		a, o := names[i%teams], names[(i+1+i/teams)%teams]
		sims[i] = tournament.SimRecord{Name: fmt.Sprintf("%d_%s_%s", i, a, o),
			Scores: []tournament.TeamResult{{Team: a, Score: int64(i % 11 * 40)}, {Team: o, Score: int64(i % 13 * 40)}}}
	}
	rec := &record{dir: b.TempDir(), now: time.Now, manifest: tournament.Manifest{Format: tournament.ManifestFormat, Teams: names,
		Simulations: sims[:len(sims)-1], ResultFiles: []tournament.ResultFileRecord{}}}
	last := tournament.Outcomes(sims[len(sims)-1:])[0]
	b.ReportAllocs()
	for b.Loop() {
		rec.manifest.Simulations, rec.stats = rec.manifest.Simulations[:len(sims)-1], nil
		rec.simulationPlayed(last)
		if len(rec.failing) > 0 {
			b.Fatal(rec.failing)
		}
	}
}
