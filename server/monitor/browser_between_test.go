package monitor_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/internal/browsertest"
	"github.com/massim-go/massim/server/monitor"
	"github.com/massim-go/massim/tournament"
)

// TestBrowser_WaitingForAgentsThenTheEndBannerAndTheNextSimulation opens
// the page before the tournament starts: it shows per team who is
// connected and who is missing; when the last agents connect the match
// appears; at its end a banner names the winner with the final scores, and
// the card below counts down to the next simulation.
func TestBrowser_WaitingForAgentsThenTheEndBannerAndTheNextSimulation(t *testing.T) {
	page := openBrowser(t)
	hub, ts := startHub(t, monitor.Options{})
	cfg, err := config.Demo()
	require.NoError(t, err)
	cfg.Match[0].Steps = 30
	cfg.Match = append(cfg.Match, cfg.Match[0])
	cfg.Server.WaitBetweenSimulations = 10 * time.Minute
	srv := runServer(t, cfg, 20*time.Millisecond, hub)
	a, b := cfg.Teams[0], cfg.Teams[1]
	joinAgents(t, srv, a, 1, 10)
	joinAgents(t, srv, b, 1, 3)

	page.Navigate(ts.URL + "/")
	// The roster can reach the page before the tournament has named the
	// simulation it waits for (the server is still setting up its plan), so
	// wait for both.
	page.Wait(`window.massim && massim.waiting && document.querySelector('#waiting .roster[data-team="B"] .missing')?.textContent.includes("agentB10") && document.querySelector('#waiting .next-sim')`)
	assertDisplayed(t, page, map[string]bool{"#waiting": true, "#banner": false, "#admin": false})
	card := page.Text(`document.getElementById("waiting").innerText`)
	assert.Contains(t, card, "Waiting for the agents")
	assert.Contains(t, card, "A vs B")
	assert.Contains(t, card, "10 / 10 connected")
	assert.Contains(t, card, "3 / 10 connected")
	assert.Contains(t, card, "missing: agentB4, agentB5, agentB6, agentB7, agentB8, agentB9, agentB10")
	assert.NotContains(t, card, "agentA", "team A is complete")
	page.Screenshot("monitor-waiting.png")

	joinAgents(t, srv, b, 4, 10)
	page.Wait(`massim.sim !== null && !massim.waiting && massim.loaded && massim.rendered.agents === 20`)
	assertDisplayed(t, page, map[string]bool{"#waiting": false, "#banner": false, "#map": true})

	// The end of the first simulation: the banner over the final step, the
	// next simulation's countdown under it.
	page.Wait(`massim.banner && massim.waiting && massim.step === 29`)
	assertDisplayed(t, page, map[string]bool{"#banner": true, "#waiting": true})
	banner := page.Text(`document.getElementById("banner").innerText`)
	assert.Contains(t, banner, "Simulation over")
	assert.Contains(t, banner, "30 steps")
	var scores [][2]any
	page.Eval(`massim.snapshot.scores`, &scores)
	require.Len(t, scores, 2)
	switch sa, sb := scores[0][1].(float64), scores[1][1].(float64); {
	case sa > sb:
		assert.Contains(t, banner, "A wins")
	case sb > sa:
		assert.Contains(t, banner, "B wins")
	default:
		assert.Contains(t, banner, "Draw: A and B")
	}
	card = page.Text(`document.getElementById("waiting").innerText`)
	assert.Contains(t, card, "Next simulation")
	assert.Contains(t, card, "simulation 2 of 2: A vs B")
	assert.Regexp(t, `starts in (10:00|9:[0-5]\d)`, card)
	page.Screenshot("monitor-end-banner.png")

	// The countdown runs (the server's clock, not the page's).
	first := page.Text(`document.getElementById("countdown").textContent`)
	page.Wait(`document.getElementById("countdown").textContent !== ` + browsertest.JSString(first))

	// Rewinding hides the banner; the close button hides it for good.
	page.Eval(`document.getElementById("t-back1").click()`, nil)
	page.Wait(`massim.step === 28 && !massim.banner`)
	page.Eval(`document.getElementById("t-last").click()`, nil)
	page.Wait(`massim.step === 29 && massim.banner`)
	page.Eval(`document.querySelector("#banner .close").click()`, nil)
	page.Wait(`!massim.banner`)
	assertDisplayed(t, page, map[string]bool{"#banner": false})
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

// TestBrowser_AgentsOfflineDuringASimulationShowNextToTheirTeam feeds the
// hub a running simulation and a roster in which agentB2 has left: the
// score line of team B says so until it is back.
func TestBrowser_AgentsOfflineDuringASimulationShowNextToTheirTeam(t *testing.T) {
	page := openBrowser(t)
	hub, ts := startHub(t, monitor.Options{})
	hub.SimulationStarted(testSim, testStatic, testSnapshot(-1, 0))
	hub.StepDone(testSim, testSnapshot(0, 0))
	running := func(missingB ...string) tournament.Status {
		return tournament.Status{Phase: tournament.PhaseRunning, Match: 0, Matches: 1, Simulation: 0, Simulations: 1,
			Name: testSim.Name, Step: 0, Steps: testSim.Steps, Teams: []string{"A", "B"}, Scores: []tournament.TeamResult{},
			Roster: []tournament.TeamRoster{{Team: "A", Connected: []string{"agentA1"}, Missing: []string{}},
				{Team: "B", Connected: []string{"agentB1"}, Missing: missingB}}}
	}
	hub.TournamentStatusChanged(running("agentB2"))

	page.Navigate(ts.URL + "/")
	page.Wait(`window.massim && massim.live && massim.loaded && massim.tournament && massim.tournament.phase === "running"`)
	page.Wait(`document.querySelector('#scores .score[data-team="B"] .offline')?.textContent === "1 agent offline"`)
	assertDisplayed(t, page, map[string]bool{`#scores .score[data-team="B"] .offline`: true, "#waiting": false})
	assert.False(t, page.Box(`#scores .score[data-team="A"] .offline`).Found, "team A is complete")
	assert.Equal(t, "agentB2", page.Text(`document.querySelector('#scores .score[data-team="B"] .offline').title`))

	hub.TournamentStatusChanged(running())
	page.Wait(`!document.querySelector('#scores .offline')`)
	assert.Empty(t, page.Errors(), "JavaScript errors")
}
