package publish

import (
	"bytes"
	"fmt"
	"html/template"
	"slices"
)

// teamView is what a team's page shows: its line of the standings, the
// legend, and each of its matches from its side.
type teamView struct {
	Title    string
	Team     string
	Standing *Standing
	Rated    bool
	Rounds   int
	Meetings []Meeting
	Matches  []*Match // its matches with notes (forfeits, absences, plays set aside)
	Pages    map[string]string
}

// crossView is the cross table's page.
type crossView struct {
	Title  string
	Rated  bool
	Table  CrossTable
	Pages  map[string]string
	Number map[string]int // a team's column number (its row in the table)
}

// leaguePages are the site's team pages and its cross table, by site path.
func leaguePages(site *Site) (map[string][]byte, error) {
	out := map[string][]byte{}
	if site.League == nil {
		return out, nil
	}
	teams := make([]string, 0, len(site.Standings))
	for _, s := range site.Standings {
		teams = append(teams, s.Team)
	}
	for _, t := range site.League.Teams { // a team missing from the standings still has its row
		if !slices.Contains(teams, t) {
			teams = append(teams, t)
		}
	}
	for _, team := range site.League.Teams {
		v := teamView{Title: site.Title, Team: team, Rated: site.Rated, Rounds: site.League.Rounds,
			Meetings: meetings(site.Matches, team), Pages: site.League.Pages}
		for i := range site.Standings {
			if site.Standings[i].Team == team {
				v.Standing = &site.Standings[i]
			}
		}
		for i := range site.Matches {
			m := &site.Matches[i]
			if slices.Contains(m.Teams, team) && (len(m.Notes()) > 0 || len(m.Replaced) > 0) {
				v.Matches = append(v.Matches, m)
			}
		}
		page, err := render(teamTemplate, v)
		if err != nil {
			return nil, fmt.Errorf("publish: page of team %s: %w", team, err)
		}
		out[site.League.Pages[team]] = page
	}
	v := crossView{Title: site.Title, Rated: site.Rated, Table: crossTable(teams, site.Matches), Pages: site.League.Pages,
		Number: map[string]int{}}
	for i, t := range teams {
		v.Number[t] = i + 1
	}
	page, err := render(crossTemplate, v)
	if err != nil {
		return nil, fmt.Errorf("publish: cross table: %w", err)
	}
	out[CrossTablePage] = page
	return out, nil
}

// CrossTablePage is the cross table's page in a league's site.
const CrossTablePage = "crosstable.html"

func render(t *template.Template, v any) ([]byte, error) {
	var b bytes.Buffer
	if err := t.Execute(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

var (
	teamTemplate  = template.Must(template.Must(pageTemplate.Clone()).New("team").Parse(teamHTML))
	crossTemplate = template.Must(template.Must(pageTemplate.Clone()).New("cross").Parse(crossHTML))
)

// teamHTML is a team's page (teams/<team>.html): links go up one folder.
const teamHTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Team}} · {{.Title}}</title>
<link rel="icon" href="../viewer/favicon.svg" type="image/svg+xml">
{{template "style"}}
</head>
<body>
<p class="small"><a href="../index.html">{{.Title}}</a> · <a href="../{{cross}}">cross table</a></p>
<h1>{{.Team}}</h1>
{{with .Standing}}<p class="summary">Rank {{.Rank}} · played {{.Played}}: won {{.Wins}}, drawn {{.Draws}}, lost {{.Losses}} · {{.Points}} points · score {{.Score}}{{if .Forfeits}} · forfeited {{.Forfeits}} {{plural .Forfeits "simulation" "simulations"}}{{end}}{{if $.Rated}} · rating over the league {{rating .}}{{end}}</p>{{end}}
{{template "legend" .}}
{{if .Matches}}<h2>Forfeits, missing agents, matches played again</h2>
{{range .Matches}}<h3><a href="../index.html#{{.ID}}">{{.Label}}</a></h3>
{{template "notes" .}}{{end}}{{end}}
<h2>Matches</h2>
<table class="meetings">
<tr><th>match</th>{{if gt .Rounds 1}}<th class="num">round</th>{{end}}<th>against</th><th>result</th><th class="num">points</th><th class="num">score</th><th></th></tr>
{{range .Meetings}}<tr>
<td><a href="../index.html#{{.Match.ID}}">{{.Match.Label}}</a></td>{{if gt $.Rounds 1}}<td class="num">{{.Match.Round}}</td>{{end}}
<td><a href="../{{index $.Pages .Opponent}}">{{.Opponent}}</a></td>
<td class="{{.Outcome}}">{{.Outcome}}</td>
<td class="num">{{if .Counted}}{{index .Points 0}} : {{index .Points 1}}{{end}}</td>
<td class="num">{{if .Match.Sims}}{{index .Scores 0}} : {{index .Scores 1}}{{end}}</td>
<td>{{if .Match.Pending}}<span class="tag">{{if .Match.Sims}}not finished{{else}}not played yet{{end}}</span> {{end}}{{if .Forfeit}}<span class="tag ff">forfeit: {{join .Forfeit}}</span> {{end}}{{if .Partial}}<span class="tag part">agents missing: {{join .Partial}}</span> {{end}}{{if .Replaced}}<span class="tag rep">{{if .Match.Sims}}played again{{else}}to be played again{{end}}</span>{{end}}</td>
</tr>
{{end}}</table>
</body>
</html>
`

// crossHTML is the cross table: each row a team's results against the
// team of each column, coloured and linked to the match.
const crossHTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cross table · {{.Title}}</title>
<link rel="icon" href="viewer/favicon.svg" type="image/svg+xml">
{{template "style"}}
<style>
body { max-width: none; }
.cross { width: auto; }
.cross th, .cross td { padding: 2px 4px; border: 1px solid #ddd; text-align: center; }
.cross td { padding: 0; min-width: 2.2em; }
.cross th.team { text-align: left; }
.cross td a { color: #222; text-decoration: none; display: block; padding: 2px 4px; }
.cross td.self { background: #bbb; }
.scroll { overflow: auto; max-height: 90vh; }
.cross tr:first-child th { position: sticky; top: 0; background: #f4f1ea; z-index: 1; }
</style>
</head>
<body>
<p class="small"><a href="index.html">{{.Title}}</a></p>
<h1>Cross table</h1>
<p class="legend small">Each row is a team's results against the team of each column, in the order of the standings: <b>W</b> won, <b>D</b> drawn, <b>L</b> lost (points of the match, 3 for a win, 1 for a draw in each simulation), <b>ff</b> a team forfeited (none of its agents connected), <b>·</b> not played yet. A cell links to its match; a pairing played in several rounds has a result for each.</p>
<div class="scroll"><table class="cross">
<tr><th></th><th class="team">team</th>{{range .Table.Teams}}<th title="{{.}}">{{index $.Number .}}</th>{{end}}</tr>
{{range $i, $row := .Table.Rows}}{{$team := index $.Table.Teams $i}}<tr><th>{{index $.Number $team}}</th><th class="team"><a href="{{index $.Pages $team}}">{{$team}}</a></th>{{range $j, $cell := $row}}{{if eq $i $j}}<td class="self"></td>{{else if not $cell}}<td></td>{{else}}<td>{{range $cell}}<a class="{{.Outcome}}" href="index.html#{{.Match.ID}}" title="{{.Title}}">{{.Text}}</a>{{end}}</td>{{end}}{{end}}</tr>
{{end}}</table></div>
</body>
</html>
`
