package scenario

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// SetupOp is what a setup-file command does (docs/config.md, "Setup files").
type SetupOp uint8

// Setup operations, one per command form.
const (
	SetupMove         SetupOp = iota + 1 // move X Y AGENT
	SetupAddBlock                        // add X Y block TYPE
	SetupAddDispenser                    // add X Y dispenser TYPE
	SetupCreateTask                      // create task NAME DURATION REQS
	SetupAttach                          // attach X1 Y1 X2 Y2
	SetupObstacle                        // terrain X Y obstacle
	SetupGoalZone                        // terrain X Y goal
	SetupRoleZone                        // terrain X Y role
	// SetupSkip is a line that is no usable command (an unknown command,
	// `add 5 5 taskboard`, a malformed line): the world skips it and
	// reports it among its SetupWarnings, as the Java server skips it.
	SetupSkip
)

// SetupCommand is one command of a setup file. File and Line say where it
// came from, so that whatever becomes of it can name the line.
type SetupCommand struct {
	File         string
	Line         int
	Op           SetupOp
	At           Pos                // the cell; attach: the first cell
	To           Pos                // attach: the second cell
	Name         string             // move: agent; create task: task name
	Type         string             // add: block or dispenser type
	Duration     int                // create task
	Requirements []SetupRequirement // create task
	Reason       string             // SetupSkip: why the line is no command
}

// SetupRequirement is one block of a setup task, relative to the submitting agent.
type SetupRequirement struct {
	Pos  Pos
	Type string
}

// SetupWarning is a setup line the world skipped: it is no usable command,
// or it cannot be applied to this world (an occupied cell, an agent that
// does not play in this simulation, a block type this world does not
// have). Whether a line applies may depend on the seed and the line-up, so
// two worlds of one config can skip different lines.
type SetupWarning struct {
	File   string
	Line   int
	Reason string
}

func (w SetupWarning) String() string {
	return fmt.Sprintf("%s:%d: %s (line skipped)", w.File, w.Line, w.Reason)
}

// ParseSetup reads a setup file. Empty lines and lines starting with '#'
// are skipped and a line starting with "stop" ends the file, as in the
// Java server. Every other line becomes a command; a line that is no usable
// command becomes a SetupSkip command with the reason, so that the world
// reports it like the lines it cannot apply. The error joins those reasons
// ("scenario: setup name:line: reason"), for callers that refuse any bad line; the
// commands are complete either way. Whether coordinates, agents and block
// types exist is only known when a world applies the commands.
func ParseSetup(name string, text []byte) ([]SetupCommand, error) {
	var cmds []SetupCommand
	var errs []error
	for i, line := range strings.Split(string(text), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "stop") {
			break
		}
		cmd, err := parseSetupLine(strings.Split(line, " "))
		if err != nil {
			errs = append(errs, fmt.Errorf("scenario: setup %s:%d: %w", name, i+1, err))
			cmd = SetupCommand{Op: SetupSkip, Reason: err.Error()}
		}
		cmd.File, cmd.Line = name, i+1
		cmds = append(cmds, cmd)
	}
	return cmds, errors.Join(errs...)
}

