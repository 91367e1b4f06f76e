package league

import "github.com/massim-go/massim/config"

// Rounds (-rounds N): every line-up of the tournament mode is played N
// times, round after round, and in every round with other seeds, so that a
// result does not hang on one map (docs/leagues.md, "Rounds and sides").
//
// Round r moves each line-up r-1 places along (sides): with two teams the
// one listed first changes every round. All matches of a round share the
// round's seed (RoundSeed), so that within a round every team meets the
// same worlds; simulation i of a match plays with the seed SimSeed.

// golden is 2^64 divided by the golden ratio, SplitMix64's increment.
const golden = 0x9E3779B97F4A7C15

// RoundSeed is the seed of round r (1-based) of a league of seed seed: the
// r-th output of SplitMix64 started at seed, cut to 53 bits, so that it
// is non-negative and exact where replays are read in JavaScript.
func RoundSeed(seed int64, r int) int64 {
	z := uint64(seed) + uint64(r)*golden
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	z ^= z >> 31
	return int64(z >> 11)
}

// SimSeed is the seed of simulation i (0-based, the config's match array)
// of a match of seed seed: seed + i.
func SimSeed(seed int64, i int) int64 { return seed + int64(i) }

// SeedSimulations sets the seed of every simulation of cfg to the match's
// (SimSeed), replacing the config's randomSeed, which would make every
// round the same. A match without a seed (a league of one round, or of an
// older version) keeps the config's seeds, or the clock's.
func (m Match) SeedSimulations(cfg *config.Config) {
	if m.Seed == nil {
		return
	}
	for i := range cfg.Match {
		cfg.Match[i].RandomSeed, cfg.Match[i].HasRandomSeed = SimSeed(*m.Seed, i), true
	}
}

// sides is the line-up of round r: moved r-1 places along, so that every
// team of it is listed first in turn.
func sides(lineup []string, r int) []string {
	if len(lineup) == 0 {
		return nil
	}
	k := (r - 1) % len(lineup)
	return append(append([]string{}, lineup[k:]...), lineup[:k]...)
}
