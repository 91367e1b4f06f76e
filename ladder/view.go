package ladder

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/massim-go/massim/ladder/season"
	"github.com/massim-go/massim/replays/compact"
)

// View is the season as the page shows it and /ladder.json gives it
// (docs/seasons.md, "The season page").
type View struct {
	State     string    `json:"state"` // running, paused, draining, stopping
	Seed      int64     `json:"seed"`
	Started   time.Time `json:"started"`
	AgentPort string    `json:"agentPort"`
	Now       time.Time `json:"now"`
	// Finished and Rated count the season's finished matches and the
	// rated ones among them.
	Finished int `json:"finished"`
	Rated    int `json:"rated"`
	// Teams are the registered teams (not retired) and where each is:
	// ready (and since when), playing, resting, connecting (some agents
	// in, the quiet time not over) or offline.
	Teams []TeamState `json:"teams"`
	// Queue are the queued scrimmage requests, first asked first.
	Queue    []season.Request `json:"queue"`
	Running  []RunningMatch   `json:"running"`
	Recent   []EndedMatch     `json:"recent"` // the latest ended matches, latest first
	Requests []season.Request `json:"requests"`
	// Standings count the rated matches; Qualification is each team's
	// standing under the rule (same order as the standings).
	Standings []StandingRow `json:"standings"`
	Rule      QualRule      `json:"qualificationRule"`
}

// QualRule is the qualification rule in force.
type QualRule struct {
	Matches     int     `json:"matches"`
	MinScore    int     `json:"minScore"`
	MaxNoAction float64 `json:"maxNoAction"`
}

// TeamState is a registered team's current state.
type TeamState struct {
	Team      string    `json:"team"`
	State     string    `json:"state"`
	Since     time.Time `json:"since,omitzero"` // ready since
	Connected int       `json:"connected"`      // idle accounts of a match's first simulation at the desk
	Want      int       `json:"want"`           // the team size of a match's first simulation
	Command   bool      `json:"command,omitempty"`
	Match     int       `json:"match,omitempty"` // the match it plays
}

// RunningMatch is a match that runs.
type RunningMatch struct {
	Number   int       `json:"number"`
	Name     string    `json:"name"`
	Teams    []string  `json:"teams"`
	Kind     string    `json:"kind"`
	Request  int       `json:"request,omitempty"`
	Started  time.Time `json:"started"`
	Progress Progress  `json:"progress"`
	Live     string    `json:"live,omitempty"` // its live view, a path on the monitor port
}

// EndedMatch is a match that ended.
type EndedMatch struct {
	Number  int                 `json:"number"`
	Name    string              `json:"name"`
	Teams   []string            `json:"teams"`
	Kind    string              `json:"kind"`
	Request int                 `json:"request,omitempty"`
	State   string              `json:"state"`
	Note    string              `json:"note,omitempty"`
	Started time.Time           `json:"started"`
	Ended   time.Time           `json:"ended"`
	Results []season.TeamResult `json:"results"`
	Winner  string              `json:"winner,omitempty"` // more simulations won
	Replays []string            `json:"replays"`          // the monitor's links to its replays
	// WaitMillis is the time from the later team's readiness to the
	// first sim-start.
	WaitMillis int64 `json:"waitMillis,omitempty"`
}

// StandingRow is a line of the standings with its qualification.
type StandingRow struct {
	season.Row
	Qualification season.Qualification `json:"qualification"`
}

// recentMatches is how many ended matches the page lists.
const recentMatches = 30

