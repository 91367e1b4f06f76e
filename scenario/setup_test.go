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

func TestParseSetup_BadLinesFailWithFileLineAndReason(t *testing.T) {
	tests := []struct {
		name, line, want string
	}{
		{"UnknownCommand", "teleport 1 1 agentA1", `s.txt:2: unknown command "teleport"`},
		{"UnknownThingToAdd", "add 5 5 taskboard", `s.txt:2: cannot add "taskboard": only block and dispenser`},
		{"AddWithoutType", "add 5 5 block", "s.txt:2: want: add X Y block|dispenser TYPE"},
		{"MoveWithWrongTokenCount", "move 1 1", "s.txt:2: want: move X Y AGENT"},
		{"NonIntegerCoordinates", "move 1 x agentA1", `s.txt:2: coordinates "1" "x": want integers`},
		{"DoubleSpace", "move 1  1 agentA1", "s.txt:2: empty token: separate tokens by single spaces"},
		{"UnknownTerrain", "terrain 1 1 water", `s.txt:2: unknown terrain "water"`},
		{"AttachWithThreeNumbers", "attach 1 1 2", "s.txt:2: want: attach X1 Y1 X2 Y2"},
		{"CreateSomethingElse", "create norm n 1 1,0,b0", "s.txt:2: want: create task NAME DURATION"},
		{"TaskDurationNotAnInteger", "create task t soon 1,0,b0", `s.txt:2: task duration "soon"`},
		{"TaskDurationBelowOne", "create task t 0 1,0,b0", `s.txt:2: task duration "0"`},
		{"TaskRequirementMalformed", "create task t 10 1,0", `s.txt:2: task requirement "1,0": want X,Y,TYPE`},
		{"TaskRequirementNonInteger", "create task t 10 a,0,b0", `s.txt:2: task requirement "a,0,b0": coordinates`},
		{"TaskRequirementTwice", "create task t 10 1,0,b0;1,0,b1", `s.txt:2: task requirement "1,0,b1": position used twice`},
		{"TaskRequirementOnTheAgent", "create task t 10 0,0,b0", `s.txt:2: task requirement "0,0,b0": (0,0) is the agent's own cell`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseSetup("s.txt", []byte("# header\n"+tc.line+"\n"))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
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

// setupWorld builds a 20×20 world with agents agentA1/agentB1 at (1,1) and
// agentA2/agentB2 at (2,1), then applies the setup text.
func setupWorld(t *testing.T, text string) (*World, error) {
	t.Helper()
	cmds, err := ParseSetup("s.txt", []byte(text))
	require.NoError(t, err)
	p := testParams()
	p.Grid.Width, p.Grid.Height = 20, 20
	p.TeamSize = 0
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
		"attach 11 10 11 11\n")
	require.NoError(t, err)
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

func TestSetup_CommandsThatCannotApplyFailTheWorld(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"OutOfRange", "terrain 20 3 obstacle", "setup s.txt:1: cell (20,3) is outside the 20x20 grid"},
		{"NegativeCoordinate", "add -1 3 block b0", "setup s.txt:1: cell (-1,3) is outside"},
		{"UnknownBlockType", "add 3 3 block b7", "setup s.txt:1: unknown block type b7 (types: b0, b1)"},
		{"UnknownDispenserType", "add 3 3 dispenser b9", "unknown block type b9"},
		{"SecondDispenser", "add 3 3 dispenser b0\nadd 3 3 dispenser b1", "setup s.txt:2: cell (3,3) already has a dispenser"},
		{"BlockOnOccupiedCell", "terrain 3 3 obstacle\nadd 3 3 block b0", "setup s.txt:2: cell (3,3) is occupied"},
		{"ObstacleOnAnAgent", "move 3 3 agentA1\nterrain 3 3 obstacle", "setup s.txt:2: cell (3,3) is occupied"},
		{"UnknownAgent", "move 3 3 agentC1", "setup s.txt:1: no agent agentC1 in this simulation"},
		{"MoveOntoAnOccupiedCell", "add 3 3 block b0\nmove 3 3 agentA1", "setup s.txt:2: cell (3,3) is occupied"},
		{"MoveWithAttachments", "move 3 3 agentA1\nadd 4 3 block b0\nattach 3 3 4 3\nmove 8 8 agentA1", "setup s.txt:4: agent agentA1 has attachments"},
		{"DuplicateTaskName", "create task t 10 0,1,b0\ncreate task t 10 0,1,b1", "setup s.txt:2: task t already exists"},
		{"TaskOfUnknownType", "create task t 10 0,1,b5", "setup s.txt:1: task t: unknown block type b5"},
		{"AttachNotAdjacent", "add 3 3 block b0\nadd 5 3 block b0\nattach 3 3 5 3", "setup s.txt:3: cells (3,3) and (5,3) are not adjacent"},
		{"AttachOnAnEmptyCell", "add 3 3 block b0\nattach 3 3 3 4", "setup s.txt:2: cells (3,3) and (3,4) must each hold exactly one"},
		{"AttachingTwiceIsHarmless", "add 3 3 block b0\nmove 3 4 agentA1\nattach 3 3 3 4\nattach 3 4 3 3", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := testParams()
			p.Grid.Width, p.Grid.Height = 20, 20
			p.TeamSize = 1
			p.Grid.Goals.Number, p.Grid.RoleZones.Number = 0, 0
			p.BlockTypes = Bounds{2, 2}
			p.Dispensers = Bounds{0, 0}
			p.Setup = mustParse(t, tc.text)
			_, err := New(p, testTeams)
			if tc.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestSetup_AttachRespectsTheAttachLimit(t *testing.T) {
	p := testParams()
	p.Grid.Width, p.Grid.Height = 20, 20
	p.TeamSize = 0
	p.Grid.Goals.Number, p.Grid.RoleZones.Number = 0, 0
	p.BlockTypes = Bounds{2, 2}
	p.Dispensers = Bounds{0, 0}
	p.AttachLimit = 2
	p.Setup = mustParse(t, "add 3 3 block b0\nadd 4 3 block b0\nadd 5 3 block b0\nattach 3 3 4 3\nattach 4 3 5 3")
	_, err := New(p, testTeams)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "setup s.txt:5: the structure would hold 3 things, more than attachLimit 2")
}
