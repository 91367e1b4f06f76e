package builder

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
	"github.com/massim-go/massim/protocol"
)

// The tests here feed hand-written percepts to agents, as the server would
// send them, and look at the actions they answer.

var workerRoles = []protocol.RoleInfo{
	{Name: "default", Vision: 5, Actions: []string{"skip", "move", "rotate", "adopt", "detach", "clear"}, Speed: []int{1},
		Clear: protocol.ClearInfo{Chance: 0.7, MaxDistance: 1}},
	{Name: "worker", Vision: 5, Actions: []string{"skip", "move", "rotate", "adopt", "detach", "clear", "request", "attach", "connect", "disconnect", "submit"},
		Speed: []int{2, 1, 1, 0}, Clear: protocol.ClearInfo{Chance: 0.7, MaxDistance: 1}},
}

// started returns agent number index of a builder team, after sim-start.
func started(t *testing.T, tm *Team, index int) *brain {
	t.Helper()
	name := "agentA" + string(rune('0'+index))
	b := tm.Behaviour(index, name).(*brain)
	b.SimStart(protocol.InitialPercept{Name: name, Team: "A", TeamSize: 3, Steps: 100, Roles: workerRoles})
	return b
}

func newTeam(t *testing.T) *Team {
	t.Helper()
	tm, err := New(Config{Seed: 1})
	require.NoError(t, err)
	return tm
}

// percept is a worker's percept in step with the given things; the agent
// itself is added at (0,0).
func percept(step int, things ...protocol.Thing) protocol.StepPercept {
	return protocol.StepPercept{
		Energy: 100, Role: "worker", LastActionParams: []string{},
		Things:   append([]protocol.Thing{{X: 0, Y: 0, Type: "entity", Details: "A"}}, things...),
		Attached: []protocol.Pos{}, GoalZones: []protocol.Pos{}, RoleZones: []protocol.Pos{},
		Events: []protocol.Event{}, Tasks: []protocol.Task{}, Norms: []protocol.Norm{}, Violations: []string{},
	}
}

func act(b *brain, step int, p protocol.StepPercept) game.Action {
	name, params := b.Act(&protocol.RequestAction{ID: int64(step), Step: step, Percept: p})
	return game.Action{Name: name, Params: params}
}

// markers puts a marker of the kind on every cell within r of centre.
func markers(centre game.Pos, r int, kind string) []protocol.Thing {
	var out []protocol.Thing
	for dx := -r; dx <= r; dx++ {
		for dy := -(r - abs(dx)); dy <= r-abs(dx); dy++ {
			out = append(out, protocol.Thing{X: centre.X + dx, Y: centre.Y + dy, Type: "marker", Details: kind})
		}
	}
	return out
}

func TestAnAgentStepsOutOfCellsMarkedForAClearEvent(t *testing.T) {
	for _, kind := range []string{game.MarkerClear, game.MarkerClearImminent} {
		t.Run(kind, func(t *testing.T) {
			b := started(t, newTeam(t), 1)
			// The event is centred east of the agent: safety lies west.
			p := percept(0, markers(game.Pos{X: 2}, 2, kind)...)
			got := act(b, 0, p)
			require.Equal(t, game.ActMove, got.Name, "got %v", got)
			assert.NotEqual(t, "e", got.Params[0])
			pos := game.Pos{}
			for _, d := range got.Params {
				dir, _ := game.ParseDir(d)
				pos = pos.Add(dir.Offset())
			}
			assert.Greater(t, pos.Dist(game.Pos{X: 2}), 2, "two cells at worker speed take it out: %v", got)
		})
	}
}

func TestThePerimeterOfAClearEventIsNoDanger(t *testing.T) {
	b := started(t, newTeam(t), 1)
	p := percept(0, markers(game.Pos{X: 2}, 2, game.MarkerClearPerimeter)...)
	act(b, 0, p)
	assert.False(t, b.inDanger())
}