// view builds the View (l.mu held).
func (l *Ladder) view() View {
	now := l.now()
	q := l.cfg.Ladder.Qualification
	v := View{State: l.state, Seed: l.season.Seed, Started: l.season.Started, AgentPort: l.desk.Addr().String(), Now: now.UTC(),
		Queue: l.requests.Queued(), Requests: l.requests.Recent(20), Teams: []TeamState{}, Running: []RunningMatch{}, Recent: []EndedMatch{},
		Rule: QualRule{Matches: q.Matches, MinScore: q.MinScore, MaxNoAction: q.MaxNoAction}}
	if v.Queue == nil {
		v.Queue = []season.Request{}
	}
	if v.Requests == nil {
		v.Requests = []season.Request{}
	}
	want := l.cfg.Match[0].TeamSize
	for _, name := range l.reg.Names() {
		t, ok := l.teams[name]
		if !ok || !l.reg.Active(name) {
			continue
		}
		ts := TeamState{Team: name, Want: want, Command: t.command(), Match: t.playing, Since: t.readySince}
		for i := 1; i <= want; i++ {
			if l.desk.Idle(t.cfg.AccountName(i)) {
				ts.Connected++
			}
		}
		switch {
		case t.playing != 0:
			ts.State = "playing"
		case !t.readySince.IsZero():
			ts.State = "ready"
		case now.Before(t.rests):
			ts.State = "resting"
		case ts.Connected > 0:
			ts.State = "connecting"
		default:
			ts.State = "offline"
		}
		v.Teams = append(v.Teams, ts)
	}
	for _, m := range l.history.Running() {
		r, ok := l.running[m.Number]
		if !ok {
			continue
		}
		rm := RunningMatch{Number: m.Number, Name: season.Name(m.Number), Teams: m.Teams, Kind: m.Kind, Request: m.Request,
			Started: m.Started, Progress: r.progress.now()}
		if r.view != nil {
			rm.Live = matchPath(m.Number)
		}
		v.Running = append(v.Running, rm)
	}
	ended := l.history.Ended()
	for _, m := range ended {
		if m.State == season.StateFinished {
			v.Finished++
		}
		if m.Rated() {
			v.Rated++
		}
	}
	for i := len(ended) - 1; i >= 0 && len(v.Recent) < recentMatches; i-- {
		v.Recent = append(v.Recent, l.endedMatch(ended[i]))
	}
	rows, _ := l.history.Standings(l.reg, l.cfg.Ladder.Provisional, now)
	for _, r := range rows {
		v.Standings = append(v.Standings, StandingRow{Row: r, Qualification: l.history.Qualify(r.Team, q)})
	}
	if v.Standings == nil {
		v.Standings = []StandingRow{}
	}
	return v
}

// endedMatch describes an ended match.
func (l *Ladder) endedMatch(m season.Match) EndedMatch {
	e := EndedMatch{Number: m.Number, Name: season.Name(m.Number), Teams: m.Teams, Kind: m.Kind, Request: m.Request,
		State: m.State, Note: m.Note, Started: m.Started, Ended: m.Ended, Results: m.Results, Replays: []string{}}
	if e.Results == nil {
		e.Results = []season.TeamResult{}
	}
	if !m.SimStart.IsZero() && !m.Ready.IsZero() {
		e.WaitMillis = m.SimStart.Sub(m.Ready).Milliseconds()
	}
	if len(m.Results) == 2 {
		a, b := m.Results[0], m.Results[1]
		switch {
		case a.Wins > b.Wins:
			e.Winner = a.Team
		case b.Wins > a.Wins:
			e.Winner = b.Team
		}
	}
	for _, id := range replayIDs(season.MatchDir(l.opts.Dir, m.Number)) {
		e.Replays = append(e.Replays, matchPath(m.Number)+"?replay="+id)
	}
	return e
}

// replayIDs are the compact replays of a match folder, by name (the
// monitor library's ids: the file names).
func replayIDs(folder string) []string {
	entries, err := os.ReadDir(filepath.Join(folder, "replays"))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), compact.Extension) {
			out = append(out, e.Name())
		}
	}
	slices.Sort(out)
	return out
}

// matchPath is the page of a match on the monitor port.
func matchPath(number int) string { return "/matches/" + season.Name(number) + "/" }

// TeamView is a team's page (/teams/NAME and .json).
type TeamView struct {
	Team          string                `json:"team"`
	Registration  season.Registration   `json:"registration"`
	State         *TeamState            `json:"state,omitempty"` // nil for a retired team
	Standing      *season.Row           `json:"standing,omitempty"`
	Qualification season.Qualification  `json:"qualification"`
	Matches       []EndedMatch          `json:"matches"` // latest first
	Ratings       []season.HistoryPoint `json:"ratings"` // in the order the rated matches ended
}

// teamView builds the page of team (l.mu held); ok false for a team never
// registered.
func (l *Ladder) teamView(name string) (TeamView, bool) {
	i := slices.IndexFunc(l.reg.Teams, func(g season.Registration) bool { return g.Team == name })
	if i < 0 {
		return TeamView{}, false
	}
	v := l.view()
	tv := TeamView{Team: name, Registration: l.reg.Teams[i], Matches: []EndedMatch{}, Ratings: l.history.RatingHistory(name)}
	if tv.Ratings == nil {
		tv.Ratings = []season.HistoryPoint{}
	}
	for _, ts := range v.Teams {
		if ts.Team == name {
			tv.State = &ts
		}
	}
	for _, r := range v.Standings {
		if r.Team == name {
			tv.Standing, tv.Qualification = &r.Row, r.Qualification
		}
	}
	ms := l.history.Of(name)
	for i := len(ms) - 1; i >= 0; i-- {
		tv.Matches = append(tv.Matches, l.endedMatch(ms[i]))
	}
	return tv, true
}
