package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/massim-go/massim/config"
)

// ModeMatch is the mode of a tournament of exactly one match (massim match):
// the line-up comes from the command line, not from the config.
const ModeMatch = "match"

// randomStream is the second PCG word of the random mode's line-up RNG; the
// recorded seed supplies the first.
const randomStream = 0x746f75726e6579 // "tourney"

// Schedule lists the matches of a tournament, each as its teams in match
// order (docs/config.md, "Tournament modes"). Matches are numbered from 0; random mode never ends.
type Schedule struct {
	mode  string
	fixed [][]config.Team // round-robin, manual, match

	// random mode: line-ups drawn so far, and the RNG that draws the next.
	teams []config.Team
	k     int
	rng   *rand.Rand
	drawn [][]config.Team
}

// NewSchedule builds the schedule of cfg's tournament mode, or of a single
// match of the named teams when lineup is not empty. seed is only used in
// random mode: the same seed gives the same sequence of line-ups, which is
// what lets a resumed random tournament carry on where it stopped.
func NewSchedule(cfg *config.Config, lineup []string, seed int64) (*Schedule, error) {
	if len(lineup) > 0 {
		teams, err := teamsByName(cfg, lineup)
		if err != nil {
			return nil, fmt.Errorf("tournament: %w", err)
		}
		if len(teams) != cfg.Server.TeamsPerMatch {
			return nil, fmt.Errorf("tournament: match of %d teams, but teamsPerMatch is %d", len(teams), cfg.Server.TeamsPerMatch)
		}
		return &Schedule{mode: ModeMatch, fixed: [][]config.Team{teams}}, nil
	}
	switch cfg.Server.TournamentMode {
	case config.ModeRoundRobin, "":
		m, err := roundRobin(cfg.Teams, cfg.Server.TeamsPerMatch)
		if err != nil {
			return nil, fmt.Errorf("tournament: %w", err)
		}
		return &Schedule{mode: config.ModeRoundRobin, fixed: m}, nil
	case config.ModeManual:
		if len(cfg.ManualMode) == 0 {
			return nil, fmt.Errorf("tournament: manual mode: \"manual-mode\" lists no match")
		}
		s := &Schedule{mode: config.ModeManual}
		for i, names := range cfg.ManualMode {
			teams, err := teamsByName(cfg, names)
			if err != nil {
				return nil, fmt.Errorf("tournament: manual-mode[%d]: %w", i, err)
			}
			s.fixed = append(s.fixed, teams)
		}
		return s, nil
	case config.ModeRandom:
		k := cfg.Server.TeamsPerMatch
		if k < 1 || k > len(cfg.Teams) {
			return nil, fmt.Errorf("tournament: random: %d teams per match but %d teams configured", k, len(cfg.Teams))
		}
		return &Schedule{
			mode: config.ModeRandom, teams: slices.Clone(cfg.Teams), k: k,
			rng: rand.New(rand.NewPCG(uint64(seed), randomStream)),
		}, nil
	}
	return nil, fmt.Errorf("tournament: unknown tournament mode %q", cfg.Server.TournamentMode)
}

// Lineup returns the teams of match n, false when the tournament has fewer
// matches.
func (s *Schedule) Lineup(n int) ([]config.Team, bool) {
	if n < 0 {
		return nil, false
	}
	if s.mode != config.ModeRandom {
		if n >= len(s.fixed) {
			return nil, false
		}
		return s.fixed[n], true
	}
	for len(s.drawn) <= n {
		s.drawn = append(s.drawn, s.draw())
	}
	return s.drawn[n], true
}

// draw shuffles the team list (file order each time) and takes the first k
// teams, in the drawn order (docs/config.md, "Tournament modes", random).
func (s *Schedule) draw() []config.Team {
	teams := slices.Clone(s.teams)
	s.rng.Shuffle(len(teams), func(i, j int) { teams[i], teams[j] = teams[j], teams[i] })
	return teams[:s.k]
}

// Mode is the tournament mode the schedule plays (config.ModeRoundRobin,
// ModeManual, ModeRandom or ModeMatch).
func (s *Schedule) Mode() string { return s.mode }

// Matches is the number of matches, -1 for an endless tournament.
func (s *Schedule) Matches() int {
	if s.mode == config.ModeRandom {
		return -1
	}
	return len(s.fixed)
}

// teamsByName looks teams up in the config, refusing unknown and repeated names.
func teamsByName(cfg *config.Config, names []string) ([]config.Team, error) {
	teams := make([]config.Team, 0, len(names))
	for _, name := range names {
		i := slices.IndexFunc(cfg.Teams, func(t config.Team) bool { return t.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("unknown team %q", name)
		}
		if slices.ContainsFunc(teams, func(t config.Team) bool { return t.Name == name }) {
			return nil, fmt.Errorf("team %q named twice", name)
		}
		teams = append(teams, cfg.Teams[i])
	}
	return teams, nil
}

// roundRobin lists every combination of k teams in lexicographic order of
// team indices (docs/config.md, "Tournament modes"): A,B,C with k=2 → (A,B), (A,C), (B,C).
func roundRobin(teams []config.Team, k int) ([][]config.Team, error) {
	if k < 1 || k > len(teams) {
		return nil, fmt.Errorf("round-robin: %d teams per match but %d teams configured", k, len(teams))
	}
	var out [][]config.Team
	idx := make([]int, k)
	for i := range idx {
		idx[i] = i
	}
	for {
		m := make([]config.Team, k)
		for i, j := range idx {
			m[i] = teams[j]
		}
		out = append(out, m)
		// Advance to the next combination.
		i := k - 1
		for i >= 0 && idx[i] == len(teams)-k+i {
			i--
		}
		if i < 0 {
			return out, nil
		}
		idx[i]++
		for j := i + 1; j < k; j++ {
			idx[j] = idx[j-1] + 1
		}
	}
}

// TeamNames lists the names of teams, in their order.
func TeamNames(teams []config.Team) []string {
	names := make([]string, len(teams))
	for i, t := range teams {
		names[i] = t.Name
	}
	return names
}
