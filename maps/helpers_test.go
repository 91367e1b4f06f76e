package maps_test

import (
	"strings"

	"github.com/massim-go/massim/maps"
	"github.com/massim-go/massim/maps/internal/pcgrand"
)

// countingRand wraps a seeded PCG and records every draw, so tests can check
// the number, kind and arguments of draws.
type countingRand struct {
	r       maps.Rand
	intArgs []int
	floats  int
}

func newRand(seed uint64) *countingRand { return &countingRand{r: pcgrand.New(seed)} }

func (c *countingRand) Int(n int) int {
	c.intArgs = append(c.intArgs, n)
	return c.r.Int(n)
}

func (c *countingRand) Float() float64 {
	c.floats++
	return c.r.Float()
}

// scriptRand answers from fixed scripts (repeating the last value), for
// hand-checked draw orders.
type scriptRand struct {
	ints    []int
	floats  []float64
	intArgs []int
}

func (s *scriptRand) Int(n int) int {
	s.intArgs = append(s.intArgs, n)
	v := s.ints[0]
	if len(s.ints) > 1 {
		s.ints = s.ints[1:]
	}
	return v
}

func (s *scriptRand) Float() float64 {
	v := s.floats[0]
	if len(s.floats) > 1 {
		s.floats = s.floats[1:]
	}
	return v
}

// parseGrid reads rows of '#' (true) and '.' (false).
func parseGrid(rows ...string) (w, h int, cells []bool) {
	for _, r := range rows {
		for _, ch := range r {
			cells = append(cells, ch == '#')
		}
	}
	return len(rows[0]), len(rows), cells
}

// showGrid renders cells as rows of '#' and '.', for readable failures.
func showGrid(w int, cells []bool) string {
	var b strings.Builder
	for i, c := range cells {
		if i > 0 && i%w == 0 {
			b.WriteByte('\n')
		}
		if c {
			b.WriteByte('#')
		} else {
			b.WriteByte('.')
		}
	}
	return b.String()
}

func instr(name string, args ...float64) maps.Instruction {
	return maps.Instruction{Name: name, Args: args}
}
