package scenario

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/maps"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario/scenariotest"
)

// busyParams is a crowded little world in which every rule fires often:
// three teams, many zones, frequent clear events and norms, a low attach limit.
func busyParams(seed int64, steps int) Params {
	all := []string{"skip", "move", "rotate", "adopt", "detach", "clear", "request", "attach", "connect", "disconnect", "submit", "survey"}
	return Params{
		Steps: steps, Seed: seed, RandomFail: 3, TeamSize: 8, ClusterBounds: Bounds{1, 3},
		Roles: []Role{
			{Name: "default", Vision: 5, Actions: all, Speed: []int{1, 1, 0}, ClearChance: 0.7, ClearMaxDistance: 1},
			{Name: "worker", Vision: 5, Actions: all, Speed: []int{2, 1, 1, 0}, ClearChance: 0.7, ClearMaxDistance: 1},
			{Name: "explorer", Vision: 7, Actions: all, Speed: []int{3, 0}, ClearChance: 0.7, ClearMaxDistance: 1},
			{Name: "digger", Vision: 5, Actions: all, Speed: []int{1, 0}, ClearChance: 1, ClearMaxDistance: 5},
		},
		ClearEnergyCost: 10, DeactivatedDuration: 5, MaxEnergy: 60, RefreshEnergy: 30, StepRecharge: 1,
		ClearDamage: []int{32, 16, 8, 4, 2, 1}, AttachLimit: 4,
		Grid: GridParams{
			Width: 30, Height: 30,
			Instructions: []maps.Instruction{{Name: "cave", Args: []float64{0.4, 2, 5, 4}}},
			Goals:        ZoneParams{Number: 5, Size: Bounds{1, 3}, MoveProbability: 0.3},
			RoleZones:    ZoneParams{Number: 3, Size: Bounds{2, 3}},
		},
		BlockTypes: Bounds{2, 2}, Dispensers: Bounds{3, 4},
		Tasks:  TaskParams{Size: Bounds{1, 2}, Concurrent: 4, Iterations: Bounds{2, 6}, MaxDuration: Bounds{20, 60}},
		Events: EventParams{Chance: 10, Radius: Bounds{1, 3}, Warning: 3, Create: Bounds{-1, 2}, Perimeter: 1},
		Regulation: RegulationParams{Simultaneous: 2, Chance: 20, Subjects: []NormSubject{
			{Name: SubjectCarry, Announcement: Bounds{1, 5}, Duration: Bounds{3, 10}, Punishment: Bounds{5, 20}, Weight: 2, Quantity: Bounds{0, 2}},
			{Name: SubjectAdopt, Announcement: Bounds{1, 5}, Duration: Bounds{3, 10}, Punishment: Bounds{1, 3}, Weight: 1, Playing: 50},
			{Name: SubjectRoleIndividual, Announcement: Bounds{1, 5}, Duration: Bounds{3, 10}, Punishment: Bounds{1, 3}, Weight: 1},
		}},
	}
}

var busyTeams = []Team{{Name: "A", Prefix: "agent"}, {Name: "B", Prefix: "agent"}, {Name: "C", Prefix: "agent"}}

// players makes one random player per agent of w.
func players(w *World, seed int64) map[string]*scenariotest.Player {
	ip, _ := w.InitialPercept(w.entities[0].name)
	roles := ip.Roles
	out := make(map[string]*scenariotest.Player, len(w.entities))
	for i, e := range w.entities {
		var mates []string
		for _, o := range w.entities {
			if o.team == e.team && o != e {
				mates = append(mates, o.name)
			}
		}
		out[e.name] = scenariotest.NewPlayer(uint64(seed)*1000+uint64(i), e.name, mates, roles)
	}
	return out
}

