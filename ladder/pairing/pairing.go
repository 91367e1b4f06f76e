package pairing

import (
	"cmp"
	"encoding/binary"
	"hash/fnv"
	"math"
	"slices"
	"time"
)

// Team is a ready team: its agents are connected and idle (or it is a
// team the ladder starts), it plays no match and does not rest.
type Team struct {
	Name       string
	ReadySince time.Time
	Games      int     // rated matches played
	Rating     float64 // its rating; any value when Games is 0
	// Recent are the opponents of its latest matches, the latest first
	// (ladder.recent of them; house matches left out).
	Recent []string
}

// Request is a queued scrimmage request, in the order they were asked.
type Request struct {
	ID       int
	From, To string
	Ranked   bool
}

// Rules are the ladder's settings the pairing follows.
type Rules struct {
	Seed int64 // the season's seed: tie-breaks
	// RematchAfter is how long one of two teams whose last match was
	// against each other must have waited before they meet again.
	RematchAfter time.Duration
	// HouseWait is how long a team waits alone before it plays the house
	// team; 0: no house team.
	HouseWait time.Duration
	// Slots is how many matches may start now; negative: no limit.
	Slots int
}

// Pair is a match to start.
type Pair struct {
	Teams   []string // in match order; one team for a house match
	Ranked  bool
	Request int  // the request it plays, 0 for none
	House   bool // against the house team
}

// defaultRating is the rating of a team without rated games.
const defaultRating = 1500

// Make pairs the ready teams (docs/seasons.md, "Pairing"):
//
//  1. queued requests first, oldest first, when both teams are ready;
//  2. then the team with the fewest rated games (the one waiting longest
//     among equals) gets the opponent it met least recently, then the one
//     closest in rating, then a tie-break drawn from the seed and round
//     (the number of the next match); two teams whose last match was
//     against each other meet again only once one has waited RematchAfter;
//     repeat while two are left;
//  3. a team left alone that has waited HouseWait plays the house team.
//
// At most rules.Slots pairs are made.
func Make(ready []Team, requests []Request, round int, rules Rules, now time.Time) []Pair {
	free := slices.Clone(ready)
	slices.SortStableFunc(free, func(a, b Team) int {
		return cmp.Or(cmp.Compare(a.Games, b.Games), a.ReadySince.Compare(b.ReadySince), cmp.Compare(a.Name, b.Name))
	})
	var pairs []Pair
	room := func() bool { return rules.Slots < 0 || len(pairs) < rules.Slots }
	take := func(name string) (Team, bool) {
		i := slices.IndexFunc(free, func(t Team) bool { return t.Name == name })
		if i < 0 {
			return Team{}, false
		}
		t := free[i]
		free = slices.Delete(free, i, i+1)
		return t, true
	}
	for _, r := range requests {
		if !room() {
			return pairs
		}
		if !has(free, r.From) || !has(free, r.To) {
			continue
		}
		take(r.From)
		take(r.To)
		pairs = append(pairs, Pair{Teams: []string{r.From, r.To}, Ranked: r.Ranked, Request: r.ID})
	}
	var alone []Team
	for len(free) > 0 && room() {
		t := free[0]
		free = free[1:]
		best, bestKey := -1, key{}
		for i, o := range free {
			if lastMet(t, o) && now.Sub(t.ReadySince) < rules.RematchAfter && now.Sub(o.ReadySince) < rules.RematchAfter {
				continue
			}
			k := key{recency: recency(t, o), gap: math.Abs(rating(t) - rating(o)), draw: draw(rules.Seed, round, t.Name, o.Name)}
			if best < 0 || k.less(bestKey) {
				best, bestKey = i, k
			}
		}
		if best < 0 {
			alone = append(alone, t)
			continue
		}
		o := free[best]
		free = slices.Delete(free, best, best+1)
		pairs = append(pairs, Pair{Teams: []string{t.Name, o.Name}, Ranked: true})
	}
	alone = append(alone, free...)
	for _, t := range alone {
		if rules.HouseWait > 0 && room() && now.Sub(t.ReadySince) >= rules.HouseWait {
			pairs = append(pairs, Pair{Teams: []string{t.Name}, House: true})
		}
	}
	return pairs
}

// key orders the opponents of a team, smallest first.
type key struct {
	recency int     // how recently they met: 0 not among the latest matches
	gap     float64 // rating difference
	draw    uint64
}

func (k key) less(o key) bool {
	if k.recency != o.recency {
		return k.recency < o.recency
	}
	if k.gap != o.gap {
		return k.gap < o.gap
	}
	return k.draw < o.draw
}

func has(teams []Team, name string) bool {
	return slices.ContainsFunc(teams, func(t Team) bool { return t.Name == name })
}

// recency is how recently a and b met, by either's list of recent
// opponents: the length of that list for their latest match, 0 when
// neither lists the other.
func recency(a, b Team) int {
	r := 0
	if i := slices.Index(a.Recent, b.Name); i >= 0 {
		r = len(a.Recent) - i
	}
	if i := slices.Index(b.Recent, a.Name); i >= 0 {
		r = max(r, len(b.Recent)-i)
	}
	return r
}

// lastMet reports whether the latest match of a or of b was against the other.
func lastMet(a, b Team) bool {
	return len(a.Recent) > 0 && a.Recent[0] == b.Name || len(b.Recent) > 0 && b.Recent[0] == a.Name
}

func rating(t Team) float64 {
	if t.Games == 0 {
		return defaultRating
	}
	return t.Rating
}

// draw is the seeded tie-break of a pair in a round, the same whichever
// team is named first.
func draw(seed int64, round int, a, b string) uint64 {
	if b < a {
		a, b = b, a
	}
	h := fnv.New64a()
	var buf [16]byte
	binary.LittleEndian.PutUint64(buf[:8], uint64(seed))
	binary.LittleEndian.PutUint64(buf[8:], uint64(round))
	h.Write(buf[:])
	h.Write([]byte(a))
	h.Write([]byte{0})
	h.Write([]byte(b))
	return mix(h.Sum64())
}

// mix is splitmix64's finalizer: FNV alone leaves the seed's bytes, hashed
// first, with little say in the high bits that the comparison looks at.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
