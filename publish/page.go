package publish

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"
	"time"
)

// indexPage is the site's index.html: standings, every match with its
// simulations, and the replays no manifest names. Every match and
// simulation has an anchor (#match-…, #sim-…); each replay a link that
// opens it in the viewer, at its first and at its last step. The page
// holds nothing that changes when nothing was added (no time of
// publishing), so publishing again leaves it as it is.
func indexPage(site *Site) ([]byte, error) {
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, site); err != nil {
		return nil, fmt.Errorf("publish: index page: %w", err)
	}
	return b.Bytes(), nil
}

var pageTemplate = template.Must(template.New("index").Funcs(template.FuncMap{
	"watch": watchURL,
	"date":  func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
	"size":  sizeText,
	"count": func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", n, many)
	},
	"vs": func(teams []string, scores []int64) string {
		parts := make([]string, len(teams))
		for i, t := range teams {
			parts[i] = t
			if i < len(scores) {
				parts[i] += fmt.Sprintf(" %d", scores[i])
			}
		}
		return strings.Join(parts, " : ")
	},
	"points": func(teams []string, pts []int) string {
		parts := make([]string, len(teams))
		for i, t := range teams {
			parts[i] = fmt.Sprintf("%s %d", t, pts[i])
		}
		return strings.Join(parts, " : ")
	},
	"rating": func(s Standing) string {
		if s.Rating == 0 {
			return ""
		}
		return fmt.Sprintf("%.0f ± %.0f", s.Rating, s.RatingError)
	},
	"or": func(s, alt string) string {
		if s == "" {
			return alt
		}
		return s
	},
}).Parse(pageHTML))

// watchURL is the link that opens a replay in the viewer at step (-1: the
// start, no step in the link).
func watchURL(replay string, step int) template.URL {
	u := Viewer + "/?src=../" + replay // replay is slugged: nothing to escape
	if step >= 0 {
		u += fmt.Sprintf("#%d", step)
	}
	return template.URL(u)
}

func sizeText(n int64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.0f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}

const pageHTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<link rel="icon" href="viewer/favicon.svg" type="image/svg+xml">
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 14px; color: #222; background: #f4f1ea; margin: 0 auto; padding: 12px 16px; max-width: 1100px; }
h1 { font-size: 24px; margin: 8px 0; } h2 { font-size: 18px; margin: 22px 0 8px; } h3 { font-size: 15px; margin: 16px 0 6px; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #ddd; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.small { color: #777; font-size: 12px; }
.bad { color: #c0392b; white-space: normal; }
a { color: #1f5f9a; }
:target { outline: 2px solid #1f77b4; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="small">{{count (len .Matches) "match" "matches"}}, {{count .Replays "replay" "replays"}} ({{size .Bytes}}). A replay opens in the viewer in this browser; a step has its own link (…#120). Open any replay file: <a href="viewer/">viewer</a>.</p>
{{if .Standings}}
<h2 id="standings">Standings</h2>
<table class="standings">
<tr><th class="num">rank</th><th>team</th><th class="num">played</th><th class="num">won</th><th class="num">drawn</th><th class="num">lost</th><th class="num">points</th><th class="num">score</th>{{if .Rated}}<th class="num">rating</th>{{end}}</tr>
{{range .Standings}}<tr><td class="num">{{.Rank}}</td><td>{{.Team}}</td><td class="num">{{.Played}}</td><td class="num">{{.Wins}}</td><td class="num">{{.Draws}}</td><td class="num">{{.Losses}}</td><td class="num">{{.Points}}</td><td class="num">{{.Score}}</td>{{if $.Rated}}<td class="num">{{rating .}}</td>{{end}}</tr>
{{end}}</table>
{{end}}
{{if .Matches}}<h2 id="matches">Matches</h2>{{end}}
{{range .Matches}}
<section class="match" id="{{.ID}}">
<h3><a href="#{{.ID}}">Match {{.Number}}</a>{{if and .Folder (ne .Folder ".")}} <span class="small">{{.Folder}}</span>{{end}}: {{points .Teams .Points}} · {{if .Winner}}{{.Winner}} won{{else}}draw{{end}}{{if .Result}} <span class="small">· <a class="result" href="{{.Result}}">result file</a></span>{{end}}</h3>
{{template "sims" .Sims}}
</section>
{{end}}
{{if .Loose}}<h2 id="replays">{{if .Matches}}Other replays{{else}}Replays{{end}}</h2>
{{template "sims" .Loose}}{{end}}
</body>
</html>
{{define "sims"}}<table class="sims">
<tr><th>simulation</th><th>score</th><th>winner</th><th>date</th><th class="num">steps</th><th>replay</th></tr>
{{range .}}<tr class="sim" id="{{.ID}}" data-sim="{{.Name}}">
<td><a href="#{{.ID}}">{{.Name}}</a></td>
<td class="score">{{vs .Teams .Scores}}</td>
<td>{{or .Winner "draw"}}</td>
<td>{{date .Start}}</td>
<td class="num">{{if ge .Last -1}}{{if eq .Status "complete"}}{{.Steps}}{{else}}{{.Last}} of {{.Steps}}{{end}}{{else}}–{{end}}</td>
<td>{{if .Replay}}<a class="watch" href="{{watch .Replay -1}}">watch</a> · <a class="final" href="{{watch .Replay .Last}}">final step</a> · <a class="file" href="{{.Replay}}" download>file</a> <span class="small">{{size .Size}}{{if ne .Status "complete"}} · {{.Status}}{{end}}</span>{{if .Problem}}<div class="bad small">{{.Problem}}</div>{{end}}{{else}}<span class="small">no replay</span>{{end}}</td>
</tr>
{{end}}</table>{{end}}`
