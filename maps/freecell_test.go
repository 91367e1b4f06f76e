package maps_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/maps"
)

func TestRandomFreeCell(t *testing.T) {
	const W, H = 4, 3
	for _, tc := range []struct {
		name     string
		start    [2]int // the draws Int(W), Int(H)
		occupied []string
		want     maps.Pos
		ok       bool
		calls    int
	}{
		{"start free", [2]int{2, 1}, []string{"....", "....", "...."}, maps.Pos{X: 2, Y: 1}, true, 1},
		{"next in row", [2]int{1, 1}, []string{"....", ".#..", "...."}, maps.Pos{X: 2, Y: 1}, true, 2},
		{"row end wraps to next row", [2]int{2, 0}, []string{"..##", "#...", "...."}, maps.Pos{X: 1, Y: 1}, true, 4},
		{"last cell wraps to the first", [2]int{3, 2}, []string{"#.##", "####", "####"}, maps.Pos{X: 1, Y: 0}, true, 3},
		{"only cell just before the start", [2]int{1, 1}, []string{"####", ".###", "####"}, maps.Pos{X: 0, Y: 1}, true, 12},
		{"full grid", [2]int{1, 2}, []string{"####", "####", "####"}, maps.Pos{}, false, 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, occ := parseGrid(tc.occupied...)
			calls := 0
			rng := &scriptRand{ints: []int{tc.start[0], tc.start[1]}}
			got, ok := maps.RandomFreeCell(W, H, func(x, y int) bool {
				calls++
				return occ[y*W+x]
			}, rng)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.calls, calls)
			assert.Equal(t, []int{W, H}, rng.intArgs, "draws x = Int(W), then y = Int(H)")
		})
	}
}
