package tournament

import (
	"fmt"
	"testing"
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
				sims = append(sims, played(fmt.Sprintf("%d_%s_%s", k, teams[i], teams[j]), teams[i], (i*7+k)%11*40, teams[j], (j*5+k)%13*40))
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
