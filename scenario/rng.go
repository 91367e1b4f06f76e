package scenario

import (
	"math/bits"
	"math/rand/v2"
)

// RNG is the single source of randomness of a simulation. It uses PCG (whose
// output is fixed by its specification) and derives Int and Float itself, so
// a seed means the same world on every Go version and machine.
type RNG struct{ src *rand.PCG }

// NewRNG seeds an RNG.
func NewRNG(seed int64) *RNG {
	return &RNG{src: rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15)}
}

// Int returns a uniform integer in [0, n); n <= 0 returns 0 without a draw.
func (r *RNG) Int(n int) int {
	if n <= 0 {
		return 0
	}
	// Lemire's nearly divisionless method: unbiased, usually one draw.
	bound := uint64(n)
	hi, lo := bits.Mul64(r.src.Uint64(), bound)
	if lo < bound {
		threshold := -bound % bound
		for lo < threshold {
			hi, lo = bits.Mul64(r.src.Uint64(), bound)
		}
	}
	return int(hi)
}

// Between returns a uniform integer in [b.Min, b.Max].
func (r *RNG) Between(b Bounds) int {
	return b.Min + r.Int(b.Max-b.Min+1)
}

// Float returns a uniform real in [0, 1).
func (r *RNG) Float() float64 {
	return float64(r.src.Uint64()>>11) / (1 << 53)
}

// Shuffle permutes n elements uniformly (Fisher–Yates driven by Int).
func (r *RNG) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, r.Int(i+1))
	}
}
