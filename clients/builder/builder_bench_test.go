package builder

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/scenario"
)

// BenchmarkBuilderPlaysTheDemo plays whole demo matches in-process, the
// builder (team A) against random agents (team B), seeds 1 to 10 in turn.
// Besides the time per match it reports the builder's mean score
// (points/sim) and how many blocks were connected per match.
func BenchmarkBuilderPlaysTheDemo(b *testing.B) {
	teams := []scenario.Team{{Name: "A", Prefix: "agent"}, {Name: "B", Prefix: "agent"}}
	var points, connects int64
	n := 0
	for b.Loop() {
		seed := int64(n%10 + 1)
		n++
		tm, err := New(Config{Seed: seed})
		require.NoError(b, err)
		s := newSimulation(b, demoParams(b, seed), teams, []newBehaviour{tm.Behaviour, random.ForTeam(seed)})
		s.run(b)
		points += s.score("A")
		for _, name := range s.names {
			for i, a := range s.actions[name] {
				if a.Name == "connect" && i < len(s.results[name]) && s.results[name][i] == "success" {
					connects++
				}
			}
		}
	}
	b.ReportMetric(float64(points)/float64(n), "points/sim")
	b.ReportMetric(float64(connects)/2/float64(n), "connections/sim")
}
