package monitor_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/scenario"
)

// opacities are the computed opacities of the elements of a selector.
const opacities = `(sel => [...document.querySelectorAll(sel)].map(e => parseFloat(getComputedStyle(e).opacity)))`

// TestBrowser_TasksAndNormsAreGreyedAtTheLastStep: before the last step the
// showcase's tasks and norms are drawn as usual; at its last step (3) they
// are greyed and say that the simulation ended before their deadline, or
// before the norm came into force.
func TestBrowser_TasksAndNormsAreGreyedAtTheLastStep(t *testing.T) {
	page, _ := openShowcase(t)
	var before []float64
	page.Eval(opacities+`(".task, .norm")`, &before)
	require.Len(t, before, 4, "two tasks, two norms")
	for _, o := range before {
		assert.Equal(t, 1.0, o, "step 2: not greyed")
	}

	page.Eval(`document.getElementById("t-fwd1").click()`, nil)
	page.Wait(`massim.step === 3 && massim.loaded && massim.rendered.step === 3`)
	var after []float64
	page.Eval(opacities+`(".task, .norm")`, &after)
	require.Len(t, after, 4)
	for _, o := range after {
		assert.Less(t, o, 0.6, "the last step: greyed")
	}
	tasks := page.Text(`document.getElementById("tasks").innerText`)
	assert.Contains(t, tasks, "not completed: the simulation ended at step 3, before the deadline (step 100)")
	assert.NotContains(t, tasks, "steps left")
	norms := page.Text(`document.getElementById("norms").innerText`)
	assert.Contains(t, norms, "never in force: the simulation ended at step 3, before step 10")
	assert.Contains(t, norms, "the simulation ended at step 3, before step 50")
	page.Screenshot("monitor-last-step.png")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

// TestBrowser_TeamStatisticsShowEveryTeamAt1280: with team names of a
// class (longer than A and B), every team's column of the statistics is
// inside the side panel at the default 1280 px: nothing to scroll to.
func TestBrowser_TeamStatisticsShowEveryTeamAt1280(t *testing.T) {
	names := map[string]string{"A": "Block Builders", "B": "Mighty Miners"}
	page := openBrowser(t)
	root := t.TempDir()
	static := showcaseStatic
	static.Teams = []string{names["A"], names["B"]}
	wr := replays.NewWriter(root, replays.WriterOptions{NoSync: true})
	renamed := func(step int) *scenario.Snapshot {
		s := showcaseSnapshot(step)
		for i := range s.Entities {
			s.Entities[i].Team = names[s.Entities[i].Team]
		}
		for i := range s.Scores {
			s.Scores[i].Team = names[s.Scores[i].Team]
		}
		for i := range s.Events {
			s.Events[i].Team = names[s.Events[i].Team]
		}
		return s
	}
	wr.Start(showcaseFolder, static, renamed(-1))
	for step := range static.Steps {
		wr.Step(renamed(step))
	}
	wr.End()
	require.NoError(t, wr.Close())
	ts := startLibrary(t, root)
	page.Navigate(ts.URL + "/?replay=" + showcaseFolder + "#2")
	page.Wait(`window.massim && massim.step === 2 && massim.loaded && massim.statsUpTo === 2`)
	assertDisplayed(t, page, map[string]bool{"#stats table": true})

	var fit struct {
		Side  struct{ Left, Right, ScrollWidth, ClientWidth float64 }
		Cells []struct {
			Text        string
			Left, Right float64
		}
	}
	page.Eval(`(() => {
	  const side = document.getElementById("side"), r = side.getBoundingClientRect();
	  const cells = [...document.querySelectorAll("#stats tr:first-child th, #stats tr:nth-child(2) td")].map(c => {
	    const b = c.getBoundingClientRect();
	    return {text: c.innerText.trim(), left: b.left, right: b.right};
	  });
	  return {side: {left: r.left, right: r.left + side.clientWidth, scrollWidth: side.scrollWidth, clientWidth: side.clientWidth}, cells};
	})()`, &fit)
	assert.LessOrEqual(t, fit.Side.ScrollWidth, fit.Side.ClientWidth, "the side panel does not scroll sideways")
	var heads []string
	for _, c := range fit.Cells {
		heads = append(heads, c.Text)
		assert.GreaterOrEqual(t, c.Left, fit.Side.Left, "%q starts inside the panel", c.Text)
		assert.LessOrEqual(t, c.Right, fit.Side.Right+0.5, "%q ends inside the panel", c.Text)
	}
	joined := strings.Join(heads, "|")
	for _, name := range names {
		assert.Contains(t, joined, name, "the column of %s is headed by its whole name", name)
	}
	page.Screenshot("monitor-stats-long-names.png")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}
