package codec

import (
	"fmt"

	"github.com/massim-go/massim/scenario"
)

// Decoder applies records in order and returns the world after each. It
// must start with a keyframe; a delta applies to the step decoded last.
type Decoder struct {
	grid  grid
	table []string
	prev  *scenario.Snapshot
}

// NewDecoder decodes the records of a simulation on a width×height grid.
func NewDecoder(width, height int) *Decoder { return &Decoder{grid: grid{w: width, h: height}} }

// Reset forgets the current world: the next record must be a keyframe.
func (d *Decoder) Reset() { d.prev, d.table = nil, nil }

// Table is the string table after the last record.
func (d *Decoder) Table() []string { return d.table[:len(d.table):len(d.table)] }

// Kind returns the kind of a record without decoding it.
func Kind(rec []byte) byte {
	if len(rec) == 0 {
		return 0
	}
	return rec[0]
}

// Decode reads one record. On error the decoder is unchanged.
func (d *Decoder) Decode(rec []byte) (Step, error) {
	src := &source{b: rec}
	kind := src.byte1()
	if kind != KindKeyframe && kind != KindDelta {
		src.fail("unknown record kind %q", kind)
		return Step{}, src.err
	}
	if kind == KindDelta && d.prev == nil {
		return Step{}, fmt.Errorf("%w: a delta without the keyframe before it", ErrCorrupt)
	}
	table := d.table
	if kind == KindKeyframe {
		table = nil
	}
	n := src.count()
	if src.err == nil {
		table = append(table[:len(table):len(table)], make([]string, 0, n)...)
		for range n {
			table = append(table, src.text())
		}
	}
	snap := &scenario.Snapshot{Step: src.smallInt()}
	if kind == KindKeyframe {
		d.keyframe(src, table, snap)
	} else {
		d.delta(src, table, snap)
	}
	answers := getAnswers(src, table, len(snap.Entities))
	if src.err == nil && !src.done() {
		src.fail("%d bytes after the record", len(src.b)-src.off)
	}
	if src.err != nil {
		return Step{}, fmt.Errorf("step record: %w", src.err)
	}
	applyAnswers(snap, answers)
	d.table, d.prev = table, snap
	return Step{Snapshot: snap, Answers: answers, Keyframe: kind == KindKeyframe}, nil
}

func (d *Decoder) keyframe(src *source, table []string, snap *scenario.Snapshot) {
	g := d.grid
	snap.Entities = getEntities(src, g, table)
	snap.Blocks = blockSnapshots(getThings(src, g, table, true))
	snap.Obstacles = obstacleSnapshots(getThings(src, g, table, false))
	snap.Dispensers = dispenserSnapshots(getThings(src, g, table, true))
	snap.GoalZones = getZones(src)
	snap.RoleZones = getZones(src)
	snap.Clear = getZones(src)
	snap.Tasks = getTasks(src, table)
	snap.Norms = getNorms(src, table)
	snap.Violations = getViolations(src, table)
	snap.Scores = getScores(src, table)
	snap.Events = getLogEvents(src, table)
}

