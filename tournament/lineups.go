package tournament

import "github.com/massim-go/massim/config"

// Lineups lists the matches of cfg's tournament mode as team names in match
// order, as serve would play them (docs/config.md, "Tournament modes"), and
// the mode. Random mode is endless: it draws count line-ups from seed, the
// same sequence serve -seed plays; the other modes ignore count and seed.
// A league plans its matches with it.
func Lineups(cfg *config.Config, count int, seed int64) (mode string, lineups [][]string, err error) {
	sched, err := NewSchedule(cfg, nil, seed)
	if err != nil {
		return "", nil, err
	}
	n := sched.Matches()
	if n < 0 {
		n = count
	}
	for i := range n {
		teams, _ := sched.Lineup(i)
		lineups = append(lineups, TeamNames(teams))
	}
	return sched.mode, lineups, nil
}
