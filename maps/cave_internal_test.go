package maps

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/maps/internal/pcgrand"
)

// naiveRound is the automaton's rule written plainly: 8 neighbour positions,
// modular wrap, counted with repeats.
func naiveRound(w, h int, cur []bool, createLimit, survivalLimit int) []bool {
	next := make([]bool, len(cur))
	for y := range h {
		for x := range w {
			n := 0
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if (dx != 0 || dy != 0) && cur[((y+dy+h)%h)*w+(x+dx+w)%w] {
						n++
					}
				}
			}
			if cur[y*w+x] {
				next[y*w+x] = n >= survivalLimit
			} else {
				next[y*w+x] = n > createLimit
			}
		}
	}
	return next
}

// The column-sum round must equal the plain formula, thin tori included.
func TestCaveRoundMatchesNaive(t *testing.T) {
	rng := pcgrand.New(5)
	for _, wh := range [][2]int{{1, 1}, {1, 3}, {3, 1}, {2, 2}, {2, 5}, {7, 5}, {16, 9}} {
		w, h := wh[0], wh[1]
		for trial := range 20 {
			t.Run(fmt.Sprintf("%dx%d_%d", w, h, trial), func(t *testing.T) {
				cur := make([]bool, w*h)
				for i := range cur {
					cur[i] = rng.Float() < 0.5
				}
				create, survive := rng.Int(9), rng.Int(9)
				next := make([]bool, w*h)
				changed := caveRound(w, h, cur, next, create, survive, make([]uint8, w))
				want := naiveRound(w, h, cur, create, survive)
				require.Equal(t, want, next)
				require.Equal(t, fmt.Sprint(want) != fmt.Sprint(cur), changed)
			})
		}
	}
}