func (d *Decoder) delta(src *source, table []string, snap *scenario.Snapshot) {
	g, p := d.grid, d.prev
	if snap.Step != p.Step+1 && src.err == nil {
		src.fail("delta of step %d after step %d", snap.Step, p.Step)
	}
	mask := src.uint()
	if mask >= 1<<numSections {
		src.fail("bad section mask %#x", mask)
	}
	has := func(i int) bool { return mask&(1<<i) != 0 && src.err == nil }
	*snap = scenario.Snapshot{Step: snap.Step, Entities: p.Entities, Blocks: p.Blocks, Obstacles: p.Obstacles,
		Dispensers: p.Dispensers, GoalZones: p.GoalZones, RoleZones: p.RoleZones, Clear: p.Clear, Tasks: p.Tasks,
		Norms: p.Norms, Violations: p.Violations, Scores: p.Scores, Events: p.Events}
	if has(secEntities) {
		snap.Entities = applyEntityChanges(src, g, table, p.Entities)
	} else {
		snap.Entities = clearedEntities(p.Entities)
	}
	if has(secBlocks) {
		snap.Blocks = blockSnapshots(applyThingChanges(src, g, table, blockThings(p.Blocks), true))
	}
	if has(secObstacles) {
		snap.Obstacles = obstacleSnapshots(applyThingChanges(src, g, table, obstacleThings(p.Obstacles), false))
	}
	if has(secDispensers) {
		snap.Dispensers = dispenserSnapshots(applyThingChanges(src, g, table, dispenserThings(p.Dispensers), true))
	}
	if has(secGoalZones) {
		snap.GoalZones = getZones(src)
	}
	if has(secRoleZones) {
		snap.RoleZones = getZones(src)
	}
	if has(secClear) {
		snap.Clear = getZones(src)
	}
	if has(secTasks) {
		snap.Tasks = getTasks(src, table)
	}
	if has(secNorms) {
		snap.Norms = getNorms(src, table)
	}
	if has(secViolations) {
		snap.Violations = getViolations(src, table)
	}
	if has(secScores) {
		snap.Scores = getScores(src, table)
	}
	if has(secEvents) {
		snap.Events = getLogEvents(src, table)
	}
}

// clearedEntities copies the entities for a step in which none changed
// (their actions are filled in from the answers; events are of one step).
func clearedEntities(es []scenario.EntitySnapshot) []scenario.EntitySnapshot {
	out := make([]scenario.EntitySnapshot, len(es))
	copy(out, es)
	for i := range out {
		out[i].Events = nil
	}
	return out
}

func getAnswers(src *source, table []string, entities int) []Answer {
	switch src.byte1() {
	case 0:
		return nil
	case 1:
	default:
		src.fail("bad answers flag")
		return nil
	}
	out := make([]Answer, entities)
	for i := range out {
		k := src.byte1()
		a := Answer{Kind: AnswerKind(k &^ lateFlag)}
		if a.Kind > AnswerUnrecorded || k&^lateFlag&0xe0 != 0 {
			src.fail("bad answer kind %d", k)
			return nil
		}
		if a.Kind == AnswerInTime || a.Kind == AnswerUnrecorded {
			a.Action = getAction(src, table)
		}
		if k&lateFlag != 0 {
			late := getAction(src, table)
			a.LatePrevious = &late
		}
		out[i] = a
	}
	return out
}

func getAction(src *source, table []string) Action {
	return Action{Name: src.str(table), Params: src.strList(table)}
}

// applyAnswers fills in the entities' action fields.
func applyAnswers(snap *scenario.Snapshot, answers []Answer) {
	for i := range snap.Entities {
		e := &snap.Entities[i]
		if answers == nil {
			e.Action, e.ActionParams = "", []string{}
			continue
		}
		name, params := executed(&answers[i])
		e.Action, e.ActionParams = name, params
		if e.ActionParams == nil {
			e.ActionParams = []string{}
		}
	}
}

func blockSnapshots(ts []thing) []scenario.BlockSnapshot {
	if ts == nil {
		return nil
	}
	out := make([]scenario.BlockSnapshot, len(ts))
	for i, t := range ts {
		out[i] = scenario.BlockSnapshot{ID: t.id, Pos: t.pos, Type: t.typ, Attached: t.attached}
	}
	return out
}

func obstacleSnapshots(ts []thing) []scenario.ObstacleSnapshot {
	if ts == nil {
		return nil
	}
	out := make([]scenario.ObstacleSnapshot, len(ts))
	for i, t := range ts {
		out[i] = scenario.ObstacleSnapshot{ID: t.id, Pos: t.pos, Attached: t.attached}
	}
	return out
}

func dispenserSnapshots(ts []thing) []scenario.DispenserSnapshot {
	if ts == nil {
		return nil
	}
	out := make([]scenario.DispenserSnapshot, len(ts))
	for i, t := range ts {
		out[i] = scenario.DispenserSnapshot{ID: t.id, Pos: t.pos, Type: t.typ}
	}
	return out
}
