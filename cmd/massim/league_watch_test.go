//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/browsertest"
	"github.com/massim-go/massim/league"
)

// boardView reads the league page's JSON as a viewer at host would.
func boardView(t *testing.T, url, host string) league.BoardView {
	t.Helper()
	v, err := tryBoardView(url, host)
	require.NoError(t, err)
	return v
}

// tryBoardView is boardView for a condition polled before the page is up.
func tryBoardView(url, host string) (league.BoardView, error) {
	var v league.BoardView
	req, err := http.NewRequest(http.MethodGet, url+"league.json", nil)
	if err != nil {
		return v, err
	}
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return v, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return v, fmt.Errorf("%s: %s", url, resp.Status)
	}
	return v, json.NewDecoder(resp.Body).Decode(&v)
}

// TestLeague_WatchingAShowcaseMatchFromTheLeaguePage: with -showcase the
// chosen match is paced, the league page links to its monitor on the host
// the viewer used, the match listens for agents on loopback only, its
// monitor ends with "match over, the league goes on" and a link back to the
// league page (on the viewer's host), and -linger keeps the page up after
// the last match until Ctrl-C.
func TestLeague_WatchingAShowcaseMatchFromTheLeaguePage(t *testing.T) {
	const steps, pace = 40, 250 * time.Millisecond
	root := t.TempDir()
	conf := leagueConfig(t, root, []string{"A", "B", "C"}, steps, 0)
	dir := filepath.Join(root, "league")
	port, err := freePort()
	require.NoError(t, err)
	// The browser starts before the league: the showcase's monitor lives
	// only as long as its match, which must not end while Chromium is
	// still starting on a busy machine.
	browser := browsertest.Open(t)
	r := startLeague(t, "-conf", conf, "-dir", dir, "-monitor", fmt.Sprintf("127.0.0.1:%d", port),
		"-showcase", "1", "-pace", pace.String(), "-linger")
	page := fmt.Sprintf("http://localhost:%d/", port)

	// The page's link to the running showcase names the viewer's host.
	var monitorLink string
	require.Eventually(t, func() bool {
		v, err := tryBoardView(page, "")
		if err != nil || len(v.Matches) < 2 {
			return false
		}
		monitorLink = v.Matches[1].Monitor
		return v.Matches[1].State == "running" && monitorLink != ""
	}, 60*time.Second, 20*time.Millisecond)
	assert.True(t, strings.HasPrefix(monitorLink, "http://localhost:"), monitorLink)
	other := boardView(t, page, fmt.Sprintf("league.example:%d", port)).Matches[1].Monitor
	assert.True(t, strings.HasPrefix(other, "http://league.example:"), "a viewer elsewhere gets links on the name it used: %s", other)

	// What a person sees: the match's monitor, then its end with a link
	// back to the league's page on the host the viewer used.
	browser.Navigate(monitorLink)
	browser.Wait(`document.getElementById('league-link') && !document.getElementById('waiting').hidden`)
	heading := browser.Text(`document.querySelector('#waiting h2').textContent`)
	assert.Contains(t, heading, "the league goes on")
	assert.Equal(t, page, browser.Text(`document.getElementById('league-link').href`))
	// Following the link (a poll across a navigation loses its page: the
	// link is opened as a click would).
	browser.Navigate(browser.Text(`document.getElementById('league-link').href`))
	browser.Wait(`document.querySelector('h1')?.textContent === 'League'`)

	// -linger: the league is over, its page stays up until Ctrl-C.
	awaitLog(t, r.log, "league over; its page stays up at", 1)
	for _, m := range boardView(t, page, "").Matches {
		assert.Equal(t, "finished", m.State, m.Name)
	}
	require.NoError(t, r.cmd.Process.Signal(os.Interrupt))
	assert.Equal(t, 0, r.wait(t), "a finished league, then Ctrl-C")
	assertLeagueComplete(t, dir) // the teams' agents connected to the loopback ports

	// The showcase was paced (no faster than steps × pace); every match
	// listened for agents on loopback only.
	plan, err := league.ReadPlan(dir)
	require.NoError(t, err)
	for _, m := range plan.Matches {
		lines := readJSONLines(t, filepath.Join(dir, league.LogsFolder, m.Name()+".log"))
		var starts, ends []time.Time
		for _, l := range lines {
			switch l["message"] {
			case "listening for agents":
				assert.True(t, strings.HasPrefix(l["addr"].(string), "127.0.0.1:"), "%s: agent port on loopback: %v", m.Name(), l["addr"])
			case "simulation starts":
				starts = append(starts, logTime(t, l))
			case "simulation ended":
				ends = append(ends, logTime(t, l))
			}
		}
		require.Len(t, starts, 2, m.Name())
		require.Len(t, ends, 2, m.Name())
		if m.Index == 1 {
			for i := range starts {
				assert.GreaterOrEqual(t, ends[i].Sub(starts[i]), (steps-1)*pace, "the showcase is paced")
			}
		}
	}
}

// readJSONLines reads a file of JSON log lines (other lines are skipped).
func readJSONLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []map[string]any
	for _, line := range strings.Split(string(data), "\n") {
		var l map[string]any
		if json.Unmarshal([]byte(line), &l) == nil {
			out = append(out, l)
		}
	}
	return out
}

func logTime(t *testing.T, l map[string]any) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, l["time"].(string))
	require.NoError(t, err, "%v", l)
	return at
}
