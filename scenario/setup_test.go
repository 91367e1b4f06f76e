package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

func TestParseSetup_Commands(t *testing.T) {
	text := "# a comment\n\nmove 3 3 agentA1\nadd 4 3 dispenser b1\nadd 3 5 block b0\r\n" +
		"terrain 5 5 obstacle\nterrain 6 6 Goal\nterrain 8 8 ROLE\ncreate task test 100 1,0,b1;0,1,b0\n" +
		"attach 10 10 11 10\nstop here\nthis line is never read\n"
	cmds, err := ParseSetup("s.txt", []byte(text))
	require.NoError(t, err)
	assert.Equal(t, []SetupCommand{
		{File: "s.txt", Line: 3, Op: SetupMove, At: Pos{3, 3}, Name: "agentA1"},
		{File: "s.txt", Line: 4, Op: SetupAddDispenser, At: Pos{4, 3}, Type: "b1"},
		{File: "s.txt", Line: 5, Op: SetupAddBlock, At: Pos{3, 5}, Type: "b0"},
		{File: "s.txt", Line: 6, Op: SetupObstacle, At: Pos{5, 5}},
		{File: "s.txt", Line: 7, Op: SetupGoalZone, At: Pos{6, 6}},
		{File: "s.txt", Line: 8, Op: SetupRoleZone, At: Pos{8, 8}},
		{File: "s.txt", Line: 9, Op: SetupCreateTask, Name: "test", Duration: 100,
			Requirements: []SetupRequirement{{Pos{1, 0}, "b1"}, {Pos{0, 1}, "b0"}}},
		{File: "s.txt", Line: 10, Op: SetupAttach, At: Pos{10, 10}, To: Pos{11, 10}},
	}, cmds)
}

func TestParseSetup_BadLinesBecomeSkipsWithFileLineAndReason(t *testing.T) {
	tests := []struct {
		name, line, want string
	}{
		{"UnknownCommand", "teleport 1 1 agentA1", `unknown command "teleport"`},
		{"UnknownThingToAdd", "add 5 5 taskboard", `cannot add "taskboard": only block and dispenser`},
		{"AddWithoutType", "add 5 5 block", "want: add X Y block|dispenser TYPE"},
		{"MoveWithWrongTokenCount", "move 1 1", "want: move X Y AGENT"},
		{"NonIntegerCoordinates", "move 1 x agentA1", `coordinates "1" "x": want integers`},
		{"DoubleSpace", "move 1  1 agentA1", "empty token: separate tokens by single spaces"},
		{"UnknownTerrain", "terrain 1 1 water", `unknown terrain "water"`},
		{"AttachWithThreeNumbers", "attach 1 1 2", "want: attach X1 Y1 X2 Y2"},
		{"CreateSomethingElse", "create norm n 1 1,0,b0", "want: create task NAME DURATION"},
		{"TaskDurationNotAnInteger", "create task t soon 1,0,b0", `task duration "soon"`},
		{"TaskDurationBelowOne", "create task t 0 1,0,b0", `task duration "0"`},
		{"TaskRequirementMalformed", "create task t 10 1,0", `task requirement "1,0": want X,Y,TYPE`},
		{"TaskRequirementNonInteger", "create task t 10 a,0,b0", `task requirement "a,0,b0": coordinates`},
		{"TaskRequirementTwice", "create task t 10 1,0,b0;1,0,b1", `task requirement "1,0,b1": position used twice`},
		{"TaskRequirementOnTheAgent", "create task t 10 0,0,b0", `task requirement "0,0,b0": (0,0) is the agent's own cell`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmds, err := ParseSetup("s.txt", []byte("# header\n"+tc.line+"\nmove 1 1 agentA1\n"))
			require.Error(t, err, "the error lists the lines that are no command")
			assert.Contains(t, err.Error(), "s.txt:2: "+tc.want)
			require.Len(t, cmds, 2, "the file's other lines are still read")
			assert.Equal(t, SetupSkip, cmds[0].Op)
			assert.Equal(t, 2, cmds[0].Line)
			assert.Contains(t, cmds[0].Reason, tc.want)
			assert.Equal(t, SetupMove, cmds[1].Op)
		})
	}
}

