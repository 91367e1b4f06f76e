package publish

import (
	"bytes"
	"fmt"
	"html/template"
	"slices"
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
	"points": pointsText,
	"page": func(site *Site, team string) string {
		if site.League == nil {
			return ""
		}
		return site.League.Pages[team]
	},
	"cross": func() string { return CrossTablePage },
	"plural": func(n int, one, many string) string {
		if n == 1 {
			return one
		}
		return many
	},
	"join": func(s []string) string { return strings.Join(s, ", ") },
	"teamNumbers": func(lg *League, teams []string) string {
		nums := make([]string, len(teams))
		for i, t := range teams {
			nums[i] = fmt.Sprint(slices.Index(lg.Teams, t))
		}
		return strings.Join(nums, " ")
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
}).Parse(pageHTML + simsHTML + styleHTML))

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

// pageHTML is the index. In a league every match section carries its
// teams (data-teams) for the filter's script; without the script the
// filter stays hidden and the team pages list each team's matches.
// content-visibility lets the browser lay out only the matches on screen:
// a class league has 1,225.
const pageHTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<link rel="icon" href="viewer/favicon.svg" type="image/svg+xml">
{{template "style"}}
<style>section.match { content-visibility: auto; contain-intrinsic-size: auto 80px; }
p.sim { margin: 0; padding: 3px 8px; background: #fff; border-bottom: 1px solid #ddd; }</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="small">{{count (len .Matches) "match" "matches"}}, {{count .Replays "replay" "replays"}} ({{size .Bytes}}). A replay opens in the viewer in this browser; a step has its own link (…#120). Open any replay file: <a href="viewer/">viewer</a>.</p>
{{if .League}}<p class="nav"><a href="crosstable.html">Cross table</a> (every team against every other) · a page per team: click its name in the standings.</p>{{end}}
{{if .Standings}}
<h2 id="standings">Standings</h2>
{{if .League}}{{template "legend" .}}{{end}}
<table class="standings">
<tr><th class="num">rank</th><th>team</th><th class="num">played</th><th class="num">won</th><th class="num">drawn</th><th class="num">lost</th><th class="num">points</th><th class="num">score</th>{{if .Forfeits}}<th class="num">forfeits</th>{{end}}{{if .Rated}}<th class="num">rating</th>{{end}}</tr>
{{range .Standings}}{{$team := .Team}}<tr><td class="num">{{.Rank}}</td><td>{{with page $ .Team}}<a href="{{.}}">{{$team}}</a>{{else}}{{.Team}}{{end}}</td><td class="num">{{.Played}}</td><td class="num">{{.Wins}}</td><td class="num">{{.Draws}}</td><td class="num">{{.Losses}}</td><td class="num">{{.Points}}</td><td class="num">{{.Score}}</td>{{if $.Forfeits}}<td class="num">{{.Forfeits}}</td>{{end}}{{if $.Rated}}<td class="num">{{rating .}}</td>{{end}}</tr>
{{end}}</table>
{{end}}
{{if .Matches}}<h2 id="matches">Matches</h2>{{end}}
{{if .League}}<p id="filter" hidden><label>Show the matches of <select id="team-filter"><option value="">every team</option>{{range $i, $t := .League.Teams}}<option value="{{$i}}">{{$t}}</option>{{end}}</select></label> <span id="shown" class="small"></span></p>{{end}}
{{range .Matches}}
<section class="match" id="{{.ID}}"{{if $.League}} data-t="{{teamNumbers $.League .Teams}}"{{end}}>
<h3><a href="#{{.ID}}">{{.Label}}</a>{{if and (not $.League) .Folder (ne .Folder ".")}} <span class="small">{{.Folder}}</span>{{end}}{{if gt .Round 0}}{{if gt $.League.Rounds 1}} <span class="small">round {{.Round}}</span>{{end}}{{end}}: {{if .Sims}}{{points .Teams .Points}} · {{if .Winner}}{{.Winner}} won{{else}}draw{{end}}{{end}}{{if .Pending}} <span class="tag">{{if .Sims}}not finished{{else}}not played yet{{end}}</span>{{end}}{{if .Forfeited}} <span class="tag ff">forfeit</span>{{end}}{{if .Partial}} <span class="tag part">agents missing</span>{{end}}{{if .Replaced}} <span class="tag rep">{{if .Sims}}played again{{else}}to be played again{{end}}</span>{{end}}{{if .Result}} <span class="small">· <a class="result" href="{{.Result}}">result file</a></span>{{end}}</h3>
{{template "notes" .}}
{{if .Sims}}{{if $.League}}{{template "leaguesims" .Sims}}{{else}}{{template "sims" .Sims}}{{end}}{{end}}
</section>
{{end}}
{{if .Loose}}<h2 id="replays">{{if .Matches}}Other replays{{else}}Replays{{end}}</h2>
{{template "sims" .Loose}}{{end}}
{{if .League}}<script>
(function () {
  var select = document.getElementById('team-filter'), shown = document.getElementById('shown');
  var matches = [].slice.call(document.querySelectorAll('section.match')), filtered = false;
  var teams = matches.map(function (m) { return m.dataset.t.split(' '); });
  function apply() {
    var team = select.value, n = 0;
    if (!team && !filtered) return;
    filtered = !!team;
    matches.forEach(function (m, i) {
      var show = !team || teams[i].indexOf(team) >= 0;
      m.hidden = !show;
      if (show) n++;
    });
    shown.textContent = team ? n + ' of ' + matches.length + ' matches' : '';
  }
  var want = new URLSearchParams(location.search).get('team');
  [].forEach.call(select.options, function (o) { if (o.value && o.textContent === want) select.value = o.value; });
  select.addEventListener('change', function () {
    var u = new URL(location.href);
    if (select.value) u.searchParams.set('team', select.selectedOptions[0].textContent); else u.searchParams.delete('team');
    history.replaceState(null, '', u);
    apply();
  });
  document.getElementById('filter').hidden = false;
  apply();
})();
</script>{{end}}
</body>
</html>
`

// simsHTML is a match's simulations, its notes (forfeits, absences,
// earlier plays set aside) and the legend of the points and the rating.
const simsHTML = `{{define "sims"}}<table class="sims">
<tr><th>simulation</th><th>score</th><th>winner</th><th>date</th><th class="num">steps</th><th>replay</th></tr>
{{range .}}<tr class="sim" id="{{.ID}}" data-sim="{{.Name}}">
<td><a href="#{{.ID}}">{{.Label}}</a></td>
<td class="score">{{vs .Teams .Scores}}</td>
<td>{{or .Winner "draw"}}</td>
<td>{{date .Start}}</td>
<td class="num">{{if ge .Last -1}}{{if eq .Status "complete"}}{{.Steps}}{{else}}{{.Last}} of {{.Steps}}{{end}}{{else}}–{{end}}</td>
<td>{{if .Replay}}<a class="watch" href="{{watch .Replay -1}}">watch</a> · <a class="final" href="{{watch .Replay .Last}}">final step</a> · <a class="file" href="{{.Replay}}" download>file</a> <span class="small">{{size .Size}}{{if ne .Status "complete"}} · {{.Status}}{{end}}</span>{{if .Problem}}<div class="bad small">{{.Problem}}</div>{{end}}{{else}}<span class="small">no replay</span>{{end}}</td>
</tr>
{{end}}</table>{{end}}
{{define "leaguesims"}}{{range .}}<p class="sim" id="{{.ID}}"><a href="#{{.ID}}">{{.Label}}</a>: <span class="score">{{vs .Teams .Scores}}</span> · {{if .Winner}}{{.Winner}} won{{else}}draw{{end}} · {{date .Start}}{{if ge .Last -1}} · {{if eq .Status "complete"}}{{.Steps}} steps{{else}}{{.Last}} of {{.Steps}} steps{{end}}{{end}} · {{if .Replay}}<a class="watch" href="{{watch .Replay -1}}">watch</a> · <a class="final" href="{{watch .Replay .Last}}">final step</a> · <a class="file" href="{{.Replay}}" download>file</a> <span class="small">{{size .Size}}{{if ne .Status "complete"}} · {{.Status}}{{end}}</span>{{if .Problem}} <span class="bad small">{{.Problem}}</span>{{end}}{{else}}<span class="small">no replay</span>{{end}}</p>
{{end}}{{end}}
{{define "notes"}}{{range .Notes}}<p class="bad note">{{.}}</p>
{{end}}{{range .Replaced}}<p class="note replaced">{{if $.Sims}}Played again{{else}}To be played again{{end}}{{if .Why}} ({{.Why}}){{end}}: an earlier play{{if .Result}} ({{.Result}}){{end}}, set aside {{date .At}}, does not count.</p>
{{end}}{{end}}
{{define "legend"}}<p class="legend small"><b>Points</b>: 3 for a win, 1 for a draw, in each simulation against each other team (they rank the table); <b>score</b>: what a team scored in the game, summed.{{if .Rated}} <b>Rating</b> (as 1612 ± 180): strength from every result, weighing each by the opponent's strength; ± is one standard error (the true rating lies within ±2 of them 95 % of the time).{{end}}</p>{{end}}
`

// styleHTML is the style every page of the site shares.
const styleHTML = `{{define "style"}}<style>
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 14px; color: #222; background: #f4f1ea; margin: 0 auto; padding: 12px 16px; max-width: 1100px; }
h1 { font-size: 24px; margin: 8px 0; } h2 { font-size: 18px; margin: 22px 0 8px; } h3 { font-size: 15px; margin: 16px 0 6px; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #ddd; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.small { color: #777; font-size: 12px; }
.bad { color: #c0392b; white-space: normal; }
.note { margin: 2px 0; }
.tag { font-size: 12px; font-weight: normal; padding: 0 5px; border-radius: 3px; background: #ddd; }
.tag.ff { background: #c0392b; color: #fff; } .tag.part { background: #e67e22; color: #fff; } .tag.rep { background: #7f8c8d; color: #fff; }
.win { background: #cdebc5; } .draw { background: #f3e7b1; } .loss { background: #f1c3bd; } .none { background: #fff; }
a { color: #1f5f9a; }
:target { outline: 2px solid #1f77b4; }
</style>{{end}}`