func TestAgentsDropWhatAnActiveCarryNormForbids(t *testing.T) {
	b := started(t, newTeam(t), 1)
	block := protocol.Thing{X: 0, Y: 1, Type: "block", Details: "b0"}
	p := percept(0, block)
	p.Attached = []protocol.Pos{{0, 1}}
	b.attached = []game.Pos{{X: 0, Y: 1}} // as if it had attached the block itself
	p.Norms = []protocol.Norm{{Name: "n1", Start: 1, Until: 20, Level: "individual", Punishment: 5,
		Requirements: []protocol.NormRequirement{{Type: "block", Name: "any", Quantity: 0}}}}
	got := act(b, 0, p)
	assert.Equal(t, game.Detach(game.S), got, "the norm starts next step: drop now")

	// Without the norm the block is kept.
	b2 := started(t, newTeam(t), 2)
	p.Norms = nil
	b2.attached = []game.Pos{{X: 0, Y: 1}}
	assert.NotEqual(t, game.ActDetach, act(b2, 0, p).Name)
}

func TestAttachmentsFollowTheAgentsActionsAndThePercepts(t *testing.T) {
	b := started(t, newTeam(t), 1)
	b.sent = game.Attach(game.E)
	p := percept(1, protocol.Thing{X: 1, Y: 0, Type: "block", Details: "b1"})
	p.LastAction, p.LastActionParams, p.LastActionResult = "attach", []string{"e"}, "success"
	p.Attached = []protocol.Pos{{1, 0}}
	b.p = game.FromRequest(&protocol.RequestAction{Step: 1, Percept: p})
	b.trackAttachments()
	assert.Equal(t, []game.Pos{{X: 1}}, b.attached, "a successful attach adds the block")

	b.sent = game.Rotate(game.CW)
	p = percept(2, protocol.Thing{X: 0, Y: 1, Type: "block", Details: "b1"})
	p.LastAction, p.LastActionParams, p.LastActionResult = "rotate", []string{"cw"}, "success"
	p.Attached = []protocol.Pos{{0, 1}}
	b.p = game.FromRequest(&protocol.RequestAction{Step: 2, Percept: p})
	b.trackAttachments()
	assert.Equal(t, []game.Pos{{Y: 1}}, b.attached, "a rotation turns it")
	typ, held := b.blockAt(game.Pos{Y: 1})
	assert.True(t, held)
	assert.Equal(t, "b1", typ)

	b.sent = game.Skip()
	p = percept(3) // a clear event destroyed the block
	b.p = game.FromRequest(&protocol.RequestAction{Step: 3, Percept: p})
	b.trackAttachments()
	assert.Empty(t, b.attached, "what the percept does not show is gone")

	b.attached = []game.Pos{{Y: 1}}
	p = percept(4, protocol.Thing{X: 0, Y: 1, Type: "block", Details: "b1"})
	p.Deactivated = true
	b.p = game.FromRequest(&protocol.RequestAction{Step: 4, Percept: p})
	b.trackAttachments()
	assert.Empty(t, b.attached, "deactivation drops the agent's links")
}

func TestTeammatesWhoSeeEachOtherShareWhatTheyFound(t *testing.T) {
	tm := newTeam(t)
	one, two, three := started(t, tm, 1), started(t, tm, 2), started(t, tm, 3)
	// Step 0: one sees two 3 cells east; two sees one 3 cells west and a
	// dispenser 4 cells south of itself, out of one's sight. three sees
	// nobody.
	mate := func(x, y int) protocol.Thing { return protocol.Thing{X: x, Y: y, Type: "entity", Details: "A"} }
	act(one, 0, percept(0, mate(3, 0)))
	act(two, 0, percept(0, mate(-3, 0), protocol.Thing{X: 0, Y: 4, Type: "dispenser", Details: "b0"}))
	act(three, 0, percept(0))
	// Step 1: links are made from step 0's sightings.
	act(one, 1, percept(1))
	act(two, 1, percept(1))
	act(three, 1, percept(1))

	assert.Equal(t, []string{"agentA2"}, tm.squad.linked("agentA1"))
	assert.Empty(t, tm.squad.linked("agentA3"))
	// One map for the group: two's dispenser, seen after the link, lies 3
	// east and 4 south of one.
	act(two, 2, percept(2, protocol.Thing{X: 0, Y: 4, Type: "dispenser", Details: "b0"}))
	var ds []memory.Landmark
	var onePos game.Pos
	tm.squad.view(one, func(m *member, w *memory.Map) { ds, onePos = w.Dispensers("b0"), m.gpos() })
	require.Len(t, ds, 1)
	assert.Equal(t, onePos.Add(game.Pos{X: 3, Y: 4}), ds[0].Pos, "two's dispenser, in the group's frame")
}

