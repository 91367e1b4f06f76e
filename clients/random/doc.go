// Package random is the baseline sample team: every agent moves in a random
// direction each step. Its randomness is seeded per agent, so a run is
// reproducible given the seeds.
package random
