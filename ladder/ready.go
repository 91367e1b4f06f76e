package ladder

import (
	"slices"
	"sort"
	"time"

	"github.com/massim-go/massim/ladder/pairing"
	"github.com/massim-go/massim/ladder/season"
	"github.com/massim-go/massim/tournament"
)

// teamStats are what the pairing asks of a team's history; kept up to date
// when a match ends rather than read from the history at every look.
type teamStats struct {
	games  int     // rated matches
	rating float64 // after its latest rated match
	recent []string
}

// refreshStats recomputes every team's figures from the history (l.mu held).
func (l *Ladder) refreshStats() {
	l.stats = map[string]teamStats{}
	for _, m := range l.history.Ended() {
		if m.State != season.StateFinished && m.State != season.StateCut {
			continue
		}
		for _, name := range m.Teams {
			st := l.stats[name]
			if m.Rated() {
				st.games++
				for _, p := range m.After {
					if p.Team == name {
						st.rating = p.Rating
					}
				}
			}
			if m.Kind != season.KindHouse {
				for _, o := range m.Teams {
					if o != name {
						st.recent = append([]string{o}, st.recent...)
					}
				}
				if n := l.cfg.Ladder.Recent; len(st.recent) > n {
					st.recent = st.recent[:n]
				}
			}
			l.stats[name] = st
		}
	}
}

// updateReadiness looks at every registered team that plays no match
// (l.mu held): a team whose agents connect by themselves is ready when
// tournament.Arrivals says so for the accounts of a match's first
// simulation that are idle at the desk (all of them, or some and no new
// login for server.teamQuietTime); a team the ladder starts is ready
// whenever it plays no match. Nobody is ready while resting after a match.
func (l *Ladder) updateReadiness() {
	now := l.now()
	want := l.cfg.Match[0].TeamSize
	for _, t := range l.teams {
		if t.playing != 0 || !l.reg.Active(t.cfg.Name) {
			t.readySince = time.Time{}
			continue
		}
		ready := true
		if !t.command() {
			connected := 0
			for i := 1; i <= want; i++ {
				if l.desk.Idle(t.cfg.AccountName(i)) {
					connected++
				}
			}
			ready = t.arrivals.Look(now, connected, want) != tournament.NotReady
		}
		if now.Before(t.rests) {
			ready = false
		}
		switch {
		case !ready:
			t.readySince = time.Time{}
		case t.readySince.IsZero():
			t.readySince = now
		}
	}
}

// ready lists the ready teams for the pairing, by name (l.mu held).
func (l *Ladder) ready() []pairing.Team {
	var out []pairing.Team
	for name, t := range l.teams {
		if t.readySince.IsZero() {
			continue
		}
		st := l.stats[name]
		out = append(out, pairing.Team{Name: name, ReadySince: t.readySince, Games: st.games, Rating: st.rating, Recent: st.recent})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// pairAndStart pairs the ready teams and starts their matches (l.mu held).
func (l *Ladder) pairAndStart() {
	l.updateReadiness()
	now := l.now()
	if l.requests.Tidy(l.reg, l.limits(), now) {
		l.saveRequests()
	}
	var requests []pairing.Request
	for _, q := range l.requests.Queued() {
		requests = append(requests, pairing.Request{ID: q.ID, From: q.From, To: q.To, Ranked: q.Ranked})
	}
	rules := pairing.Rules{Seed: l.season.Seed, RematchAfter: l.cfg.Ladder.RematchAfter, Slots: -1}
	if l.cfg.Ladder.HouseTeam != "off" {
		rules.HouseWait = l.cfg.Ladder.HouseWait
	}
	if n := l.cfg.Ladder.MaxMatches; n > 0 {
		rules.Slots = max(0, n-len(l.running))
	}
	for _, p := range pairing.Make(l.ready(), requests, l.history.NextNumber(), rules, now) {
		l.start(p, now)
	}
}

// limits are the request rules of the config.
func (l *Ladder) limits() season.Limits {
	lc := l.cfg.Ladder
	return season.Limits{RankedPerHour: lc.RankedPerHour, UnrankedPerHour: lc.UnrankedPerHour, Expiry: lc.RequestExpiry}
}

// houseSlot is the smallest house slot no running match uses.
func (l *Ladder) houseSlot() int {
	var used []int
	for _, m := range l.running {
		if m.houseSlot > 0 {
			used = append(used, m.houseSlot)
		}
	}
	k := 1
	for slices.Contains(used, k) {
		k++
	}
	return k
}
