package publish

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/browsertest"
)

// The class site (a league published) in headless Chromium, served by Go's
// static file server: what a person sees on the index, the filter, a
// team's page and the cross table, and where its links lead.

// visibleText is the text of the elements matching sel that are displayed
// (the filter hides matches), whitespace collapsed; a table row's cells
// apart by a space.
func visibleText(page *browsertest.Page, sel string) []string {
	var out []string
	page.Eval(`[...document.querySelectorAll(`+browsertest.JSString(sel)+`)].filter(e => e.checkVisibility())
	  .map(e => (e.cells ? [...e.cells].map(c => c.textContent).join(' ') : e.textContent).replace(/\s+/g, ' ').trim())`, &out)
	return out
}

func classSite(t *testing.T) (*browsertest.Page, string) {
	t.Helper()
	dir, out := t.TempDir(), filepath.Join(t.TempDir(), "site")
	classLeague(t, dir, classTeams, 2, classMatches())
	_, err := Publish(dir, out, Options{Title: "Course 2026"})
	require.NoError(t, err)
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	t.Cleanup(srv.Close)
	return browsertest.Open(t), srv.URL
}

// TestClassSite_IndexFilterAndMarks: matches headed by their league index
// and line-up with their round, simulations by number and map, forfeits,
// missing agents and a replayed match said in words; choosing a team in
// the filter leaves only its matches, and the address keeps the choice.
func TestClassSite_IndexFilterAndMarks(t *testing.T) {
	page, base := classSite(t)
	page.Navigate(base + "/index.html")
	heads := visibleText(page, "section.match h3")
	require.Len(t, heads, 12)
	assert.Equal(t, "Match 0 · Builders vs Mine round 1: Builders 3 : 0 Mine · Builders won forfeit · result file", heads[0])
	assert.Equal(t, "Match 3 · Mine vs Alpha round 1: Mine 1 : 1 Alpha · draw agents missing · result file", heads[3])
	assert.Equal(t, "Match 6 · Mine vs Builders round 2: Mine 0 : 3 Builders · Builders won played again · result file", heads[6])
	assert.Equal(t, "Match 11 · Beta vs Alpha round 2: not played yet", heads[11])
	assert.Equal(t, []string{`Simulation 1 · demo 40×40: Mine forfeited (program "mine-agents" not found)`},
		visibleText(page, "#match-0 .note"))
	assert.Equal(t, []string{"Simulation 1 · demo 40×40: Mine played with 2 of 5 agents (3 agents did not log in)"},
		visibleText(page, "#match-3 .note"))
	assert.Equal(t, []string{"Played again (-replay-team Builders): an earlier play (Mine 1 : 1 Builders), set aside 2026-12-06 10:00 UTC, does not count."},
		visibleText(page, "#match-6 .note"))
	assert.Equal(t, []string{"Simulation 1 · demo 40×40: Mine 0 : Builders 50 · Builders won · 2026-12-06 09:06 UTC · no replay"},
		visibleText(page, "#match-6 .sim"))
	legend := visibleText(page, ".legend")
	require.Len(t, legend, 1)
	assert.Contains(t, legend[0], "Points: 3 for a win, 1 for a draw")
	assert.Contains(t, legend[0], "± is one standard error")

	page.Wait(`document.getElementById('team-filter').checkVisibility()`)
	page.Eval(`(() => { const s = document.getElementById('team-filter'); s.value = [...s.options].find(o => o.textContent === 'Alpha').value; s.dispatchEvent(new Event('change')); })()`, nil)
	heads = visibleText(page, "section.match h3")
	assert.Len(t, heads, 6, "Alpha's six matches")
	for _, h := range heads {
		assert.Contains(t, h, "Alpha")
	}
	assert.Equal(t, []string{"6 of 12 matches"}, visibleText(page, "#shown"))
	assert.Equal(t, "?team=Alpha", page.Text(`location.search`))
	page.Navigate(page.Text(`location.href`))
	assert.Len(t, visibleText(page, "section.match h3"), 6, "the filter chosen in the address")
	page.Eval(`(() => { const s = document.getElementById('team-filter'); s.value = ''; s.dispatchEvent(new Event('change')); })()`, nil)
	assert.Len(t, visibleText(page, "section.match h3"), 12)
	assert.Empty(t, page.Errors())
}

// click clicks the link whose text is text inside the element matching
// sel (the first such link) and waits until the page's address ends with
// want (Go's file server redirects …/index.html to …/).
func click(t *testing.T, page *browsertest.Page, sel, text, want string) {
	t.Helper()
	var at struct{ X, Y float64 }
	page.Eval(`(() => { const a = [...document.querySelectorAll(`+browsertest.JSString(sel+" a")+`)]
	    .find(a => a.textContent.trim() === `+browsertest.JSString(text)+`);
	  a.scrollIntoView({block: 'center'}); const r = a.getBoundingClientRect();
	  return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`, &at)
	page.Click(at.X, at.Y)
	page.Wait(`location.href.endsWith(` + browsertest.JSString(want) + `)`)
	page.Wait(`document.readyState === 'complete'`)
}

