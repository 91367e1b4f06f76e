package maps

import (
	"fmt"
	"math"
)

// Instruction is one terrain generation step of grid.instructions, e.g.
// ["cave", 0.6, 2, 5, 4] is {Name: "cave", Args: []float64{0.6, 2, 5, 4}}.
type Instruction struct {
	Name string
	Args []float64
}

// Instruction names (docs/config.md, "Terrain").
const (
	InstrCave         = "cave"
	InstrLineBorder   = "line-border"
	InstrRaggedBorder = "ragged-border"
)

// Parameter bounds. The Java server checks none; these keep absurd configs from
// hanging set-up (a border wider than the map is simply clipped, so 100000 is
// no real limit) while allowing every meaningful value: 8 neighbours bound
// the automaton limits, and a cave reaches a fixed point long before 1000
// rounds.
const (
	maxBorderWidth   = 100000
	maxCaveRounds    = 1000
	maxNeighbourhood = 8
)

// Known reports whether the generator understands the instruction. Unknown
// names are ignored by Generate (the config layer warns about them).
func (in Instruction) Known() bool {
	switch in.Name {
	case InstrCave, InstrLineBorder, InstrRaggedBorder:
		return true
	}
	return false
}

// Validate checks the parameter count and ranges of a known instruction; it
// returns nil for unknown names, which generation ignores. Integer parameters
// must be whole numbers: JSON gives us float64, and 2.5 rounds are a typo,
// not a request.
func (in Instruction) Validate() error {
	if err := in.validate(); err != nil {
		return fmt.Errorf("maps: %w", err)
	}
	return nil
}

// validate is Validate with errors not yet naming the package.
func (in Instruction) validate() error {
	switch in.Name {
	case InstrLineBorder, InstrRaggedBorder:
		if err := in.wantArgs("width"); err != nil {
			return err
		}
		return in.intArg(0, "width", 0, maxBorderWidth)
	case InstrCave:
		if err := in.wantArgs("chance", "iterations", "createLimit", "survivalLimit"); err != nil {
			return err
		}
		if p := in.Args[0]; math.IsNaN(p) || p < 0 || p > 1 {
			return fmt.Errorf("%s: chance must be in [0, 1], got %v", in.Name, p)
		}
		if err := in.intArg(1, "iterations", 0, maxCaveRounds); err != nil {
			return err
		}
		if err := in.intArg(2, "createLimit", 0, maxNeighbourhood); err != nil {
			return err
		}
		return in.intArg(3, "survivalLimit", 0, maxNeighbourhood)
	}
	return nil
}

func (in Instruction) wantArgs(names ...string) error {
	if len(in.Args) != len(names) {
		return fmt.Errorf("%s: want %d parameter(s) %v, got %d", in.Name, len(names), names, len(in.Args))
	}
	return nil
}

func (in Instruction) intArg(i int, name string, lo, hi int) error {
	v := in.Args[i]
	if v != math.Trunc(v) || v < float64(lo) || v > float64(hi) {
		return fmt.Errorf("%s: %s must be an integer in [%d, %d], got %v", in.Name, name, lo, hi, v)
	}
	return nil
}

// arg returns parameter i as an int; only valid after Validate.
func (in Instruction) arg(i int) int { return int(in.Args[i]) }
