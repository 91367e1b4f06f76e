package config

import (
	"time"
)

// Ladder is the "ladder" block (massim-go extension; docs/seasons.md,
// "The ladder block"), read by massim ladder and ignored by the other
// commands, with defaults applied.
type Ladder struct {
	// Seed seeds the pairing's tie-breaks; HasSeed false: the clock at the
	// season's start (the season file records it).
	Seed    int64
	HasSeed bool
	// MaxMatches is how many matches run at once at most (0: no limit).
	MaxMatches int
	// Rest is how long a team is left out of the pairing after a match.
	Rest time.Duration
	// RematchAfter is how long a team waits before it is paired with the
	// team of its last match again (when no other is ready).
	RematchAfter time.Duration
	// Recent is how many of a team's latest matches count as "met
	// recently" for the pairing.
	Recent int
	// HouseTeam is whom a team waiting alone for HouseWait plays:
	// HouseBuilder, HouseRandom or HouseOff.
	HouseTeam string
	HouseWait time.Duration
	// Provisional is the number of rated matches below which a team's
	// rating is marked provisional.
	Provisional int
	// RankedPerHour and UnrankedPerHour cap the scrimmages a team may
	// request in any hour; RequestExpiry drops a request that could not be
	// played for so long.
	RankedPerHour   int
	UnrankedPerHour int
	RequestExpiry   time.Duration
	Qualification   Qualification
}

// Qualification is the ladder's qualification rule: a team qualifies with
// Matches finished matches in each of which it scored at least MinScore
// (1: a task completed; every task rewards at least 10) and its agents
// played no_action in less than MaxNoAction of their steps. Matches 0
// turns qualification off.
type Qualification struct {
	Matches     int
	MinScore    int
	MaxNoAction float64
}

// House teams of the ladder (ladder.houseTeam).
const (
	HouseBuilder = "builder"
	HouseRandom  = "random"
	HouseOff     = "off"
)

// DefaultLadder is the ladder block when the config has none: the MAPC
// 2020 qualification rule, Battlecode-like scrimmage limits.
func DefaultLadder() Ladder {
	return Ladder{
		RematchAfter:    time.Minute,
		Recent:          3,
		HouseTeam:       HouseBuilder,
		HouseWait:       2 * time.Minute,
		Provisional:     5,
		RankedPerHour:   10,
		UnrankedPerHour: 10,
		RequestExpiry:   time.Hour,
		Qualification:   Qualification{Matches: 2, MinScore: 1, MaxNoAction: 0.3},
	}
}

// readLadder reads the optional "ladder" block.
func readLadder(r *report, root *object) Ladder {
	l := DefaultLadder()
	n := root.opt("ladder")
	if n == nil {
		return l
	}
	o, ok := r.object(n, "ladder", root.file())
	if !ok {
		return l
	}
	num := func(key string, rng intRange, into *int) {
		if v := o.opt(key); v != nil {
			if i, ok := r.intValue(v, o.keyPath(key), rng); ok {
				*into = i
			}
		}
	}
	millis := func(key string, into *time.Duration) {
		if v := o.opt(key); v != nil {
			if i, ok := r.intValue(v, o.keyPath(key), atLeast(0)); ok {
				*into = time.Duration(i) * time.Millisecond
			}
		}
	}
	if v := o.opt("seed"); v != nil {
		if s, ok := r.int64Value(v, o.keyPath("seed")); ok {
			l.Seed, l.HasSeed = s, true
		}
	}
	num("maxMatches", atLeast(0), &l.MaxMatches)
	millis("rest", &l.Rest)
	millis("rematchAfter", &l.RematchAfter)
	num("recent", atLeast(0), &l.Recent)
	if v := o.opt("houseTeam"); v != nil {
		if s, ok := r.stringValue(v, o.keyPath("houseTeam")); ok {
			switch s {
			case HouseBuilder, HouseRandom, HouseOff:
				l.HouseTeam = s
			default:
				r.fail(v.file, o.keyPath("houseTeam"), "must be %q, %q or %q", HouseBuilder, HouseRandom, HouseOff)
			}
		}
	}
	millis("houseWait", &l.HouseWait)
	num("provisional", atLeast(0), &l.Provisional)
	num("rankedPerHour", atLeast(0), &l.RankedPerHour)
	num("unrankedPerHour", atLeast(0), &l.UnrankedPerHour)
	millis("requestExpiry", &l.RequestExpiry)
	if q := o.opt("qualification"); q != nil {
		if qo, ok := r.object(q, o.keyPath("qualification"), o.file()); ok {
			if v := qo.opt("matches"); v != nil {
				if i, ok := r.intValue(v, qo.keyPath("matches"), atLeast(0)); ok {
					l.Qualification.Matches = i
				}
			}
			if v := qo.opt("minScore"); v != nil {
				if i, ok := r.intValue(v, qo.keyPath("minScore"), atLeast(0)); ok {
					l.Qualification.MinScore = i
				}
			}
			if v := qo.opt("maxNoAction"); v != nil {
				if f, ok := r.numberValue(v, qo.keyPath("maxNoAction"), probability); ok {
					l.Qualification.MaxNoAction = f
				}
			}
			qo.finish()
		}
	}
	o.finish()
	return l
}