func TestSightingsThatCouldBeOfSeveralTeammatesLinkNobody(t *testing.T) {
	tm := newTeam(t)
	one, two, three := started(t, tm, 1), started(t, tm, 2), started(t, tm, 3)
	mate := func(x, y int) protocol.Thing { return protocol.Thing{X: x, Y: y, Type: "entity", Details: "A"} }
	// Three in a row, one cell apart: one sees (1,0); two sees (-1,0) and
	// (1,0); three sees (-1,0). Who saw whom at (1,0) is ambiguous.
	act(one, 0, percept(0, mate(1, 0)))
	act(two, 0, percept(0, mate(-1, 0), mate(1, 0)))
	act(three, 0, percept(0, mate(-1, 0)))
	act(one, 1, percept(1))
	act(two, 1, percept(1))
	act(three, 1, percept(1))
	assert.Empty(t, tm.squad.linked("agentA1"))
}

func TestPairsSeenAtTheSameOffsetLinkByWhatTheyBothSee(t *testing.T) {
	mate := func(x, y int) protocol.Thing { return protocol.Thing{X: x, Y: y, Type: "entity", Details: "A"} }
	rock := func(x, y int) protocol.Thing { return protocol.Thing{X: x, Y: y, Type: "obstacle"} }
	// Two pairs far apart (as agents start, in small clusters), each
	// agent with its partner one cell east or west: every sighting's
	// offset was seen twice.
	play := func(rocks bool) *Team {
		tm := newTeam(t)
		a := []*brain{started(t, tm, 1), started(t, tm, 2), started(t, tm, 3), started(t, tm, 4)}
		west := []protocol.Thing{mate(1, 0)}
		east := []protocol.Thing{mate(-1, 0)}
		if rocks {
			// Rock round the first pair north, round the second south:
			// three cells each pair's views share.
			west = append(west, rock(0, -2), rock(1, -2), rock(1, -3))
			east = append(east, rock(-1, -2), rock(0, -2), rock(0, -3))
		}
		act(a[0], 0, percept(0, west...))
		act(a[1], 0, percept(0, east...))
		west, east = []protocol.Thing{mate(1, 0)}, []protocol.Thing{mate(-1, 0)}
		if rocks {
			west = append(west, rock(0, 2), rock(1, 2), rock(0, 3))
			east = append(east, rock(-1, 2), rock(0, 2), rock(-1, 3))
		}
		act(a[2], 0, percept(0, west...))
		act(a[3], 0, percept(0, east...))
		for _, b := range a {
			act(b, 1, percept(1))
		}
		return tm
	}
	tm := play(false)
	assert.Empty(t, tm.squad.linked("agentA1"), "nothing tells the pairs apart")
	assert.Empty(t, tm.squad.linked("agentA3"))

	tm = play(true)
	assert.Equal(t, []string{"agentA2"}, tm.squad.linked("agentA1"), "the rock tells who stood next to whom")
	assert.Equal(t, []string{"agentA4"}, tm.squad.linked("agentA3"))
}

func TestViewsAgreeOnlyWhereBothSaw(t *testing.T) {
	a := map[game.Pos]uint8{{X: 0, Y: -2}: seenObstacle, {X: 1}: seenTeammate, {X: -5}: seenBlock}
	b := map[game.Pos]uint8{{X: -1, Y: -2}: seenObstacle, {X: -1}: seenTeammate, {X: 5}: seenDispenser}
	n, ok := agree(a, b, game.Pos{X: 1}, 5)
	assert.True(t, ok, "(-5,0) and (6,0) lie outside the other's view")
	assert.Equal(t, 1, n, "the rock; the agents' own cells do not count")
	b[game.Pos{X: -1, Y: 2}] = seenObstacle
	_, ok = agree(a, b, game.Pos{X: 1}, 5)
	assert.False(t, ok, "b saw rock where a saw none")
}

