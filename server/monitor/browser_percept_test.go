package monitor_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/replays/matchtest"
	"github.com/massim-go/massim/replays/rebuild"
)

// TestBrowser_AgentViewShowsThePerceptOfTheStep opens a replay of our
// format, selects an agent and reads its agent view: the percept shown is
// the one rebuilt from the match record (what massim replay percept
// prints), with its summary and the answer; a step forward shows the next.
func TestBrowser_AgentViewShowsThePerceptOfTheStep(t *testing.T) {
	page := openBrowser(t)
	demo, err := config.Demo()
	require.NoError(t, err)
	root := t.TempDir()
	played, err := matchtest.Record(demo, 0, matchtest.Options{Steps: 60, Seed: 9, Players: 4}, root, 0)
	require.NoError(t, err)
	rec, err := rebuild.Open(played.Path)
	require.NoError(t, err)
	ts := startLibrary(t, root)

	page.Navigate(ts.URL + "/?replay=" + filepath.Base(played.Path) + "#30")
	page.Wait(`window.massim && massim.step === 30 && massim.loaded && massim.rendered.step === 30`)
	var agent screenPoint
	page.Eval(firstAgentPos, &agent)
	require.NotEmpty(t, agent.Name, "an agent in view")
	page.Click(agent.X, agent.Y)
	page.Wait(`massim.selected !== null && !document.getElementById("sec-agent").hidden`)
	for _, step := range []int{30, 31} {
		if step == 31 {
			page.Key(kb.ArrowRight)
			page.Wait(`massim.step === 31 && massim.rendered.step === 31`)
		}
		page.Wait(fmt.Sprintf(`document.querySelector('#agent .pov-percept pre') !== null && document.getElementById('agent').textContent.includes('Percept of step %d')`, step))
		page.Eval(`document.querySelector('#agent .pov-percept summary').click()`, nil)
		want, err := rec.Percept(agent.Name, step)
		require.NoError(t, err)
		shown := page.Text(`document.querySelector('#agent .pov-percept pre').innerText`)
		assert.JSONEq(t, string(want.Percept), shown, "step %d: the percept a person reads", step)
		var q struct {
			Energy int    `json:"energy"`
			Role   string `json:"role"`
			Things []any  `json:"things"`
		}
		require.NoError(t, json.Unmarshal(want.Percept, &q))
		summary := page.Text(`document.querySelector('#agent .pov-percept-summary').textContent`)
		assert.True(t, strings.HasPrefix(summary, fmt.Sprintf("energy %d · role %s · %d thing", q.Energy, q.Role, len(q.Things))), "step %d: %q", step, summary)
		answer := page.Text(`document.querySelector('#agent .pov-answer').textContent`)
		assert.Contains(t, answer, want.Action)
		assert.Contains(t, answer, "→ "+want.Result)
	}
	page.Screenshot("monitor-agent-percept.png")
	assert.Empty(t, page.Errors(), "JavaScript errors")

	resp, err := http.Get(ts.URL + "/replays/" + filepath.Base(played.Path) + "/percept/nobody/3")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
}