func TestParseSetup_ReportsEveryBadLine(t *testing.T) {
	_, err := ParseSetup("s.txt", []byte("fly\nmove 1 1 a\nswim\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "s.txt:1:")
	assert.Contains(t, err.Error(), "s.txt:3:")
	assert.NotContains(t, err.Error(), "s.txt:2:")
}

// TestSetup_TheOfficialSampleFormatLoads builds a world from a file with the
// lines of the official sample setup file (our own copy of its format): the
// leftover "add 5 5 taskboard" is skipped with a warning naming file and
// line, everything else applies.
func TestSetup_TheOfficialSampleFormatLoads(t *testing.T) {
	text := "# simple setup file for testing\n\nadd 5 5 taskboard\n\n#stop    # stops further setup execution\n\n" +
		"move 3 3 agentA1\nmove 6 3 agentA2\nadd 4 3 dispenser b1\nadd 5 3 dispenser b0\nadd 3 5 block b1\n" +
		"terrain 5 5 obstacle\nterrain 6 6 goal\nterrain 8 8 role\n\n# create task test 100 1,0,b1;2,0,b0\n\n" +
		"create task test 100 1,0,b1\nmove 10 10 agentA2\nadd 11 10 block b1\nattach 10 10 11 10"
	w, err := setupWorld(t, text, 2)
	require.NoError(t, err)
	assert.Equal(t, []SetupWarning{{File: "s.txt", Line: 3, Reason: `cannot add "taskboard": only block and dispenser`}}, w.SetupWarnings())
	assert.Equal(t, "s.txt:3: cannot add \"taskboard\": only block and dispenser (line skipped)", w.SetupWarnings()[0].String())
	assert.Equal(t, Pos{3, 3}, w.byName["agentA1"].t.pos)
	assert.Equal(t, Pos{10, 10}, w.byName["agentA2"].t.pos)
	assert.Len(t, w.tasks, 1)
}

// setupWorld builds a 20×20 world with teamSize agents per team at
// (1,1), (2,1), … then applies the setup text.
func setupWorld(t *testing.T, text string, teamSize int) (*World, error) {
	t.Helper()
	cmds, _ := ParseSetup("s.txt", []byte(text))
	p := testParams()
	p.Grid.Width, p.Grid.Height = 20, 20
	p.TeamSize = teamSize
	p.Grid.Goals.Number, p.Grid.RoleZones.Number = 0, 0
	p.BlockTypes = Bounds{2, 2}
	p.Dispensers = Bounds{0, 0}
	p.Setup = cmds
	w, err := New(p, testTeams)
	return w, err
}

func TestSetup_BuildsTheWorldBeforeStepZero(t *testing.T) {
	w, err := setupWorld(t, "# like the sample file\nterrain 5 5 obstacle\nadd 4 3 dispenser b1\nadd 3 5 block b1\n"+
		"terrain 6 6 goal\nterrain 8 8 role\ncreate task test 100 1,0,b1\nadd 11 10 block b1\nadd 11 11 block b0\n"+
		"attach 11 10 11 11\n", 0)
	require.NoError(t, err)
	assert.Empty(t, w.SetupWarnings())
	assert.Equal(t, -1, w.Step())
	snap := w.Snapshot()
	assert.Len(t, snap.Obstacles, 1)
	assert.Len(t, snap.Dispensers, 1)
	require.Len(t, snap.Blocks, 3)
	assert.Equal(t, []protocol.Pos{{11, 11}}, snap.Blocks[1].Attached)
	assert.Equal(t, []ZoneSnapshot{{Pos: protocol.Pos{6, 6}, R: 1}}, snap.GoalZones)
	assert.Equal(t, []ZoneSnapshot{{Pos: protocol.Pos{8, 8}, R: 1}}, snap.RoleZones)
	require.Len(t, w.tasks, 1)
	assert.Equal(t, task{name: "test", deadline: 99, iterations: 1, reqs: []requirement{{Pos{1, 0}, "b1"}}}, *w.tasks[0],
		"setup tasks: one iteration, deadline -1 + duration")
}

func TestSetup_MoveAndAttachAnAgent(t *testing.T) {
	tw := newTestWorldWith(t, 20, 20, func(p *Params) {
		p.TeamSize = 3
		p.Setup = mustParse(t, "move 10 10 agentA3\nadd 11 10 block b1\nattach 10 10 11 10\n")
	})
	a3 := tw.byName["agentA3"]
	assert.Equal(t, Pos{10, 10}, a3.t.pos)
	b := tw.things.unique(Pos{11, 10})
	require.NotNil(t, b)
	assert.True(t, linked(a3.t, b), "agentA3 holds the block east of it")
	p := tw.percept(a3)
	assert.Equal(t, 1, len(p.Attached))
}

func mustParse(t *testing.T, text string) []SetupCommand {
	t.Helper()
	cmds, err := ParseSetup("s.txt", []byte(text))
	require.NoError(t, err)
	return cmds
}

func TestSetup_CommandsThatCannotApplyAreSkippedWithAWarning(t *testing.T) {
	tests := []struct {
		name, text, want string
		check            func(t *testing.T, w *World) // the skipped line changed nothing
	}{
		{"OutOfRange", "terrain 20 3 obstacle", "s.txt:1: cell (20,3) is outside the 20x20 grid", nil},
		{"NegativeCoordinate", "add -1 3 block b0", "s.txt:1: cell (-1,3) is outside", nil},
		{"UnknownBlockType", "add 3 3 block b7", "s.txt:1: unknown block type b7 (types: b0, b1)",
			func(t *testing.T, w *World) { assert.Nil(t, w.things.unique(Pos{3, 3})) }},
		{"UnknownDispenserType", "add 3 3 dispenser b9", "unknown block type b9", nil},
		{"SecondDispenser", "add 3 3 dispenser b0\nadd 3 3 dispenser b1", "s.txt:2: cell (3,3) already has a dispenser",
			func(t *testing.T, w *World) { assert.Equal(t, "b0", w.things.dispenser(Pos{3, 3}).typ) }},
		{"BlockOnOccupiedCell", "terrain 3 3 obstacle\nadd 3 3 block b0", "s.txt:2: cell (3,3) is occupied",
			func(t *testing.T, w *World) { assert.Equal(t, KindObstacle, w.things.unique(Pos{3, 3}).kind) }},
		{"ObstacleOnAnAgent", "move 3 3 agentA1\nterrain 3 3 obstacle", "s.txt:2: cell (3,3) is occupied", nil},
		{"UnknownAgent", "move 3 3 agentC1", "s.txt:1: no agent agentC1 in this simulation", nil},
		{"MoveOntoAnOccupiedCell", "add 3 3 block b0\nmove 3 3 agentA1", "s.txt:2: cell (3,3) is occupied",
			func(t *testing.T, w *World) { assert.Equal(t, Pos{1, 1}, w.byName["agentA1"].t.pos) }},
		{"MoveWithAttachments", "move 3 3 agentA1\nadd 4 3 block b0\nattach 3 3 4 3\nmove 8 8 agentA1", "s.txt:4: agent agentA1 has attachments", nil},
		{"DuplicateTaskName", "create task t 10 0,1,b0\ncreate task t 10 0,1,b1", "s.txt:2: task t already exists",
			func(t *testing.T, w *World) { assert.Equal(t, "b0", w.tasks[0].reqs[0].typ) }},
		{"TaskOfUnknownType", "create task t 10 0,1,b5", "s.txt:1: task t: unknown block type b5",
			func(t *testing.T, w *World) { assert.Empty(t, w.tasks) }},
		{"AttachNotAdjacent", "add 3 3 block b0\nadd 5 3 block b0\nattach 3 3 5 3", "s.txt:3: cells (3,3) and (5,3) are not adjacent", nil},
		{"AttachOnAnEmptyCell", "add 3 3 block b0\nattach 3 3 3 4", "s.txt:2: cells (3,3) and (3,4) must each hold exactly one", nil},
		{"AttachBeyondTheLimit", "add 3 3 block b0\nadd 4 3 block b0\nadd 5 3 block b0\nadd 6 3 block b0\nattach 3 3 4 3\nattach 4 3 5 3\nattach 5 3 6 3",
			"s.txt:7: the structure would hold 4 things, more than attachLimit 3",
			func(t *testing.T, w *World) {
				assert.False(t, linked(w.things.unique(Pos{5, 3}), w.things.unique(Pos{6, 3})))
			}},
		{"NoCommand", "add 5 5 taskboard", `s.txt:1: cannot add "taskboard": only block and dispenser`, nil},
		{"AttachingTwiceIsHarmless", "add 3 3 block b0\nmove 3 4 agentA1\nattach 3 3 3 4\nattach 3 4 3 3", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmds, _ := ParseSetup("s.txt", []byte(tc.text))
			p := testParams()
			p.Grid.Width, p.Grid.Height = 20, 20
			p.TeamSize = 1
			p.Grid.Goals.Number, p.Grid.RoleZones.Number = 0, 0
			p.BlockTypes = Bounds{2, 2}
			p.Dispensers = Bounds{0, 0}
			p.AttachLimit = 3
			p.Setup = cmds
			w, err := New(p, testTeams)
			require.NoError(t, err, "a setup line never fails the world")
			if tc.want == "" {
				assert.Empty(t, w.SetupWarnings())
				return
			}
			warnings := w.SetupWarnings()
			require.Len(t, warnings, 1)
			assert.Contains(t, warnings[0].String(), tc.want)
			assert.Contains(t, warnings[0].String(), "(line skipped)")
			if tc.check != nil {
				tc.check(t, w)
			}
		})
	}
}