func TestInvariants_RandomPlayKeepsTheWorldConsistent(t *testing.T) {
	steps := 2000
	if testing.Short() || raceEnabled {
		steps = 400 // scenario has no goroutines: the race detector only slows this down
	}
	results := map[string]int{}
	for _, seed := range []int64{1, 2, 3} {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			w, err := New(busyParams(seed, steps), busyTeams)
			require.NoError(t, err)
			c := newInvariantChecker(t, w)
			ps := players(w, seed)
			actions := make(map[string]Action, len(w.entities))
			for !w.Done() {
				require.NoError(t, w.Prepare())
				for i, e := range w.entities {
					pc, ok := w.Percept(e.name)
					require.True(t, ok)
					// Encoding and decoding is slow: one agent's percept is
					// checked per step, everyone's every 100 steps.
					if (i+w.step)%len(w.entities) == 0 || w.step%100 == 0 {
						c.checkPerceptWireForm(&pc)
					}
					name, params := ps[e.name].Act(&pc)
					actions[e.name] = Action{Name: name, Params: params}
				}
				c.beforeExecute()
				require.NoError(t, w.Execute(actions))
				c.afterExecute()
				for _, e := range w.entities {
					results[e.action+" "+e.result]++
				}
			}
		})
	}
	// Random play has to reach the interesting outcomes, or the invariants
	// above were checked on a world where nothing happened.
	for _, want := range []string{"submit success", "attach success", "request success", "connect failed_partner",
		"clear success", "rotate success", "move partial_success", "adopt success", "survey success", "disconnect success",
		"detach success", "move failed_status", "fly unknown_action"} {
		require.Positive(t, results[want], "%s never happened: %v", want, results)
	}
}

// invariantChecker checks the world after every step.
type invariantChecker struct {
	t          *testing.T
	w          *World
	startCells map[Pos]bool // cells where several entities started
	startPos   []Pos
	scores     []int64
	wasActive  []bool
	mayCarry   []bool // deactivated in an action phase, then attached by its own action (as in the Java server; docs/rules.md, "Action phase")
}

func newInvariantChecker(t *testing.T, w *World) *invariantChecker {
	c := &invariantChecker{t: t, w: w, startCells: map[Pos]bool{}, scores: slices.Clone(w.scores),
		wasActive: make([]bool, len(w.entities)), mayCarry: make([]bool, len(w.entities))}
	count := map[Pos]int{}
	for _, e := range w.entities {
		c.startPos = append(c.startPos, e.t.pos)
		count[e.t.pos]++
	}
	for p, n := range count {
		if n > 1 {
			c.startCells[p] = true
		}
	}
	c.afterExecute()
	return c
}

func (c *invariantChecker) beforeExecute() {
	for i, e := range c.w.entities {
		c.wasActive[i] = !e.deactivated()
	}
}

func (c *invariantChecker) afterExecute() {
	w := c.w
	// Plain checks instead of testify: this runs for every thing in every step.
	fail := func(format string, args ...any) {
		c.t.Helper()
		c.t.Fatalf("step %d: "+format, append([]any{w.step}, args...)...)
	}
	// At most one attachable per cell, except entities still on a shared start cell.
	placed := 0
	var here []*thing
	for i, first := range w.things.firstAt {
		here = here[:0]
		for id := first; id != 0; id = w.things.all[id].nextAt {
			th := w.things.all[id]
			if th.removed || th.pos != w.g.pos(i) {
				fail("thing %d (removed %v) in the chain of cell %v", id, th.removed, w.g.pos(i))
			}
			here = append(here, th)
		}
		placed += len(here)
		for _, th := range here {
			if len(here) > 1 && (th.kind != KindEntity || !c.startCells[th.pos] || c.startPos[c.index(th.entity)] != th.pos) {
				fail("%d things on cell %v, not a shared start cell", len(here), th.pos)
			}
		}
	}
	live := 0
	for _, th := range w.things.all[1:] {
		if !th.removed && th.kind != KindDispenser {
			live++
		}
	}
	if live != placed {
		fail("%d live attachables, %d on the grid", live, placed)
	}

	// Links are symmetric, between live neighbours, and structures respect attachLimit.
	for _, th := range w.things.all[1:] {
		for _, id := range th.links {
			o := w.things.all[id]
			if o.removed || !slices.Contains(o.links, th.id) || w.g.distance(th.pos, o.pos) != 1 {
				fail("bad link %d-%d (removed %v, positions %v %v)", th.id, id, o.removed, th.pos, o.pos)
			}
		}
		if len(th.links) > 0 && w.structureOf(th).size() > w.p.AttachLimit {
			fail("structure of %d exceeds attachLimit", th.id)
		}
	}

	for i, e := range w.entities {
		if e.energy < 0 || e.energy > w.p.MaxEnergy {
			fail("%s has energy %d", e.name, e.energy)
		}
		switch {
		case !e.deactivated():
			c.mayCarry[i] = false
		case c.wasActive[i] && e.action == protocol.ActionAttach && e.result == protocol.ResultSuccess:
			c.mayCarry[i] = true
		}
		if e.deactivated() && !c.mayCarry[i] {
			for _, id := range e.t.links {
				if o := w.things.all[id]; o.kind != KindEntity || o.entity.team != e.team {
					fail("deactivated %s carries a thing of kind %d", e.name, o.kind)
				}
			}
		}
	}
	for i, s := range w.scores {
		if s < c.scores[i] {
			fail("score of team %d went down from %d to %d", i, c.scores[i], s)
		}
	}
	copy(c.scores, w.scores)
}

