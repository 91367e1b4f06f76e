package monitor_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestBrowser_TasksNormsAndAnAgentsPointOfView opens the showcase replay:
// tasks and norms read as plain sentences with shapes, rewards, deadlines
// and punishments; the team statistics count up to the shown step;
// selecting an agent dims what it cannot see and lists what it sees and its
// last actions with their results.
func TestBrowser_TasksNormsAndAnAgentsPointOfView(t *testing.T) {
	page, _ := openShowcase(t)

	tasks := page.Text(`document.getElementById("tasks").innerText`)
	for _, want := range []string{"task0 · 40 points", "2 blocks (b0, b1) in this shape, delivered in a goal zone",
		"until step 100 (98 steps left)", "task1 · 10 points", "1 block (b1) in this shape", "until step 50 (48 steps left)"} {
		assert.Contains(t, tasks, want)
	}
	assertDisplayed(t, page, map[string]bool{"#tasks .task canvas": true})
	norms := page.Text(`document.getElementById("norms").innerText`)
	for _, want := range []string{
		"Each agent may carry at most 1 block (everything attached to it counts); an agent carrying more loses 10 energy per step.",
		"in force until step 50 (48 more steps)", "1 agent punished this step",
		"A team may have at most 3 worker agents; if it has more, each of them loses 2 energy per step.",
		"announced: in force from step 10 (in 8 steps) to step 60",
	} {
		assert.Contains(t, norms, want)
	}

	// Team statistics count from the start up to the shown step.
	statsText := `[...document.querySelectorAll("#stats tr")].map(r => r.innerText.replace(/\s+/g, " ").trim()).join("\n")`
	page.Wait(`massim.statsUpTo === 2`)
	assertDisplayed(t, page, map[string]bool{"#stats table": true})
	assert.Equal(t, "A B\ntasks completed 1 0\n· of 1 block 1 0\nblocks delivered 1 0\nagents hit by clear events 0 1\nnorm violations 1 0",
		page.Text(statsText))
	page.Eval(`document.getElementById("t-back1").click()`, nil)
	page.Wait(`massim.step === 1 && massim.statsUpTo === 1`)
	assert.Equal(t, "A B\ntasks completed 0 0\nblocks delivered 0 0\nagents hit by clear events 0 0\nnorm violations 0 0",
		page.Text(statsText))
	page.Eval(`document.getElementById("t-fwd1").click()`, nil)

	// Point of view: agentA1 at step 3.
	page.Eval(`document.getElementById("t-fwd1").click()`, nil)
	page.Wait(`massim.step === 3 && massim.loaded && massim.rendered.step === 3`)
	var far, near, p struct{ X, Y float64 }
	page.Eval(cellCentre(1, 1), &far)
	page.Eval(cellCentre(9, 10), &near)
	var farBefore, farAfter, nearBefore, nearAfter []int
	page.Eval(pixelAt+`("#map", `+fmtF(far.X)+`, `+fmtF(far.Y)+`)`, &farBefore)
	page.Eval(pixelAt+`("#map", `+fmtF(near.X)+`, `+fmtF(near.Y)+`)`, &nearBefore)
	page.Eval(cellPoint(9, 8, 0.25, 0.25), &p)
	page.Click(p.X, p.Y)
	page.Wait(`massim.selected === "agentA1" && massim.rendered.pov === "agentA1"`)
	page.Eval(pixelAt+`("#map", `+fmtF(far.X)+`, `+fmtF(far.Y)+`)`, &farAfter)
	page.Eval(pixelAt+`("#map", `+fmtF(near.X)+`, `+fmtF(near.Y)+`)`, &nearAfter)
	assert.Less(t, farAfter[0]+farAfter[1]+farAfter[2], farBefore[0]+farBefore[1]+farBefore[2]-100, "outside the vision: dimmed")
	assert.InDeltaSlice(t, nearBefore, nearAfter, 4, "inside the vision: as before")

	assertDisplayed(t, page, map[string]bool{"#sec-agent": true, ".pov-actions": true})
	page.Wait(`document.querySelectorAll(".pov-actions tr").length === 4 && !document.querySelector(".pov-actions").innerText.includes("…")`)
	agent := page.Text(`document.getElementById("agent").innerText`)
	assert.Equal(t, "2 blocks", page.Text(`document.querySelector(".pov-sees").textContent`), "what it sees (%s)", agent)
	rows := page.Text(`[...document.querySelectorAll(".pov-actions tr")].map(r => r.innerText.replace(/\s+/g, " ").trim()).join("\n")`)
	assert.Equal(t, "3 rotate(cw) failed_blocked\n2 submit(task1) success\n1 attach(e) success\n0 move(e) success", rows)
	assert.Equal(t, "failed", page.Text(`document.querySelector(".pov-actions tr").className`), "the failed action stands out")
	page.Screenshot("monitor-point-of-view.png")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}
