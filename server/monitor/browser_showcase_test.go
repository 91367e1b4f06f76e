package monitor_test

import (
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/browsertest"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/scenario"
)

// The showcase is a small hand-made replay (20×12, steps -1 … 3) holding
// every kind of cell at a known place, for the tests of what the page says
// about them:
//
//	obstacles (2,2) (3,2)            goal zone (6,3) r1      role zone (12,3) r1
//	dispensers b0 (2,6), b1 (3,6)    clear event (16,3) r1, pending throughout
//	block b1 (8,8), free             agentA1 (9,8) with block b0 (10,8) attached
//	agentA2 (5,10), agentB2 (13,10)  agentB1 (15,8), struck by a clear event at
//	                                 (16,8) r1 after step 1: deactivated from step 2
//	(0,11) is empty.
//
// Tasks task0 (b0 then b1 south of the agent, 40 points, until step 100)
// and task1 (b1, 10 points, until step 50); team A completes task1 in step
// 2 (score 10). Norms: n1 (carry at most 1 block, in force 0–50, 10
// energy), n2 (a team at most 3 workers, announced, in force 10–60, 2
// energy); agentA1 violates n1 in step 2.
const showcaseFolder = "2000-01-01-12-00-00-946728000000_A_B"

var showcaseStatic = scenario.Static{Sim: "946728000000_A_B", Width: 20, Height: 12, Teams: []string{"A", "B"},
	BlockTypes: []string{"b0", "b1"}, MaxEnergy: 100, Steps: 4}

// agentA1Actions are agentA1's actions in steps 0 … 3 with their results.
var agentA1Actions = [][3]string{{"move", "e", "success"}, {"attach", "e", "success"},
	{"submit", "task1", "success"}, {"rotate", "cw", "failed_blocked"}}

func showcaseSnapshot(step int) *scenario.Snapshot {
	pos := func(x, y int) protocol.Pos { return protocol.Pos{x, y} }
	agent := func(id int, name, team string, p protocol.Pos) scenario.EntitySnapshot {
		return scenario.EntitySnapshot{ID: id, Name: name, Team: team, Pos: p, Role: "default", Energy: 100, Vision: 3,
			Action: "skip", ActionParams: []string{}, ActionResult: "success"}
	}
	a1 := agent(1, "agentA1", "A", pos(9, 8))
	a1.Attached = []protocol.Pos{pos(10, 8)}
	if step >= 0 {
		act := agentA1Actions[step]
		a1.Action, a1.ActionParams, a1.ActionResult = act[0], []string{act[1]}, act[2]
	}
	b1 := agent(3, "agentB1", "B", pos(15, 8))
	if step >= 2 {
		b1.Deactivated, b1.Energy = true, 0
	}
	s := &scenario.Snapshot{Step: step,
		Entities: []scenario.EntitySnapshot{a1, agent(2, "agentA2", "A", pos(5, 10)), b1, agent(4, "agentB2", "B", pos(13, 10))},
		Blocks: []scenario.BlockSnapshot{{ID: 10, Pos: pos(8, 8), Type: "b1"},
			{ID: 11, Pos: pos(10, 8), Type: "b0", Attached: []protocol.Pos{pos(9, 8)}}},
		Obstacles:  []scenario.ObstacleSnapshot{{ID: 20, Pos: pos(2, 2)}, {ID: 21, Pos: pos(3, 2)}},
		Dispensers: []scenario.DispenserSnapshot{{ID: 30, Pos: pos(2, 6), Type: "b0"}, {ID: 31, Pos: pos(3, 6), Type: "b1"}},
		GoalZones:  []scenario.ZoneSnapshot{{Pos: pos(6, 3), R: 1}},
		RoleZones:  []scenario.ZoneSnapshot{{Pos: pos(12, 3), R: 1}},
		Clear:      []scenario.ZoneSnapshot{{Pos: pos(16, 3), R: 1}},
		Tasks: []scenario.TaskSnapshot{
			{Name: "task0", Deadline: 100, Reward: 40, Requirements: []scenario.TaskRequirementSnapshot{
				{Pos: pos(0, 1), Type: "b0"}, {Pos: pos(0, 2), Type: "b1"}}},
			{Name: "task1", Deadline: 50, Reward: 10, Requirements: []scenario.TaskRequirementSnapshot{{Pos: pos(0, 1), Type: "b1"}}}},
		Norms: []scenario.NormSnapshot{
			{Name: "n1", Start: 0, Until: 50, Level: "individual", Punishment: 10,
				Requirements: []scenario.NormRequirementSnapshot{{Type: "BLOCK", Name: "any", Quantity: 1}}},
			{Name: "n2", Start: 10, Until: 60, Level: "team", Punishment: 2,
				Requirements: []scenario.NormRequirementSnapshot{{Type: "ROLE", Name: "worker", Quantity: 3}}}},
		Violations: []scenario.ViolationSnapshot{},
		Scores:     []scenario.TeamScore{{Team: "A"}, {Team: "B"}},
		Events:     []scenario.LogEvent{},
	}
	if step < 2 {
		s.Clear = append(s.Clear, scenario.ZoneSnapshot{Pos: pos(16, 8), R: 1})
	}
	if step == 2 {
		s.Events = []scenario.LogEvent{{Type: "task completed", Task: "task1", Team: "A"}}
		s.Violations = []scenario.ViolationSnapshot{{Norm: "n1", Who: "agentA1"}}
	}
	if step >= 2 {
		s.Scores[0].Score = 10
	}
	return s
}

// writeShowcase writes the showcase replay under root.
func writeShowcase(t *testing.T, root string) {
	t.Helper()
	wr := replays.NewWriter(root, replays.WriterOptions{NoSync: true})
	wr.Start(showcaseFolder, showcaseStatic, showcaseSnapshot(-1))
	for step := range showcaseStatic.Steps {
		wr.Step(showcaseSnapshot(step))
	}
	wr.End()
	require.NoError(t, wr.Close())
}

// openShowcase serves the showcase replay and opens it at step 2.
func openShowcase(t *testing.T) (*browsertest.Page, *httptest.Server) {
	t.Helper()
	page := openBrowser(t)
	root := t.TempDir()
	writeShowcase(t, root)
	ts := startLibrary(t, root)
	page.Navigate(ts.URL + "/?replay=" + showcaseFolder + "#2")
	page.Wait(`window.massim && massim.step === 2 && massim.loaded && massim.rendered.step === 2`)
	return page, ts
}

// cellCentre is the page position of the centre of cell (x, y) in the map
// copy drawn at the origin.
func cellCentre(x, y int) string { return cellPoint(x, y, 0.5, 0.5) }

// cellPoint is the page position of the point (fx, fy) (fractions of a
// cell) of cell (x, y) in the map copy drawn at the origin.
func cellPoint(x, y int, fx, fy float64) string {
	return `(() => { const t = massim.transform, r = document.getElementById('map').getBoundingClientRect();
	  return {x: r.left + t.x + (` + strconv.Itoa(x) + ` + ` + fmtF(fx) + `) * t.scale, y: r.top + t.y + (` +
		strconv.Itoa(y) + ` + ` + fmtF(fy) + `) * t.scale}; })()`
}
