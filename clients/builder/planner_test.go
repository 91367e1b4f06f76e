package builder

import (
	"testing"

	"github.com/rs/zerolog"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/game"
	"github.com/massim-go/massim/clients/memory"
	"github.com/massim-go/massim/protocol"
)

func reqs(spec ...game.Pos) []game.Requirement {
	out := make([]game.Requirement, len(spec))
	for i, p := range spec {
		out[i] = game.Requirement{Pos: p, Type: "b0"}
	}
	return out
}

func TestConnectionOrderPutsEveryBlockAfterTheOneItHangsOn(t *testing.T) {
	// (1,2) hangs on (0,2), which hangs on the anchor (0,1); listed out of order.
	order, parents, ok := connectionOrder(reqs(game.Pos{X: 1, Y: 2}, game.Pos{X: 0, Y: 2}, game.Pos{X: 0, Y: 1}, game.Pos{X: -1, Y: 1}))
	require.True(t, ok)
	assert.Equal(t, 2, order[0], "the anchor first")
	assert.Equal(t, []int{2, 1, 3, 0}, order)
	assert.Equal(t, []int{1, 2, -1, 2}, parents)

	_, _, ok = connectionOrder(reqs(game.Pos{X: 0, Y: 2}))
	assert.False(t, ok, "no anchor")
	_, _, ok = connectionOrder(reqs(game.Pos{X: 0, Y: 1}, game.Pos{X: 2, Y: 1}))
	assert.False(t, ok, "a block hanging on nothing")
}

// mapOf is a map that has seen the rows ('#' rock, 'b' loose block, 'x'
// marked for a clear event, 'G' goal cell, 'R' role-zone cell, anything
// else free) in step 0.
func mapOf(rows ...string) *memory.Map {
	m := memory.NewMap()
	p := game.Percept{}
	for y, row := range rows {
		for x, c := range row {
			pos := game.Pos{X: x, Y: y}
			switch c {
			case '#':
				p.Things = append(p.Things, game.Thing{Pos: pos, Kind: game.KindObstacle})
			case 'b':
				p.Things = append(p.Things, game.Thing{Pos: pos, Kind: game.KindBlock, Details: "b1"})
			case 'x':
				p.Things = append(p.Things, game.Thing{Pos: pos, Kind: game.KindMarker, Details: game.MarkerClear})
			case 'G':
				p.GoalZones = append(p.GoalZones, pos)
			case 'R':
				p.RoleZones = append(p.RoleZones, pos)
			}
		}
	}
	m.See(game.Pos{}, &p, 2*len(rows)+2*len(rows[0]))
	return m
}

func TestSpotFitsCountsWhatMustBeDugAndNeedsRoomForHelpers(t *testing.T) {
	three := reqs(game.Pos{X: 0, Y: 1}, game.Pos{X: 0, Y: 2}, game.Pos{X: 1, Y: 2})
	tests := []struct {
		name string
		rows []string
		digs int
		ok   bool
	}{
		{"free", []string{".....", ".....", ".....", "....."}, 0, true},
		{"rock to dig", []string{".....", ".....", ".#...", "....."}, 1, true},
		{"the submitter's cell is rock", []string{".#...", ".....", ".....", "....."}, 0, false},
		{"a loose block to clear", []string{".....", ".....", ".b...", "....."}, 1, true},
		{"marked for a clear event", []string{".....", ".....", "..x..", "....."}, 0, false},
		{"no room for the last helper", []string{".....", "..b..", "...b.", "..b.."}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := mapOf(tt.rows...)
			digs, ok := spotFits(w, game.Pos{X: 1, Y: 0}, three, map[game.Pos]bool{})
			assert.Equal(t, tt.ok, ok)
			if ok {
				assert.Equal(t, tt.digs, digs)
			}
		})
	}
	w := mapOf(".....", ".....", ".....", ".....")
	_, ok := spotFits(w, game.Pos{X: 1, Y: 0}, three, map[game.Pos]bool{{X: 2, Y: 2}: true})
	assert.False(t, ok, "a cell another project uses")
}