func TestANewSimulationStartsWithAFreshMemory(t *testing.T) {
	b := started(t, newTeam(t), 1)
	p := percept(0, protocol.Thing{X: 2, Y: 0, Type: "dispenser", Details: "b0"})
	act(b, 0, p)
	b.sent = game.Move(game.E)
	p = percept(1, protocol.Thing{X: 1, Y: 0, Type: "dispenser", Details: "b0"})
	p.LastAction, p.LastActionParams, p.LastActionResult = "move", []string{"e"}, "success"
	act(b, 1, p)
	require.Equal(t, game.Pos{X: 1}, b.mem.Pos())
	require.NotEmpty(t, b.mem.Dispensers(""))

	b.SimStart(protocol.InitialPercept{Name: "agentA1", Team: "A", TeamSize: 3, Steps: 100, Roles: workerRoles})
	assert.Equal(t, game.Pos{}, b.mem.Pos())
	assert.Empty(t, b.mem.Dispensers(""))
	assert.Empty(t, b.attached)
	assert.False(t, b.known("dispenser"), "the group map is new too")
}

func TestTheSquadLearnsTheTorusSizeFromFrameOffsetsThatJumpByAPeriod(t *testing.T) {
	var tr torus
	assert.False(t, tr.observe(game.Pos{X: 1, Y: 0}), "a tracking error, not a period")
	assert.False(t, tr.observe(game.Pos{X: 40, Y: 0}), "one observation is not enough")
	assert.True(t, tr.observe(game.Pos{X: -40, Y: 3}))
	assert.Equal(t, [2]int{40, 0}, tr.size)
	assert.False(t, tr.observe(game.Pos{X: 40}), "nothing new")
}

func TestTraceWritesTheRunningPathOfTheTracedAgentOnly(t *testing.T) {
	var out strings.Builder
	tm, err := New(Config{Seed: 1, Trace: []string{"agentA2"}, TraceOut: &out})
	require.NoError(t, err)
	one, two := started(t, tm, 1), started(t, tm, 2)
	for step := range 2 {
		act(one, step, percept(step))
		act(two, step, percept(step))
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 2, out.String())
	assert.True(t, strings.HasPrefix(lines[0], "agentA2 step 0: "), lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "agentA2 step 1: "), lines[1])
	assert.Contains(t, lines[0], " <- worker: selector > ", "the path starts at the behaviour's root")
}

