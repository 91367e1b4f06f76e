//go:build unix

package ladder_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/browsertest"
	"github.com/massim-go/massim/internal/massimbin"
	"github.com/massim-go/massim/ladder"
	"github.com/massim-go/massim/ladder/season"
	"github.com/massim-go/massim/tournament"
)

// TestLadder_SeasonPageInChromium: what a person sees on the season page:
// the queued scrimmage, the running match whose link opens its live view,
// the standings with ratings; and a team's page.
func TestLadder_SeasonPageInChromium(t *testing.T) {
	dir := t.TempDir()
	// 400 steps of 40 ms: the match still runs when a busy machine's browser opens its live view.
	conf := seasonConfig{steps: 400, teams: map[string]string{"A": "a", "B": "b", "C": "c"},
		ladder: map[string]any{"houseTeam": "off"}}.write(t, dir)
	s := startSeason(t, conf, filepath.Join(dir, "season"), "-paused", "-pace", "40ms")
	code, body := s.ask(t, "C", "c", "B", true)
	require.Equal(t, 201, code, body)
	page := browsertest.Open(t)
	page.Navigate(s.page)
	page.Wait(`document.getElementById('state').textContent === 'paused'`)
	assert.Equal(t, "1 C B ranked", strings.Join(strings.Fields(page.Text(`document.querySelector('#queue tr:nth-child(2)').innerText`))[:4], " "),
		"the queued request, first in line")

	for _, team := range []string{"A", "B", "C"} {
		startAgents(t, s.port, team, strings.ToLower(team), 3)
	}
	s.await(t, "three teams ready", func(v ladder.View) bool {
		return teamState(v, "A") == "ready" && teamState(v, "B") == "ready" && teamState(v, "C") == "ready"
	})
	code, _ = s.admin(t, "continue")
	require.Equal(t, 200, code)
	// The page follows by itself (it fetches itself every few seconds).
	page.Wait(`document.querySelector('#running a.live') !== null`)
	assert.Contains(t, page.Text(`document.querySelector('#running').innerText`), "C vs B")
	live := page.Text(`document.querySelector('#running a.live').href`)
	page.Navigate(live)
	page.Wait(`window.massim && window.massim.mode === 'live' && window.massim.sim !== null && window.massim.step > 0`)
	assert.Contains(t, page.Text(`document.getElementById('sim-name').textContent`), "C vs B", "the live view of that match")

	s.await(t, "the rated match ended", func(v ladder.View) bool { return finishedCount(v, nil) >= 1 })
	page.Navigate(s.page)
	page.Wait(`document.querySelectorAll('#standings tr').length === 4`)
	rows := page.Text(`[...document.querySelectorAll('#standings tr')].map(r => r.innerText.replace(/\s+/g, ' ')).join('\n')`)
	assert.Regexp(t, `(?m)^1 [BC] 1 .* 1\d\d\d ± \d+ \?`, rows, "ratings with their error, provisional")
	assert.Contains(t, rows, "A 0 0 0 0 0 0 –", "A has no rated match yet")
	assert.Contains(t, page.Text(`document.querySelector('#recent').innerText`), "C vs B")

	page.Navigate(s.page + "teams/C")
	page.Wait(`document.querySelector('#ratings') !== null`)
	assert.Contains(t, page.Text(`document.querySelector('#matches').innerText`), "C vs B")
	assert.Contains(t, page.Text(`document.querySelector('#qualification').innerText`), "not qualified yet")
	assert.Empty(t, page.Errors())
}

// TestLadder_PublishASeasonFolder: massim publish writes a season folder
// as a static site (every match with its replays, the season's rated
// table), and publishing again changes nothing.
func TestLadder_PublishASeasonFolder(t *testing.T) {
	dir := t.TempDir()
	conf := seasonConfig{steps: 20, teams: map[string]string{"A": "a", "B": "b"},
		ladder: map[string]any{"houseTeam": "off", "rematchAfter": 0}}.write(t, dir)
	folder := filepath.Join(dir, "season")
	s := startSeason(t, conf, folder, "-paused")
	code, body := s.ask(t, "A", "a", "B", false)
	require.Equal(t, 201, code, body)
	startAgents(t, s.port, "A", "a", 3)
	startAgents(t, s.port, "B", "b", 3)
	s.await(t, "two teams ready", func(v ladder.View) bool { return teamState(v, "A") == "ready" && teamState(v, "B") == "ready" })
	code, _ = s.admin(t, "continue")
	require.Equal(t, 200, code)
	s.await(t, "an unranked and two ranked matches", func(v ladder.View) bool { return finishedCount(v, nil) >= 3 })
	code, _ = s.admin(t, "drain")
	require.Equal(t, 200, code)
	require.Zero(t, s.wait(t, 2*time.Minute))

	site := filepath.Join(dir, "site")
	out, err := exec.Command(massimbin.Path(t), "publish", folder, site).CombinedOutput()
	require.NoError(t, err, "%s", out)
	index, err := os.ReadFile(filepath.Join(site, "index.html"))
	require.NoError(t, err)
	html := string(index)
	for _, m := range []string{"matches/0001", "matches/0002", "matches/0003"} {
		assert.Contains(t, html, m, "every match is on the site")
	}
	assert.Contains(t, html, "rating")
	// The table is the season's: the rated matches only, not the scrimmage.
	h, err := season.Load(folder)
	require.NoError(t, err)
	rated := 0
	for _, m := range h.Matches {
		if m.Rated() {
			rated++
		}
	}
	require.Less(t, rated, len(h.Matches))
	assert.Equal(t, rated, seasonTable(t, folder)["A"])
	assert.Regexp(t, fmt.Sprintf(`<td>A</td><td class="num">%d</td>`, rated), html)
	out2, err := exec.Command(massimbin.Path(t), "publish", folder, site).CombinedOutput()
	require.NoError(t, err, "%s", out2)
	assert.Contains(t, string(out2), "0 files written", "incremental: nothing changed")
}

// seasonTable is the played column of a season folder's standings file.
func seasonTable(t *testing.T, folder string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(folder, season.StandingsFile))
	require.NoError(t, err)
	var file tournament.StandingsFile
	require.NoError(t, json.Unmarshal(data, &file))
	out := map[string]int{}
	for _, r := range file.Standings {
		out[r.Team] = r.Played
	}
	return out
}
