package maps

// Rand is the simulation RNG as maps needs it (the helper names of
// docs/rules.md, "Conventions"). The scenario owns the one seeded RNG and
// passes it in, so terrain draws interleave with the other set-up draws in
// the documented order (docs/rules.md, "Setting up a simulation").
type Rand interface {
	Int(n int) int  // uniform in [0, n); n > 0
	Float() float64 // uniform in [0, 1)
}
