package ladder

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/massim-go/massim/ladder/season"
)

// render writes a page; a template error is a 500 with its text.
func render(w http.ResponseWriter, t *template.Template, data any) {
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		http.Error(w, fmt.Sprintf("ladder: page: %v", err), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(buf.Bytes())
}

var pageFuncs = template.FuncMap{
	"name":   season.Name,
	"path":   url.PathEscape,
	"pct":    func(f float64) string { return fmt.Sprintf("%.1f %%", 100*f) },
	"rating": func(r season.Row) string { return ratingText(r) },
	"waited": func(since, now time.Time) string { return now.Sub(since).Round(time.Second).String() },
	"when":   func(t time.Time) string { return t.Local().Format("2006-01-02 15:04:05") },
	"vs":     func(teams []string) string { return strings.Join(teams, " vs ") },
	"inc":    func(i int) int { return i + 1 },
	// rel makes a path of the monitor port relative to its root page, so
	// the pages also work behind a proxy's path prefix.
	"rel": func(p string) string { return strings.TrimPrefix(p, "/") },
	"progress": func(p Progress) string {
		if p.Simulation < 0 {
			return "starting"
		}
		s := fmt.Sprintf("simulation %d, step %d of %d", p.Simulation+1, p.Step+1, p.Steps)
		for _, sc := range p.Scores {
			s += fmt.Sprintf(" · %s %d", sc.Team, sc.Score)
		}
		return s
	},
	"results": func(rs []season.TeamResult) string {
		var parts []string
		for _, r := range rs {
			parts = append(parts, fmt.Sprintf("%s %d", r.Team, r.Score))
		}
		return strings.Join(parts, " : ")
	},
}

// ratingText is a rating with its standard error; "?" marks a provisional
// one, "–" a team without a rated match.
func ratingText(r season.Row) string {
	if r.Games == 0 {
		return "–"
	}
	s := fmt.Sprintf("%.0f ± %.0f", r.Rating, r.RatingError)
	if r.Provisional {
		s += " ?"
	}
	return s
}

const pageStyle = `<style>
body{font-family:system-ui,sans-serif;margin:1.5em 2em;color:#222}
h1{margin-bottom:.2em}h2{margin:1.4em 0 .4em;font-size:1.15em}
table{border-collapse:collapse}td,th{padding:3px 10px;text-align:left;border-bottom:1px solid #eee}
th{background:#f4f4f4}.meta{color:#666}.state{padding:2px 8px;border-radius:4px;background:#ddd}
.running,.ready{color:#070}.paused,.draining,.stopping{color:#a60}.cut,.failed{color:#b00}
.provisional{color:#888}.yes{color:#070;font-weight:bold}code{background:#f4f4f4;padding:1px 4px}
</style>`

// refreshScript keeps the page current without reloading it: the main
// part is fetched again every few seconds and swapped in.
const refreshScript = `<script>
setInterval(async () => {
  try {
    const r = await fetch(location.href, {cache: 'no-store'});
    if (!r.ok) return;
    const doc = new DOMParser().parseFromString(await r.text(), 'text/html');
    const fresh = doc.getElementById('season');
    if (fresh) document.getElementById('season').replaceWith(fresh);
  } catch (e) { /* the ladder is restarting: try again */ }
}, 3000);
</script>`

var seasonPage = template.Must(template.New("season").Funcs(pageFuncs).Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>Season</title>` + pageStyle + `</head><body>
<main id="season">
<h1>Season <span class="state {{.State}}" id="state">{{.State}}</span></h1>
<p class="meta">agent port {{.AgentPort}} · started {{when .Started}} · seed {{.Seed}} · <a href="ladder.json">ladder.json</a></p>

<h2>Teams</h2>
<table id="teams"><tr><th>team</th><th>state</th><th>agents in</th></tr>
{{- range .Teams}}
<tr class="{{.State}}"><td><a href="teams/{{path .Team}}">{{.Team}}</a></td>
<td>{{.State}}{{if eq .State "ready"}} for {{waited .Since $.Now}}{{end}}{{if .Match}} (match <a href="matches/{{name .Match}}/">{{name .Match}}</a>){{end}}</td>
<td>{{if .Command}}started by the ladder{{else}}{{.Connected}} of {{.Want}}{{end}}</td></tr>
{{- end}}</table>

<h2>Scrimmage requests</h2>
{{if .Queue}}<table id="queue"><tr><th>#</th><th>asked by</th><th>against</th><th>kind</th><th>asked</th></tr>
{{- range .Queue}}
<tr><td>{{.Position}}</td><td>{{.From}}</td><td>{{.To}}</td><td>{{if .Ranked}}ranked{{else}}unranked{{end}}</td><td>{{when .Asked}}</td></tr>
{{- end}}</table>{{else}}<p id="queue">No request waits.</p>{{end}}

<h2>Running matches</h2>
{{if .Running}}<table id="running"><tr><th>match</th><th>teams</th><th>kind</th><th>progress</th><th></th></tr>
{{- range .Running}}
<tr><td>{{.Name}}</td><td>{{vs .Teams}}</td><td>{{.Kind}}</td><td>{{progress .Progress}}</td>
<td>{{if .Live}}<a class="live" href="{{rel .Live}}">watch live</a>{{end}}</td></tr>
{{- end}}</table>{{else}}<p id="running">No match runs.</p>{{end}}

<h2>Recent results</h2>
{{if .Recent}}<table id="recent"><tr><th>match</th><th>teams</th><th>kind</th><th>result</th><th>winner</th><th>replays</th></tr>
{{- range .Recent}}
<tr class="{{.State}}"><td>{{.Name}}</td><td>{{vs .Teams}}</td><td>{{.Kind}}</td>
<td>{{if eq .State "finished"}}{{results .Results}}{{else}}{{.State}}: {{.Note}}{{end}}</td><td>{{.Winner}}</td>
<td>{{range $i, $r := .Replays}}<a class="replay" href="{{rel $r}}">{{inc $i}}</a> {{end}}</td></tr>
{{- end}}</table>{{else}}<p id="recent">No match has ended yet.</p>{{end}}

<h2>Standings</h2>
<p class="meta">rated matches only (ranked pairings and ranked scrimmages); ratings: Bradley–Terry ± standard error, "?" provisional.
Qualification: {{if .Rule.Matches}}{{.Rule.Matches}} matches with a score of at least {{.Rule.MinScore}} and no_action under {{pct .Rule.MaxNoAction}}{{else}}off{{end}}.</p>
<table id="standings"><tr><th>rank</th><th>team</th><th>rated matches</th><th>won</th><th>drawn</th><th>lost</th><th>points</th><th>score</th><th>rating</th><th>qualification</th></tr>
{{- range .Standings}}
<tr{{if .Provisional}} class="provisional"{{end}}><td>{{.Rank}}</td><td><a href="teams/{{path .Team}}">{{.Team}}</a>{{if .Retired}} (retired){{end}}</td>
<td>{{.Games}}</td><td>{{.Wins}}</td><td>{{.Draws}}</td><td>{{.Losses}}</td><td>{{.Points}}</td><td>{{.Score}}</td><td>{{rating .Row}}</td>
<td>{{if .Qualification.Qualified}}<span class="yes">qualified</span> (matches{{range .Qualification.Matches}} <a href="matches/{{name .Match}}/">{{name .Match}}</a>{{end}}){{else if .Qualification.Need}}not yet: {{len .Qualification.Matches}} of {{.Qualification.Need}}{{if .Qualification.Last}} ({{.Qualification.Last}}){{end}}{{end}}</td></tr>
{{- end}}</table>
</main>` + refreshScript + `</body></html>
`))

var teamPage = template.Must(template.New("team").Funcs(pageFuncs).Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>{{.Team}} · Season</title>` + pageStyle + `</head><body>
<main id="season">
<p><a href="../">← season</a> · <a href="{{path .Team}}.json">{{.Team}}.json</a></p>
<h1>{{.Team}}</h1>
<p class="meta">registered {{when .Registration.Registered}}{{if .Registration.Retired}} · retired {{when .Registration.Retired}}{{end}}{{with .State}} · {{.State}}{{end}}</p>
{{with .Standing}}<p id="standing">rank {{.Rank}} · {{.Games}} rated matches · {{.Points}} points · rating {{rating .}} · {{.Unranked}} unranked scrimmages · against the house team {{.HouseWins}}/{{.HouseDraws}}/{{.HouseLosses}} (won/drawn/lost simulations)</p>{{end}}
<p id="qualification">{{if .Qualification.Qualified}}<span class="yes">qualified</span> with matches{{range .Qualification.Matches}} {{name .Match}} (score {{.Score}}, no_action {{pct .NoAction}}){{end}}{{else if .Qualification.Need}}not qualified yet: {{len .Qualification.Matches}} of {{.Qualification.Need}} matches{{range .Qualification.Matches}} {{name .Match}}{{end}}{{if .Qualification.Last}}; {{.Qualification.Last}}{{end}}{{end}}</p>

<h2>Rating</h2>
{{if .Ratings}}<table id="ratings"><tr><th>after match</th><th>rating</th><th>rated matches</th></tr>
{{- range .Ratings}}
<tr><td>{{name .Match}}</td><td>{{printf "%.0f ± %.0f" .Rating .Error}}</td><td>{{.Games}}</td></tr>
{{- end}}</table>{{else}}<p>No rated match yet.</p>{{end}}

<h2>Matches</h2>
{{if .Matches}}<table id="matches"><tr><th>match</th><th>teams</th><th>kind</th><th>result</th><th>no_action</th><th>replays</th></tr>
{{- $team := .Team}}
{{- range .Matches}}
<tr class="{{.State}}"><td><a href="../matches/{{.Name}}/">{{.Name}}</a></td><td>{{vs .Teams}}</td><td>{{.Kind}}</td>
<td>{{if eq .State "finished"}}{{results .Results}}{{else}}{{.State}}{{end}}</td>
<td>{{range .Results}}{{if eq .Team $team}}{{if ge .NoAction 0.0}}{{pct .NoAction}}{{end}}{{end}}{{end}}</td>
<td>{{range $i, $r := .Replays}}<a class="replay" href="../{{rel $r}}">{{inc $i}}</a> {{end}}</td></tr>
{{- end}}</table>{{else}}<p>No match yet.</p>{{end}}
</main>` + refreshScript + `</body></html>
`))