func parseSetupLine(tok []string) (SetupCommand, error) {
	for _, t := range tok {
		if t == "" {
			return SetupCommand{}, errors.New("empty token: separate tokens by single spaces")
		}
	}
	switch tok[0] {
	case "move":
		if len(tok) != 4 {
			return SetupCommand{}, errors.New("want: move X Y AGENT")
		}
		at, err := setupCell(tok[1], tok[2])
		return SetupCommand{Op: SetupMove, At: at, Name: tok[3]}, err
	case "add":
		return parseSetupAdd(tok)
	case "create":
		return parseSetupTask(tok)
	case "attach":
		if len(tok) != 5 {
			return SetupCommand{}, errors.New("want: attach X1 Y1 X2 Y2")
		}
		at, err := setupCell(tok[1], tok[2])
		if err != nil {
			return SetupCommand{}, err
		}
		to, err := setupCell(tok[3], tok[4])
		return SetupCommand{Op: SetupAttach, At: at, To: to}, err
	case "terrain":
		if len(tok) != 4 {
			return SetupCommand{}, errors.New("want: terrain X Y obstacle|goal|role")
		}
		at, err := setupCell(tok[1], tok[2])
		if err != nil {
			return SetupCommand{}, err
		}
		ops := map[string]SetupOp{"obstacle": SetupObstacle, "goal": SetupGoalZone, "role": SetupRoleZone}
		op, ok := ops[strings.ToLower(tok[3])]
		if !ok {
			return SetupCommand{}, fmt.Errorf("unknown terrain %q (want obstacle, goal or role)", tok[3])
		}
		return SetupCommand{Op: op, At: at}, nil
	}
	return SetupCommand{}, fmt.Errorf("unknown command %q (want move, add, create, attach or terrain)", tok[0])
}

func parseSetupAdd(tok []string) (SetupCommand, error) {
	if len(tok) >= 4 && tok[3] != "block" && tok[3] != "dispenser" {
		return SetupCommand{}, fmt.Errorf("cannot add %q: only block and dispenser", tok[3])
	}
	if len(tok) != 5 {
		return SetupCommand{}, errors.New("want: add X Y block|dispenser TYPE")
	}
	at, err := setupCell(tok[1], tok[2])
	op := SetupAddBlock
	if tok[3] == "dispenser" {
		op = SetupAddDispenser
	}
	return SetupCommand{Op: op, At: at, Type: tok[4]}, err
}

func parseSetupTask(tok []string) (SetupCommand, error) {
	if len(tok) != 5 || tok[1] != "task" {
		return SetupCommand{}, errors.New("want: create task NAME DURATION X,Y,TYPE;…")
	}
	duration, err := strconv.Atoi(tok[3])
	if err != nil || duration < 1 {
		return SetupCommand{}, fmt.Errorf("task duration %q: want an integer of at least 1", tok[3])
	}
	cmd := SetupCommand{Op: SetupCreateTask, Name: tok[2], Duration: duration}
	seen := map[Pos]bool{}
	for _, item := range strings.Split(tok[4], ";") {
		parts := strings.Split(item, ",")
		if len(parts) != 3 || parts[2] == "" {
			return SetupCommand{}, fmt.Errorf("task requirement %q: want X,Y,TYPE", item)
		}
		pos, err := setupCell(parts[0], parts[1])
		if err != nil {
			return SetupCommand{}, fmt.Errorf("task requirement %q: %w", item, err)
		}
		if pos == (Pos{}) {
			return SetupCommand{}, fmt.Errorf("task requirement %q: (0,0) is the agent's own cell", item)
		}
		if seen[pos] {
			return SetupCommand{}, fmt.Errorf("task requirement %q: position used twice", item)
		}
		seen[pos] = true
		cmd.Requirements = append(cmd.Requirements, SetupRequirement{Pos: pos, Type: parts[2]})
	}
	return cmd, nil
}

func setupCell(xs, ys string) (Pos, error) {
	x, errX := strconv.Atoi(xs)
	y, errY := strconv.Atoi(ys)
	if errX != nil || errY != nil {
		return Pos{}, fmt.Errorf("coordinates %q %q: want integers", xs, ys)
	}
	return Pos{x, y}, nil
}

// runSetup applies the setup commands at step -1 (docs/rules.md, "Setting up a
// simulation", item 8). A command that cannot be applied is skipped and
// recorded as a warning; the rest of the file still applies.
func (w *World) runSetup(cmds []SetupCommand) {
	for _, c := range cmds {
		if err := w.applySetup(c); err != nil {
			w.setupWarnings = append(w.setupWarnings, SetupWarning{File: c.File, Line: c.Line, Reason: err.Error()})
		}
	}
}