func TestMovesThatKeepFailingRevealLinksTheAgentDidNotMake(t *testing.T) {
	// The agent holds a block south; two more blocks hang on it (a dropped
	// structure got linked to it): a worker with three things cannot move.
	ring := func(step int) protocol.StepPercept {
		p := percept(step, protocol.Thing{X: 0, Y: 1, Type: "block", Details: "b0"},
			protocol.Thing{X: 1, Y: 1, Type: "block", Details: "b1"}, protocol.Thing{X: 1, Y: 0, Type: "block", Details: "b0"})
		p.Attached = []protocol.Pos{{0, 1}, {1, 1}, {1, 0}}
		p.LastAction, p.LastActionParams, p.LastActionResult = "move", []string{"n"}, "failed_path"
		return p
	}
	b := started(t, newTeam(t), 1)
	b.attached = []game.Pos{{Y: 1}}
	for step := range hiddenLinkFailures - 1 {
		b.sent = game.Move(game.N)
		b.p = game.FromRequest(&protocol.RequestAction{Step: step, Percept: ring(step)})
		b.trackAttachments()
		b.noteLastMove()
		b.noticeHiddenLinks()
		assert.Equal(t, []game.Pos{{Y: 1}}, b.attached, "a few failed moves prove nothing")
		if b.walk.failures >= stuckThreshold {
			b.walk.failures = 0 // goTo tries a random step (it fails too)
		}
	}
	b.sent = game.Move(game.N)
	step := hiddenLinkFailures - 1
	b.p = game.FromRequest(&protocol.RequestAction{Step: step, Percept: ring(step)})
	b.trackAttachments()
	b.noteLastMove()
	b.noticeHiddenLinks()
	assert.ElementsMatch(t, []game.Pos{{Y: 1}, {X: 1, Y: 1}, {X: 1}}, b.attached)
	assert.Equal(t, 3, b.structureSize())

	// The block east hangs on the others, not on the agent: detaching it
	// fails, so the agent detaches the one south, its own link to the
	// whole ring, and then holds nothing.
	b.sent = game.Detach(game.E)
	p := ring(step + 1)
	p.LastAction, p.LastActionParams, p.LastActionResult = "detach", []string{"e"}, "failed"
	b.p = game.FromRequest(&protocol.RequestAction{Step: step + 1, Percept: p})
	b.trackAttachments()
	b.noteLastMove()
	b.noticeHiddenLinks()
	assert.Equal(t, []game.Pos{{X: 1}}, b.unlinked)
	held := b.directlyHeld(b.heldBlocks())
	require.Len(t, held, 1)
	assert.Equal(t, game.Pos{Y: 1}, held[0].Pos, "the drop detaches the block south next")
	b.applyOwnAction(game.Detach(game.S))
	assert.Empty(t, b.attached, "nothing is linked to the agent any more")
}

func TestACarryNormRevealsLinksTheAgentDidNotMake(t *testing.T) {
	// A stock agent standing still with its block east, which hangs in a
	// ring with two more blocks: a Carry norm of 1 is announced.
	p := percept(5, protocol.Thing{X: 1, Y: 0, Type: "block", Details: "b0"},
		protocol.Thing{X: 1, Y: -1, Type: "block", Details: "b1"}, protocol.Thing{X: 0, Y: -1, Type: "block", Details: "b2"})
	p.Attached = []protocol.Pos{{1, 0}, {1, -1}, {0, -1}}
	p.LastAction, p.LastActionParams, p.LastActionResult = "skip", []string{}, "success"
	carry := func(limit int) []protocol.Norm { return carryNorm(14, 30, limit) }
	for _, tt := range []struct {
		name  string
		norms []protocol.Norm
		want  int
	}{
		{"no norm: it keeps what it knows", nil, 1},
		{"a limit the ring keeps to: no need to look", carry(3), 1},
		{"a limit the ring breaks: it is counted", carry(1), 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p.Norms = tt.norms
			assert.Len(t, countedHolding(t, p, game.Pos{X: 1}), tt.want)
		})
	}
}

func TestAnAgentInDangerDropsWhatACarryNormForbidsBeforeItEscapes(t *testing.T) {
	// A submitter holds its anchor south and a block connected to it
	// south-east; a clear event is marked round it and a Carry norm of 1
	// starts in two steps (sim2 seed 3 vs builder, agentA8: it escaped
	// with both and broke the norm for three steps).
	carry := func(limit int) []protocol.Norm { return carryNorm(2, 12, limit) }
	for _, tt := range []struct {
		name  string
		norms []protocol.Norm
		drop  bool
	}{
		{"no norm: it escapes with its blocks", nil, false},
		{"a limit it keeps to: it escapes", carry(2), false},
		{"a limit it breaks: it drops first", carry(1), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := started(t, newTeam(t), 1)
			p := percept(0, append(markers(game.Pos{X: 1}, 2, game.MarkerClear),
				protocol.Thing{X: 0, Y: 1, Type: "block", Details: "b0"}, protocol.Thing{X: 1, Y: 1, Type: "block", Details: "b1"})...)
			p.Attached = []protocol.Pos{{0, 1}, {1, 1}}
			p.Norms = tt.norms
			b.attached = []game.Pos{{Y: 1}, {X: 1, Y: 1}}
			got := act(b, 0, p)
			if tt.drop {
				assert.Equal(t, game.Detach(game.S), got, "the anchor goes, and the block on it with it")
			} else {
				assert.Equal(t, game.ActMove, got.Name, "got %v", got)
			}
		})
	}
}

