// Package pcgrand is a small deterministic maps.Rand (a PCG from math/rand/v2)
// for tests, benchmarks and the map generator. The simulation brings its own.
package pcgrand

import "math/rand/v2"

// Rand implements maps.Rand.
type Rand struct{ r *rand.Rand }

// New returns a Rand seeded with seed.
func New(seed uint64) *Rand {
	return &Rand{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
}

// Int returns a uniform int in [0, n).
func (r *Rand) Int(n int) int { return r.r.IntN(n) }

// Float returns a uniform float64 in [0, 1).
func (r *Rand) Float() float64 { return r.r.Float64() }