func TestTurnsTo(t *testing.T) {
	assert.Equal(t, 0, turnsTo(anchor, anchor))
	assert.Equal(t, 1, turnsTo(game.Pos{X: 1}, anchor), "east to south: clockwise once")
	assert.Equal(t, 2, turnsTo(game.Pos{Y: -1}, anchor))
	assert.Equal(t, 3, turnsTo(game.Pos{X: -1}, game.Pos{Y: -1}.Rotate(game.CCW).Rotate(game.CCW)))
	assert.Equal(t, -1, turnsTo(game.Pos{X: 2}, anchor))
}

// squadOf is a squad with one group of n workers standing in a row from
// (0,0) eastwards, whose map has seen rows.
func squadOf(t *testing.T, n int, rows ...string) *squad {
	t.Helper()
	s := newSquad(zerolog.Nop())
	g := &group{id: 1, world: mapOf(rows...)}
	s.groups = []*group{g}
	for i := range n {
		name := "agentA" + string(rune('1'+i))
		m := &member{name: name, index: i + 1, group: g, brain: &brain{}}
		m.role, m.pos, m.step = roleWorker, game.Pos{X: i}, 0
		s.members[name] = m
		g.members = append(g.members, name)
	}
	return s
}

// workerLimit is an Adopt norm allowing at most quantity workers per team
// from step 40 to 60.
func workerLimit(quantity int) game.Norm {
	return game.Norm{Name: "n1", Start: 40, Until: 60, Quantity: quantity, Role: roleWorker,
		Requirement: protocol.NormRequirement{Type: "role", Name: roleWorker, Quantity: quantity}}
}

// placeSubmitter makes the named member the placed submitter of a
// two-block project, the plan's only one.
func placeSubmitter(s *squad, name string) (*member, *project) {
	sub := s.members[name]
	proj := &project{group: s.groups[0], submitter: sub, placed: true, slots: []slot{{parent: -1}, {parent: 0}}}
	sub.job = &job{kind: jobSubmit, project: proj}
	s.plan.projects = []*project{proj}
	return sub, proj
}

// seeRoleZoneRow shows the squad's group role-zone cells (0..n-1, y).
func seeRoleZoneRow(s *squad, n, y int) {
	for x := range n {
		p := game.Percept{Step: 0, RoleZones: []game.Pos{{X: x, Y: y}}}
		s.groups[0].world.See(game.Pos{}, &p, 10)
	}
}

func TestAnAdoptNormMovesFreeMembersNearestToARoleZoneFirst(t *testing.T) {
	s := squadOf(t, 6, "......", "......", "RRR...")
	// The role zone lies under the first three agents (two rows south).
	seeRoleZoneRow(s, 3, 2)
	busy := s.members["agentA2"]
	busy.job = &job{kind: jobHelp, project: &project{}}
	norm := workerLimit(3)
	s.plan.step = 1
	s.plan.roles(s, []game.Norm{norm})
	var moved []string
	for _, name := range s.names() {
		if s.members[name].want == roleConstructor {
			moved = append(moved, name)
		}
	}
	// Six workers, at most three: three must change, two more for safety;
	// the helper is the one left working.
	assert.Equal(t, []string{"agentA1", "agentA3", "agentA4", "agentA5", "agentA6"}, moved)

	// Next step the choice stands, even if the roles reported are stale.
	s.plan.step = 2
	s.plan.roles(s, []game.Norm{norm})
	assert.Equal(t, roleConstructor, s.members["agentA1"].want)
	// Without the norm everyone keeps the role it has.
	s.members["agentA1"].role = roleConstructor
	s.plan.roles(s, nil)
	assert.Equal(t, roleConstructor, s.members["agentA1"].want)
	assert.Equal(t, roleWorker, s.members["agentA3"].want, "still a worker: stays one")
}

func TestAPlacedSubmitterBuildsOnUntilItMustLeaveForAnAdoptNorm(t *testing.T) {
	s := squadOf(t, 2, "......", "......", "RRR...")
	seeRoleZoneRow(s, 3, 2)
	sub, proj := placeSubmitter(s, "agentA1")
	// No worker at all from step 40: the other member goes at once.
	norm := workerLimit(0)
	s.plan.step = 1
	s.plan.roles(s, []game.Norm{norm})
	assert.Equal(t, roleConstructor, s.members["agentA2"].want)
	assert.Equal(t, roleWorker, sub.want, "two cells from a role zone: time to build on")
	assert.False(t, proj.done)

	// Late enough that the trip (two cells, some digging, the adopt) would
	// not end before the start: the project is given up and it goes.
	s.plan.step = 34
	s.plan.roles(s, []game.Norm{norm})
	assert.Equal(t, roleConstructor, sub.want)
	assert.True(t, proj.done)
	assert.Nil(t, sub.job)
}