// carryNorm is a percept's Carry norm n1 from start to until with the limit.
func carryNorm(start, until, limit int) []protocol.Norm {
	return []protocol.Norm{{Name: "n1", Start: start, Until: until, Level: "individual", Punishment: 5,
		Requirements: []protocol.NormRequirement{{Type: "block", Name: "any", Quantity: limit}}}}
}

func TestAWalkToARoleZoneBackAndForthBetweenTwoCellsIsBroken(t *testing.T) {
	// sim2 seed 1 vs builder: two constructors on their way to a role zone,
	// one behind the other in a corridor, stepped east and west together for
	// 24 steps (each one's route went round the other).
	walk := func(b *brain, step int, dir, skill string) {
		p := percept(step)
		p.LastAction, p.LastActionParams, p.LastActionResult = "move", []string{dir}, "success"
		b.actedBy = skill // the skill that chose the move (Act sets it anew)
		act(b, step, p)
	}
	b := started(t, newTeam(t), 1)
	b.actedBy = "adopt" // it was on its way already
	act(b, 0, percept(0))
	for i, dir := range []string{"e", "w", "e"} {
		walk(b, i+1, dir, "adopt")
	}
	assert.Zero(t, b.walk.cycles, "A, B, A, B: not yet")
	walk(b, 4, "w", "adopt")
	assert.Equal(t, 1, b.walk.cycles, "A, B, A, B, A: broken (the next goTo takes a random step)")
	assert.Empty(t, b.walk.recent, "the evidence is used up")

	for _, tt := range []struct {
		name  string
		dirs  []string
		skill string
	}{
		{"a walk that comes back the way it went is no cycle", []string{"e", "e", "w", "w", "e", "e"}, "adopt"},
		{"other skills are left alone", []string{"e", "w", "e", "w", "e", "w"}, "fetch"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := started(t, newTeam(t), 2)
			b.actedBy = tt.skill
			act(b, 0, percept(0))
			for i, dir := range tt.dirs {
				walk(b, i+1, dir, tt.skill)
			}
			assert.Zero(t, b.walk.cycles)
		})
	}
}

func TestAgentsDropCarryAheadStepsBeforeACarryNormStarts(t *testing.T) {
	for _, tt := range []struct {
		start int
		drop  bool
	}{{carryAhead, true}, {carryAhead + 1, false}} {
		b := started(t, newTeam(t), 1)
		p := percept(0, protocol.Thing{X: 0, Y: 1, Type: "block", Details: "b0"})
		p.Attached = []protocol.Pos{{0, 1}}
		p.Norms = carryNorm(tt.start, 20, 0)
		b.attached = []game.Pos{{Y: 1}}
		got := act(b, 0, p)
		assert.Equal(t, tt.drop, got.Equal(game.Detach(game.S)), "norm from step %d: got %v", tt.start, got)
	}
}

func TestACarryNormCountsLinkedThingsNextToATeammate(t *testing.T) {
	// sim3 seed 10 vs random: a stock agent held its block north and,
	// linked to it, a block north-west next to a teammate; a Carry norm of 1
	// came and the agent, counting one, kept both for the whole norm.
	p := percept(5, protocol.Thing{X: 0, Y: -1, Type: "block", Details: "b1"},
		protocol.Thing{X: -1, Y: -1, Type: "block", Details: "b0"}, protocol.Thing{X: -1, Y: 0, Type: "entity", Details: "A"})
	p.Attached = []protocol.Pos{{0, -1}, {-1, -1}}
	p.LastAction, p.LastActionParams, p.LastActionResult = "skip", []string{}, "success"
	for _, tt := range []struct {
		name  string
		norms []protocol.Norm
		want  int
	}{
		{"no norm: the block next to the teammate is the teammate's", nil, 1},
		{"a Carry norm of 1: it counts, and goes", carryNorm(14, 30, 1), 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p.Norms = tt.norms
			assert.Len(t, countedHolding(t, p, game.Pos{Y: -1}), tt.want)
		})
	}
}

