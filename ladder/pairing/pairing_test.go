package pairing

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestMake(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	rules := Rules{Seed: 1, RematchAfter: time.Minute, HouseWait: 2 * time.Minute, Slots: -1}
	tests := []struct {
		name     string
		ready    []Team
		requests []Request
		rules    func(*Rules)
		want     []Pair
	}{
		{"NobodyReady", nil, nil, nil, nil},
		{"AloneWaitsForTheHouse", []Team{{Name: "A", ReadySince: ago(time.Minute)}}, nil, nil, nil},
		{"AloneGetsTheHouse", []Team{{Name: "A", ReadySince: ago(2 * time.Minute)}}, nil, nil,
			[]Pair{{Teams: []string{"A"}, House: true}}},
		{"NoHouseTeam", []Team{{Name: "A", ReadySince: ago(time.Hour)}}, nil, func(r *Rules) { r.HouseWait = 0 }, nil},
		{"TwoPlay", []Team{{Name: "A", ReadySince: ago(time.Second)}, {Name: "B", ReadySince: ago(2 * time.Second)}}, nil, nil,
			[]Pair{{Teams: []string{"B", "A"}, Ranked: true}}},
		{"FewerGamesFirst", []Team{
			{Name: "A", Games: 5, Rating: 1500, ReadySince: ago(10 * time.Second)},
			{Name: "B", Games: 5, Rating: 1500, ReadySince: ago(10 * time.Second)},
			{Name: "C", Games: 1, Rating: 1490, ReadySince: ago(time.Second)}}, nil, nil,
			// C picks first: A and B are equally close, the draw decides; the other waits
			[]Pair{{Teams: []string{"C", "B"}, Ranked: true}}},
		{"NotMetRecentlyBeatsRating", []Team{
			{Name: "A", Games: 1, Rating: 1500, Recent: []string{"B", "C"}},
			{Name: "B", Games: 2, Rating: 1500, Recent: []string{"A"}},
			{Name: "C", Games: 2, Rating: 1700, Recent: []string{"A"}},
			{Name: "D", Games: 2, Rating: 1300}}, nil, func(r *Rules) { r.RematchAfter = 0 },
			[]Pair{{Teams: []string{"A", "D"}, Ranked: true}, {Teams: []string{"B", "C"}, Ranked: true}}},
		{"CloseRatings", []Team{
			{Name: "A", Games: 1, Rating: 1500},
			{Name: "B", Games: 3, Rating: 1800},
			{Name: "C", Games: 3, Rating: 1450},
			{Name: "D", Games: 3, Rating: 1200}}, nil, nil,
			[]Pair{{Teams: []string{"A", "C"}, Ranked: true}, {Teams: []string{"B", "D"}, Ranked: true}}},
		{"NoRematchBeforeItsTime", []Team{
			{Name: "A", Recent: []string{"B"}, ReadySince: ago(10 * time.Second)},
			{Name: "B", Recent: []string{"A"}, ReadySince: ago(10 * time.Second)}}, nil, nil, nil},
		{"RematchAfterTheWait", []Team{
			{Name: "A", Recent: []string{"B"}, ReadySince: ago(time.Minute)},
			{Name: "B", Recent: []string{"A"}, ReadySince: ago(10 * time.Second)}}, nil, nil,
			[]Pair{{Teams: []string{"A", "B"}, Ranked: true}}},
		{"RequestsFirst", []Team{{Name: "A", ReadySince: now}, {Name: "B", ReadySince: now}, {Name: "C", Games: 9, ReadySince: now}}, []Request{
			{ID: 4, From: "C", To: "B", Ranked: false},
			{ID: 5, From: "A", To: "B", Ranked: true}}, nil,
			[]Pair{{Teams: []string{"C", "B"}, Request: 4}}},
		{"RequestWaitsForItsTeams", []Team{{Name: "A"}, {Name: "B"}}, []Request{{ID: 1, From: "A", To: "Z"}}, nil,
			[]Pair{{Teams: []string{"A", "B"}, Ranked: true}}},
		{"Slots", []Team{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D"}}, nil, func(r *Rules) { r.Slots = 1 },
			[]Pair{{Teams: []string{"A", "C"}, Ranked: true}}}, // C: the seeded draw among equals
		{"NoSlotNoHouse", []Team{{Name: "A", ReadySince: ago(time.Hour)}}, nil, func(r *Rules) { r.Slots = 0 }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := rules
			if tc.rules != nil {
				tc.rules(&r)
			}
			got := Make(tc.ready, tc.requests, 7, r, now)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, got, Make(tc.ready, tc.requests, 7, r, now), "deterministic")
		})
	}
}

// TestMake_DrawDependsOnSeedAndRound: among equal opponents the seed and
// the round decide, so different seasons (and rounds) pair differently.
func TestMake_DrawDependsOnSeedAndRound(t *testing.T) {
	ready := []Team{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D"}, {Name: "E"}, {Name: "F"}}
	seen := map[string]bool{}
	for seed := range int64(20) {
		p := Make(ready, nil, int(seed), Rules{Seed: seed, Slots: -1}, time.Unix(0, 0))
		seen[p[0].Teams[1]] = true
	}
	assert.Greater(t, len(seen), 2, "A's opponent varies with seed and round")
}