func TestLeaveTimeAllowsForDiggingAndTheAdopt(t *testing.T) {
	for _, tt := range []struct{ cells, want int }{{0, 5}, {2, 8}, {9, 18}, {30, 50}} {
		assert.Equal(t, tt.want, leaveTime(tt.cells), tt.cells)
	}
}

func TestASubmitterBehindRockAllowsForTheWayRoundIt(t *testing.T) {
	s := squadOf(t, 1,
		"#########",
		"#.......#",
		"#######.#",
		"#RRR....#",
		"#########")
	sub, proj := placeSubmitter(s, "agentA1")
	sub.pos = game.Pos{X: 1, Y: 1} // two cells from the zone as the crow flies, 12 along the corridor
	norm := workerLimit(0)
	s.plan.step = 7
	s.plan.roles(s, []game.Norm{norm})
	assert.Equal(t, roleWorker, sub.want, "33 steps left: time to build on")
	assert.Less(t, leaveTime(2), 16, "by the distance it could stay longer")

	// 32 steps before the start the walk round the rock (12 steps, the
	// adopt and a margin: 16) could be late if it takes twice as long: it
	// goes (with a margin of a third it stayed until 21 steps before, and
	// one such switch in ten came late in the contest simulations).
	s.plan.step = 8
	s.plan.roles(s, []game.Norm{norm})
	assert.Equal(t, roleConstructor, sub.want)
	assert.True(t, proj.done)
}

func TestLeaversThatCouldBeLateGoAfterThoseSureToMakeIt(t *testing.T) {
	// Eight workers in a row above a role zone under the first three, at
	// most five from step 40: five change (three, and two for safety). In
	// step 25 the free members from x = 4 on could be late (a trip of 4
	// cells and a margin of 4, twice over, is 16 steps); the helper at x = 1
	// would make it, so it goes although its work suffers.
	s := squadOf(t, 8, "........", "........", "RRR.....")
	seeRoleZoneRow(s, 3, 2)
	s.members["agentA2"].job = &job{kind: jobHelp, project: &project{}}
	s.plan.step = 25
	s.plan.roles(s, []game.Norm{workerLimit(5)})
	var moved []string
	for _, name := range s.names() {
		if s.members[name].want == roleConstructor {
			moved = append(moved, name)
		}
	}
	assert.Equal(t, []string{"agentA1", "agentA2", "agentA3", "agentA4", "agentA5"}, moved)
}

func TestALimitOnTheDefaultRoleListedFirstHidesNoOtherRoleNorm(t *testing.T) {
	// With more than one norm at a time (regulation.simultaneous > 1),
	// "at most q default" listed before "at most q workers" made the
	// planner, which took the first role norm, move nobody.
	onDefault := game.Norm{Name: "n0", Start: 10, Until: 70, Quantity: 10, Role: roleDefault,
		Requirement: protocol.NormRequirement{Type: "role", Name: roleDefault, Quantity: 10}}
	s := squadOf(t, 6, "......", "......", "RRR...")
	seeRoleZoneRow(s, 3, 2)
	s.plan.step = 1
	s.plan.roles(s, []game.Norm{onDefault, workerLimit(3)})
	moved := 0
	for _, name := range s.names() {
		if s.members[name].want == roleConstructor {
			moved++
		}
	}
	assert.Equal(t, 5, moved, "six workers, at most three: three must change, two more for safety")

	// An agent sees the norm on its own role whatever is listed first.
	b := startedAlone(t, withConstructors)
	p := percept(0)
	p.Norms = []protocol.Norm{
		{Name: "n0", Start: 10, Until: 70, Level: "individual", Punishment: 1,
			Requirements: []protocol.NormRequirement{{Type: "role", Name: roleDefault, Quantity: 10}}},
		noWorkersFrom(40),
	}
	act(b, 0, p)
	left, limited := b.leaveWithin()
	assert.True(t, limited)
	assert.Equal(t, 40, left)
}