// countedHolding is what a standing agent that knows it holds the thing at
// held counts as its structure after the percept p of step 5.
func countedHolding(t *testing.T, p protocol.StepPercept, held game.Pos) []game.Pos {
	b := started(t, newTeam(t), 1)
	b.attached = []game.Pos{held}
	b.sent = game.Skip()
	b.p = game.FromRequest(&protocol.RequestAction{Step: 5, Percept: p})
	b.trackAttachments()
	b.noticeHiddenLinks()
	return b.attached
}

func TestAWalkToARoleZoneGoesOnAfterAStepThatFailed(t *testing.T) {
	// A default agent heading for a role zone 4 cells east: a teammate
	// steps into its way and its move fails. It plans round on the next
	// step instead of spending the step on the exploration skill (which
	// sent default agents away from the zone they knew).
	for _, tt := range []struct {
		last   game.Action
		result string
	}{
		{game.Move(game.E), "failed_path"},
		{game.Move(game.E), "failed_random"},
	} {
		t.Run(tt.last.Name+"/"+tt.result, func(t *testing.T) {
			b := started(t, newTeam(t), 1)
			p := percept(0)
			p.Role, p.RoleZones = "default", []protocol.Pos{{4, 0}}
			require.Equal(t, game.Move(game.E), act(b, 0, p))
			require.Equal(t, "adopt", b.actedBy)
			p = percept(1, protocol.Thing{X: 1, Y: 0, Type: "entity", Details: "A"})
			p.Role, p.RoleZones = "default", []protocol.Pos{{4, 0}}
			p.LastAction, p.LastActionParams, p.LastActionResult = tt.last.Name, tt.last.Params, tt.result
			act(b, 1, p)
			assert.Equal(t, "adopt", b.actedBy)
		})
	}
	t.Run("an adopt that failed ends the skill", func(t *testing.T) {
		b := started(t, newTeam(t), 1)
		p := percept(0)
		p.Role, p.RoleZones = "default", []protocol.Pos{{0, 0}}
		require.Equal(t, game.Adopt("worker"), act(b, 0, p))
		p = percept(1)
		p.Role, p.RoleZones = "default", []protocol.Pos{{0, 0}}
		p.LastAction, p.LastActionParams, p.LastActionResult = game.ActAdopt, []string{"worker"}, "failed_location"
		act(b, 1, p)
		assert.Equal(t, "explore", b.actedBy)
	})
}

func TestAWalkToARoleZoneKeepsOutOfTheCellABrokenCycleWentInto(t *testing.T) {
	// sim3 seed 13: two constructors stepped north and south together for
	// 24 steps on their way to a role zone; a random step now and then did
	// not end it. After a cycle A, B, A, B, A the walk keeps out of B.
	zone := func(step int) protocol.StepPercept {
		p := percept(step)
		p.Role, p.RoleZones = "default", []protocol.Pos{{4, 0}}
		return p
	}
	for _, cycle := range []bool{false, true} {
		b := started(t, newTeam(t), 1)
		require.Equal(t, game.Move(game.E), act(b, 0, zone(0)), "the way east is free")
		require.Equal(t, "adopt", b.actedBy)
		if cycle {
			// It stands at A = (0,0), having been at A, B, A, B (B east).
			b.walk.recent = []game.Pos{{}, {X: 1}, {}, {X: 1}}
			b.noteWalkCycle()
			require.Equal(t, 1, b.walk.cycles)
			assert.Equal(t, avoidSteps, b.walk.avoidUntil)
			b.walk.failures = 0 // no random step: the route is what is tested
		}
		got := act(b, 1, zone(1))
		if !cycle {
			assert.Equal(t, game.Move(game.E), got)
			continue
		}
		assert.Contains(t, []game.Action{game.Move(game.N), game.Move(game.S)}, got, "round B, not into it again")
	}
}

// withConstructors are workerRoles and the constructor role.
var withConstructors = append(slices.Clone(workerRoles), protocol.RoleInfo{Name: "constructor", Vision: 5,
	Actions: workerRoles[1].Actions, Speed: []int{1}, Clear: protocol.ClearInfo{Chance: 0.7, MaxDistance: 1}})

