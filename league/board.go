package league

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/massim-go/massim/tournament"
)

// Board is the league's web page (massim league -monitor): every match
// with its state, a link to the live monitor of each running match, and
// the standings. The runner keeps it up to date; it is served as HTML at
// / and as JSON at /league.json.
type Board struct {
	mu        sync.Mutex
	plan      *Plan
	running   map[int]*child
	state     map[int]string // finished, failed, stopped
	absent    map[int][]Absent
	standings []tournament.Standing
	teams     []BoardTeam
}

// BoardTeam is a team of the league and how its command is isolated.
type BoardTeam struct {
	Name      string `json:"name"`
	Isolation string `json:"isolation"`
}

// SetTeams names the league's teams and how each is isolated
// (server.TeamIsolation).
func (b *Board) SetTeams(teams []BoardTeam) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.teams = teams
}

// NewBoard is the board of a plan.
func NewBoard(p *Plan) *Board {
	return &Board{plan: p, running: map[int]*child{}, state: map[int]string{}, absent: map[int][]Absent{}}
}

func (b *Board) started(c *child) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.running[c.match.Index] = c
}

// ended marks a match ended in state, with the absences its folder
// records (finished matches).
func (b *Board) ended(m Match, state string, absent []Absent) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.running, m.Index)
	b.state[m.Index] = state
	b.absent[m.Index] = absent
}

func (b *Board) setStandings(rows []tournament.Standing) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.standings = rows
}

// BoardMatch is one match on the board.
type BoardMatch struct {
	Index    int      `json:"index"`
	Name     string   `json:"name"`
	Teams    []string `json:"teams"`
	State    string   `json:"state"`              // pending, running, finished, failed, stopped
	Progress string   `json:"progress,omitempty"` // a running match's simulation and step
	Monitor  string   `json:"monitor,omitempty"`  // a running match's live monitor
	// Forfeit lists the teams that forfeited a simulation of a finished
	// match; Absences says who was missing and why, in words
	// (docs/leagues.md, "Forfeits").
	Forfeit  []string `json:"forfeit,omitempty"`
	Absences string   `json:"absences,omitempty"`
}

// BoardView is what the board shows.
type BoardView struct {
	Matches   []BoardMatch          `json:"matches"`
	Standings []tournament.Standing `json:"standings"`
	Teams     []BoardTeam           `json:"teams"`
}

// view is the board now; monitor links name the host the page was asked
// for, since a match's monitor listens on the league's monitor host.
func (b *Board) view(host string) BoardView {
	b.mu.Lock()
	defer b.mu.Unlock()
	v := BoardView{Standings: b.standings, Teams: b.teams}
	for _, m := range b.plan.Matches {
		bm := BoardMatch{Index: m.Index, Name: m.Name(), Teams: m.Teams, State: "pending"}
		if s, ok := b.state[m.Index]; ok {
			bm.State = s
		}
		if list := b.absent[m.Index]; len(list) > 0 {
			bm.Forfeit, bm.Absences = ForfeitingTeams(list), DescribeAbsences(list, len(b.plan.Steps))
		}
		if c, ok := b.running[m.Index]; ok {
			bm.State = "running"
			bm.Progress = strings.TrimPrefix(c.progressText(len(b.plan.Steps)), m.Name()+"  ")
			c.mu.Lock()
			bm.Monitor = linkOn(host, c.monitor)
			c.mu.Unlock()
		}
		v.Matches = append(v.Matches, bm)
	}
	return v
}

// linkOn is the URL u with its host replaced by host (its port kept).
func linkOn(host, u string) string {
	parsed, err := url.Parse(u)
	if err != nil || u == "" {
		return ""
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	parsed.Host = net.JoinHostPort(host, parsed.Port())
	return parsed.String()
}

var boardPage = template.Must(template.New("board").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="2"><title>league</title>
<style>body{font-family:sans-serif;margin:2em}td,th{padding:2px 10px;text-align:left}
.running{font-weight:bold}.failed{color:#b00}.absent{color:#b00}.partial{color:#a60}</style></head><body>
<h1>League</h1>
<table><tr><th>match</th><th>teams</th><th>state</th><th></th></tr>
{{range .Matches}}<tr class="{{.State}}"><td>{{.Name}}</td><td>{{range $i, $t := .Teams}}{{if $i}} vs {{end}}{{$t}}{{end}}</td>
<td>{{.State}} {{.Progress}}{{if .Absences}} <span class="{{if .Forfeit}}absent{{else}}partial{{end}}">{{if .Forfeit}}forfeit{{else}}agents missing{{end}}: {{.Absences}}</span>{{end}}</td><td>{{if .Monitor}}<a href="{{.Monitor}}">monitor</a>{{end}}</td></tr>
{{end}}</table>
<h2>Standings</h2>
<table><tr><th>rank</th><th>team</th><th>played</th><th>won</th><th>drawn</th><th>lost</th><th>points</th><th>score</th><th>forfeits</th><th>rating</th></tr>
{{range .Standings}}<tr><td>{{.Rank}}</td><td>{{.Team}}</td><td>{{.Played}}</td><td>{{.Wins}}</td><td>{{.Draws}}</td><td>{{.Losses}}</td>
<td>{{.Points}}</td><td>{{.Score}}</td><td>{{.Forfeits}}</td><td>{{printf "%.0f ± %.0f" .Rating .RatingError}}</td></tr>
{{end}}</table>
<h2>Teams</h2>
<table><tr><th>team</th><th>isolation</th></tr>
{{range .Teams}}<tr><td>{{.Name}}</td><td>{{.Isolation}}</td></tr>
{{end}}</table></body></html>
`))

// ServeHTTP serves the page at / and its data at /league.json.
func (b *Board) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	v := b.view(r.Host)
	switch r.URL.Path {
	case "/league.json":
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	case "/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if err := boardPage.Execute(w, v); err != nil {
			http.Error(w, fmt.Sprintf("league: board: %v", err), http.StatusInternalServerError)
		}
	default:
		http.NotFound(w, r)
	}
}