// TestClassSite_TeamPageAndCrossTable: a team's name in the standings
// leads to its page (its line of the table, rating, every match from its
// side, its forfeit and missing agents); a cell of the cross table leads to
// its match on the index.
func TestClassSite_TeamPageAndCrossTable(t *testing.T) {
	page, base := classSite(t)
	page.Navigate(base + "/index.html")
	assert.Equal(t, []string{"rank team played won drawn lost points score forfeits rating", "1 Builders 6 6 0 0 18 160 0 1600 ± 150",
		"2 Beta 5 2 0 3 6 11 0 1480 ± 150", "3 Mine 6 1 2 3 5 18 1 1560 ± 150", "4 Alpha 5 0 2 3 2 18 0 1520 ± 150"},
		visibleText(page, "table.standings tr"), "Mine's forfeit counts as a loss and is counted")
	click(t, page, "table.standings", "Mine", "/teams/Mine.html")
	assert.Equal(t, []string{"Mine"}, visibleText(page, "h1"))
	summary := visibleText(page, ".summary")
	require.Len(t, summary, 1)
	assert.Equal(t, "Rank 3 · played 6: won 1, drawn 2, lost 3 · 5 points · score 18 · forfeited 1 simulation · rating over the league 1560 ± 150", summary[0])
	rows := visibleText(page, "table.meetings tr")
	require.Len(t, rows, 7)
	assert.Equal(t, "match round against result points score", rows[0])
	assert.Equal(t, "Match 0 · Builders vs Mine 1 Builders loss 0 : 3 0 : 40 forfeit: Mine", rows[1])
	assert.Equal(t, "Match 3 · Mine vs Alpha 1 Alpha draw 1 : 1 5 : 5 agents missing: Mine", rows[2])
	assert.Equal(t, "Match 6 · Mine vs Builders 2 Builders loss 0 : 3 0 : 50 played again", rows[4])
	notes := visibleText(page, ".note")
	require.Len(t, notes, 3)
	assert.Contains(t, notes[0], `Mine forfeited (program "mine-agents" not found)`)
	assert.Contains(t, notes[2], "Played again (-replay-team Builders)")
	click(t, page, "table.meetings", "Match 3 · Mine vs Alpha", "/#match-3") // Go's file server answers index.html with its folder
	assert.Equal(t, "Match 3 · Mine vs Alpha round 1: Mine 1 : 1 Alpha · draw agents missing · result file",
		page.Text(`document.querySelector(':target h3').textContent.replace(/\s+/g, ' ').trim()`))

	page.Navigate(base + "/index.html")
	click(t, page, "p.nav", "Cross table", "/crosstable.html")
	rows = visibleText(page, "table.cross tr")
	require.Len(t, rows, 5)
	assert.Equal(t, "team 1 2 3 4", rows[0])
	assert.Equal(t, "1 Builders WW W ffW WW", rows[1], "Builders won everything, once by forfeit")
	assert.Equal(t, "2 Beta LL LW W·", rows[2], "Beta vs Alpha of round 2 is not played yet")
	assert.Equal(t, "3 Mine L ffL WL DD", rows[3])
	assert.Equal(t, "4 Alpha LL L· DD", rows[4])
	// Row Mine, column 1 (Builders): the second round's result leads to match 6.
	var at struct{ X, Y float64 }
	page.Eval(`(() => { const row = [...document.querySelectorAll('table.cross tr')].find(r => r.querySelector('th.team')?.textContent === 'Mine');
	  const a = row.children[2].querySelectorAll('a')[1]; const r = a.getBoundingClientRect();
	  return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`, &at)
	page.Click(at.X, at.Y)
	page.Wait(`location.hash === '#match-6' && document.readyState === 'complete'`)
	assert.Equal(t, "Match 6 · Mine vs Builders round 2: Mine 0 : 3 Builders · Builders won played again · result file",
		page.Text(`document.querySelector(':target h3').textContent.replace(/\s+/g, ' ').trim()`))
	assert.Empty(t, page.Errors())
}

// TestClassSite_ReadableWithoutScripts: without JavaScript the index
// shows every match and no filter that would do nothing; the team pages
// are plain links.
func TestClassSite_ReadableWithoutScripts(t *testing.T) {
	page, base := classSite(t)
	page.DisableScripts(true)
	page.Navigate(base + "/index.html")
	assert.Len(t, visibleText(page, "section.match h3"), 12)
	assert.Empty(t, visibleText(page, "#filter"), "no filter without its script")
	click(t, page, "table.standings", "Alpha", "/teams/Alpha.html")
	assert.Len(t, visibleText(page, "table.meetings tr"), 7, "Alpha's six matches and the header")
}