// SetupWarnings lists the setup lines this world skipped, in file order.
func (w *World) SetupWarnings() []SetupWarning { return slices.Clone(w.setupWarnings) }

func (w *World) applySetup(c SetupCommand) error {
	if c.Op == SetupSkip {
		return errors.New(c.Reason)
	}
	for _, p := range []Pos{c.At, c.To} {
		if p.X < 0 || p.Y < 0 || p.X >= w.g.w || p.Y >= w.g.h {
			return fmt.Errorf("cell (%d,%d) is outside the %dx%d grid", p.X, p.Y, w.g.w, w.g.h)
		}
	}
	switch c.Op {
	case SetupMove:
		return w.setupMove(c)
	case SetupAddBlock, SetupObstacle:
		if err := w.setupFree(c.At); err != nil {
			return err
		}
		if c.Op == SetupObstacle {
			w.things.add(KindObstacle, c.At, "")
			return nil
		}
		if err := w.knownBlockType(c.Type); err != nil {
			return err
		}
		w.things.add(KindBlock, c.At, c.Type)
	case SetupAddDispenser:
		if err := w.knownBlockType(c.Type); err != nil {
			return err
		}
		if w.things.dispenser(c.At) != nil {
			return fmt.Errorf("cell (%d,%d) already has a dispenser", c.At.X, c.At.Y)
		}
		w.things.add(KindDispenser, c.At, c.Type)
	case SetupCreateTask:
		reqs := make([]requirement, len(c.Requirements))
		for i, r := range c.Requirements {
			reqs[i] = requirement{pos: r.Pos, typ: r.Type}
		}
		return w.createSetupTask(c.Name, c.Duration, reqs)
	case SetupAttach:
		return w.setupAttach(c.At, c.To)
	case SetupGoalZone:
		w.addZone(&w.goalZones, w.goalCover, c.At, 1)
	case SetupRoleZone:
		w.addZone(&w.roleZones, w.roleCover, c.At, 1)
	default:
		return fmt.Errorf("unknown setup operation %d", c.Op)
	}
	return nil
}

func (w *World) setupMove(c SetupCommand) error {
	e := w.byName[c.Name]
	if e == nil {
		return fmt.Errorf("no agent %s in this simulation", c.Name)
	}
	if len(e.t.links) > 0 {
		return fmt.Errorf("agent %s has attachments and cannot be moved", c.Name)
	}
	if e.t.pos == c.At && w.things.unique(c.At) == e.t {
		return nil // already there, alone
	}
	if err := w.setupFree(c.At); err != nil {
		return err
	}
	w.things.moveTo(e.t, c.At)
	return nil
}

func (w *World) setupAttach(a, b Pos) error {
	ta, tb := w.things.unique(a), w.things.unique(b)
	if ta == nil || tb == nil {
		return fmt.Errorf("cells (%d,%d) and (%d,%d) must each hold exactly one entity, block or obstacle", a.X, a.Y, b.X, b.Y)
	}
	if w.g.distance(a, b) != 1 {
		return fmt.Errorf("cells (%d,%d) and (%d,%d) are not adjacent", a.X, a.Y, b.X, b.Y)
	}
	if n := w.unionSize(ta, tb); n > w.p.AttachLimit {
		return fmt.Errorf("the structure would hold %d things, more than attachLimit %d", n, w.p.AttachLimit)
	}
	w.things.link(ta, tb)
	return nil
}

func (w *World) setupFree(p Pos) error {
	if w.things.occupied(p) {
		return fmt.Errorf("cell (%d,%d) is occupied", p.X, p.Y)
	}
	return nil
}

func (w *World) knownBlockType(typ string) error {
	for _, t := range w.blockTypes {
		if t == typ {
			return nil
		}
	}
	return fmt.Errorf("unknown block type %s (types: %s)", typ, strings.Join(w.blockTypes, ", "))
}