// noWorkersFrom is the norm "at most 0 workers" from step start.
func noWorkersFrom(start int) protocol.Norm {
	return protocol.Norm{Name: "n1", Start: start, Until: start + 20, Level: "individual", Punishment: 1,
		Requirements: []protocol.NormRequirement{{Type: "role", Name: roleWorker, Quantity: 0}}}
}

// startedAlone is agent 1 of a builder team of one, after sim-start.
func startedAlone(t *testing.T, roles []protocol.RoleInfo) *brain {
	t.Helper()
	b := newTeam(t).Behaviour(1, "agentA1").(*brain)
	b.SimStart(protocol.InitialPercept{Name: "agentA1", Team: "A", TeamSize: 1, Steps: 100, Roles: roles})
	return b
}

func TestAWalkToARoleZoneFollowsTheRoleTheTeamWantsNow(t *testing.T) {
	// sim3 seed 27: agents walking to a role zone to become workers kept
	// walking after "at most 0 workers" was announced and took the worker
	// role when they arrived: the role was bound when the walk began.
	for _, announced := range []bool{false, true} {
		b := startedAlone(t, withConstructors)
		p := percept(0)
		p.Role, p.RoleZones = "default", []protocol.Pos{{1, 0}}
		require.Equal(t, game.Move(game.E), act(b, 0, p))
		require.Equal(t, "adopt", b.actedBy)
		p = percept(1)
		p.Role, p.RoleZones = "default", []protocol.Pos{{0, 0}}
		p.LastAction, p.LastActionParams, p.LastActionResult = game.ActMove, []string{"e"}, "success"
		want := game.Adopt(roleWorker)
		if announced {
			p.Norms = []protocol.Norm{noWorkersFrom(40)}
			want = game.Adopt(roleConstructor)
		}
		assert.Equal(t, want, act(b, 1, p), "norm announced on the way: %v", announced)
	}
}

func TestAWorkerLeavingALimitedRoleDropsWhatSlowsItWhenTimeIsShort(t *testing.T) {
	// sim3 seed 3: helpers left the worker role for "at most 0 workers"
	// 41 steps ahead carrying their blocks, at a worker's laden speed of
	// one cell a step; unladen they would have walked two and been in time.
	for _, tt := range []struct {
		start int
		drop  bool
	}{
		{start: 12, drop: true},  // 5 cells laden: ~9 steps, more than two thirds of 12
		{start: 40, drop: false}, // time enough to walk laden
	} {
		b := startedAlone(t, withConstructors)
		p := percept(0, protocol.Thing{X: 0, Y: 1, Type: "block", Details: "b0"})
		p.Attached = []protocol.Pos{{0, 1}}
		b.attached = []game.Pos{{X: 0, Y: 1}}
		p.RoleZones = []protocol.Pos{{5, 0}}
		p.Norms = []protocol.Norm{noWorkersFrom(tt.start)}
		act(b, 0, p)
		require.Equal(t, roleConstructor, b.wantedRole())
		assert.Equal(t, tt.drop, b.slowedLeaving(), "norm from step %d", tt.start)
	}
	// A constructor walks at one cell a step laden or not: nothing to gain.
	b := startedAlone(t, withConstructors)
	p := percept(0, protocol.Thing{X: 0, Y: 1, Type: "block", Details: "b0"})
	p.Role, p.Attached, p.RoleZones = roleConstructor, []protocol.Pos{{0, 1}}, []protocol.Pos{{5, 0}}
	b.attached = []game.Pos{{X: 0, Y: 1}}
	p.Norms = []protocol.Norm{{Name: "n1", Start: 3, Until: 20, Level: "individual", Punishment: 1,
		Requirements: []protocol.NormRequirement{{Type: "role", Name: roleConstructor, Quantity: 0}}}}
	act(b, 0, p)
	require.Equal(t, roleWorker, b.wantedRole())
	assert.False(t, b.slowedLeaving())
}