func (c *invariantChecker) index(e *entity) int { return slices.Index(c.w.entities, e) }

// perceptKeys are the keys of docs/protocol.md, "The step percept", all always present.
var perceptKeys = []string{"score", "things", "tasks", "norms", "energy", "deactivated", "lastAction",
	"lastActionResult", "lastActionParams", "events", "role", "attached", "violations", "goalZones", "roleZones"}

// checkPerceptWireForm encodes a percept as the server does and checks the
// decoded JSON against the official key set.
func (c *invariantChecker) checkPerceptWireForm(pc *protocol.StepPercept) {
	t := c.t
	raw, err := protocol.Marshal(protocol.RequestAction{ID: 1, Time: 2, Deadline: 3, Step: c.w.step, Percept: *pc})
	require.NoError(t, err)
	_, err = protocol.Decode(raw)
	require.NoError(t, err)
	var msg struct {
		Content struct {
			Percept map[string]json.RawMessage `json:"percept"`
		} `json:"content"`
	}
	require.NoError(t, json.Unmarshal(raw, &msg))
	p := msg.Content.Percept
	require.Len(t, p, len(perceptKeys), "percept keys: %v", p)
	for _, k := range perceptKeys {
		require.Contains(t, p, k)
		require.NotEqual(t, "null", string(p[k]), k)
	}
	requireKeys(t, p["things"], "x", "y", "type", "details")
	var tasks []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(p["tasks"], &tasks))
	for _, task := range tasks {
		requireObjectKeys(t, task, "name", "deadline", "reward", "requirements")
		requireKeys(t, task["requirements"], "x", "y", "type", "details")
	}
	var norms []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(p["norms"], &norms))
	for _, n := range norms {
		requireObjectKeys(t, n, "name", "start", "until", "level", "requirements", "punishment")
		requireKeys(t, n["requirements"], "type", "name", "quantity")
	}
	var events []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(p["events"], &events))
	for _, e := range events {
		switch string(e["type"]) {
		case `"hit"`:
			requireObjectKeys(t, e, "type", "origin", "damage")
		case `"surveyed"`:
			if string(e["target"]) == `"agent"` {
				requireObjectKeys(t, e, "type", "target", "name", "role", "energy")
			} else {
				requireObjectKeys(t, e, "type", "target", "distance")
			}
		default:
			t.Fatalf("unknown event %v", e)
		}
	}
}

func requireKeys(t *testing.T, array json.RawMessage, keys ...string) {
	var objs []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(array, &objs))
	for _, o := range objs {
		requireObjectKeys(t, o, keys...)
	}
}

// requireObjectKeys checks that o has exactly the given keys (by hand:
// testify's helpers are too slow for this many objects).
func requireObjectKeys(t *testing.T, o map[string]json.RawMessage, keys ...string) {
	if len(o) != len(keys) {
		t.Fatalf("want keys %v, got %v", keys, o)
	}
	for _, k := range keys {
		if _, ok := o[k]; !ok {
			t.Fatalf("want keys %v, got %v", keys, o)
		}
	}
}
