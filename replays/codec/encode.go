package codec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/massim-go/massim/scenario"
)

// Sections of the world, in record order; a delta's section mask has bit i
// set when section i follows.
const (
	secEntities = iota
	secBlocks
	secObstacles
	secDispensers
	secGoalZones
	secRoleZones
	secClear
	secTasks
	secNorms
	secViolations
	secScores
	secEvents
	numSections
)

// Encoder turns the snapshots of one simulation, in step order, into
// records. It keeps the previous snapshot (never modified, as every
// snapshot) and the string table.
type Encoder struct {
	grid     grid
	interval int
	prev     *scenario.Snapshot
	in       *interner
	// The lists of blocks, obstacles and dispensers last found in id order.
	blocks, obstacles, dispensers orderMemo
	body, secs                    sink      // scratch buffers, reused for every record
	delta                         listDelta // scratch for the hinted lists
	keyScratch                    keyScratch
	// NoHints makes the encoder compare whole lists even when the
	// snapshots carry the world's change lists (tests compare both ways).
	NoHints bool
}

// NewEncoder starts the records of a simulation on a width×height grid with
// a keyframe every interval steps (DefaultInterval if ≤ 0).
func NewEncoder(width, height, interval int) *Encoder {
	if interval <= 0 {
		interval = DefaultInterval
	}
	return &Encoder{grid: grid{w: width, h: height}, interval: interval}
}

// Previous is the snapshot the next delta is computed from (nil before the
// first record and after Reset); the encoder reads no older one.
func (e *Encoder) Previous() *scenario.Snapshot { return e.prev }

// Interval is the keyframe interval.
func (e *Encoder) Interval() int { return e.interval }

// Reset makes the next record a keyframe (after a gap in the steps).
func (e *Encoder) Reset() {
	e.prev = nil
	e.blocks, e.obstacles, e.dispensers = orderMemo{}, orderMemo{}, orderMemo{}
}

// Table is the current string table. The returned slice is never modified
// (the encoder only appends beyond its length or starts a new one), so it
// may be read on other goroutines, e.g. by EncodeKeyframe.
func (e *Encoder) Table() []string {
	if e.in == nil {
		return nil
	}
	return e.in.list[:len(e.in.list):len(e.in.list)]
}

// ErrAnswers is returned (wrapped) when the answers given to Encode do not
// match the actions the snapshot shows; the record then stores the
// snapshot's actions as unrecorded.
var ErrAnswers = errors.New("codec: answers do not match the snapshot")

// Encode appends the record of snap to dst: a keyframe at the scheduled
// steps and after Reset, else a delta from the previous snapshot. answers
// holds every entity's answer in snapshot order; nil means unrecorded (the
// actions are taken from the snapshot). The record is complete even when
// the error is ErrAnswers.
func (e *Encoder) Encode(dst []byte, snap *scenario.Snapshot, answers []Answer) ([]byte, bool, error) {
	var warn error
	if answers == nil {
		answers = unrecorded(snap)
	} else if !consistent(snap, answers) {
		warn = fmt.Errorf("%w (step %d)", ErrAnswers, snap.Step)
		answers = unrecorded(snap)
	}
	key := e.prev == nil || IsKeyframeStep(snap.Step, e.interval) || snap.Step != e.prev.Step+1
	if key {
		e.in = newInterner()
		dst = encodeKeyframe(dst, e.grid, e.in, snap, answers, &e.keyScratch)
	} else {
		dst = e.encodeDelta(dst, snap, answers)
	}
	e.prev = snap
	return dst, key, warn
}

// EncodeKeyframe appends a keyframe of snap that continues table (from
// Table after snap was encoded): viewers that start with it can decode the
// encoder's following deltas.
func EncodeKeyframe(dst []byte, width, height int, table []string, snap *scenario.Snapshot, answers []Answer) []byte {
	if answers == nil || !consistent(snap, answers) {
		answers = unrecorded(snap)
	}
	return encodeKeyframe(dst, grid{w: width, h: height}, fromTable(table), snap, answers, &keyScratch{})
}

// keyScratch is the memory a keyframe is built in; an Encoder keeps one
// for its keyframes (a big map's keyframe is tens of KB).
type keyScratch struct {
	body   sink
	things []thing
}

func encodeKeyframe(dst []byte, g grid, in *interner, snap *scenario.Snapshot, answers []Answer, k *keyScratch) []byte {
	body := &k.body
	body.b = body.b[:0]
	body.int(int64(snap.Step))
	putEntities(body, g, in, snap.Entities)
	k.things = appendThings(k.things[:0], snap.Blocks, blockThing)
	putThings(body, g, in, k.things, true)
	k.things = appendThings(k.things[:0], snap.Obstacles, obstacleThing)
	putThings(body, g, in, k.things, false)
	k.things = appendThings(k.things[:0], snap.Dispensers, dispenserThing)
	putThings(body, g, in, k.things, true)
	putZones(body, snap.GoalZones)
	putZones(body, snap.RoleZones)
	putZones(body, snap.Clear)
	putTasks(body, in, snap.Tasks)
	putNorms(body, in, snap.Norms)
	putViolations(body, in, snap.Violations)
	putScores(body, in, snap.Scores)
	putLogEvents(body, in, snap.Events)
	putAnswers(body, in, answers)
	in.seen = len(in.list)
	return frame(dst, KindKeyframe, in.list, body.b) // a keyframe lists the whole table
}

func (e *Encoder) encodeDelta(dst []byte, snap *scenario.Snapshot, answers []Answer) []byte {
	prev, in, g := e.prev, e.in, e.grid
	body, secs := &e.body, &e.secs
	body.b, secs.b = body.b[:0], secs.b[:0]
	mask := uint64(0)
	section := func(i int, changed bool, put func()) {
		if changed {
			mask |= 1 << i
			put()
		}
	}
	section(secEntities, true, func() { putEntityChanges(secs, g, in, prev.Entities, snap.Entities) })
	if e.hinted(prev, snap) {
		// The world says which blocks and obstacles may have changed: only
		// those are compared (the same bytes as comparing the whole lists).
		hintedChanges(&e.delta, g, prev.Blocks, snap.Blocks, blockThing, snap.ThingsChanged, true)
		section(secBlocks, e.delta.differs, func() { secs.byte1(0); e.delta.put(secs, g, in, true) })
		hintedChanges(&e.delta, g, prev.Obstacles, snap.Obstacles, obstacleThing, snap.ThingsChanged, false)
		section(secObstacles, e.delta.differs, func() { secs.byte1(0); e.delta.put(secs, g, in, false) })
	} else {
		section(secBlocks, !sameThings(prev.Blocks, snap.Blocks), func() {
			putSnapshotChanges(secs, g, in, &e.blocks, prev.Blocks, snap.Blocks, blockThing, blockThings, true)
		})
		section(secObstacles, !sameObstacles(prev.Obstacles, snap.Obstacles), func() {
			putSnapshotChanges(secs, g, in, &e.obstacles, prev.Obstacles, snap.Obstacles, obstacleThing, obstacleThings, false)
		})
	}
	section(secDispensers, !sameDispensers(prev.Dispensers, snap.Dispensers), func() {
		putSnapshotChanges(secs, g, in, &e.dispensers, prev.Dispensers, snap.Dispensers, dispenserThing, dispenserThings, true)
	})
	section(secGoalZones, !sameZones(prev.GoalZones, snap.GoalZones), func() { putZones(secs, snap.GoalZones) })
	section(secRoleZones, !sameZones(prev.RoleZones, snap.RoleZones), func() { putZones(secs, snap.RoleZones) })
	section(secClear, !sameZones(prev.Clear, snap.Clear), func() { putZones(secs, snap.Clear) })
	section(secTasks, !sameTasks(prev.Tasks, snap.Tasks), func() { putTasks(secs, in, snap.Tasks) })
	section(secNorms, !sameNorms(prev.Norms, snap.Norms), func() { putNorms(secs, in, snap.Norms) })
	section(secViolations, !sameViolations(prev.Violations, snap.Violations), func() { putViolations(secs, in, snap.Violations) })
	section(secScores, !sameScores(prev.Scores, snap.Scores), func() { putScores(secs, in, snap.Scores) })
	section(secEvents, !sameLogEvents(prev.Events, snap.Events), func() { putLogEvents(secs, in, snap.Events) })
	body.int(int64(snap.Step))
	body.uint(mask)
	body.raw(secs.b)
	putAnswers(body, in, answers)
	return frame(dst, KindDelta, in.fresh(), body.b)
}

// hinted reports whether snap's change list of things is relative to prev:
// both come from the same world, one snapshot after the other. Lists of a
// world's snapshots are in ascending id order.
func (e *Encoder) hinted(prev, snap *scenario.Snapshot) bool {
	return !e.NoHints && snap.ThingsSince != 0 && snap.ThingsSince == prev.Seq
}

// frame writes a record: kind, the strings it adds to the table, body.
func frame(dst []byte, kind byte, strs []string, body []byte) []byte {
	n := 1 + binary.MaxVarintLen64 + len(body) // the record's size, at most
	for _, x := range strs {
		n += binary.MaxVarintLen64 + len(x)
	}
	s := sink{b: slices.Grow(dst, n)} // one allocation, not one per doubling
	s.byte1(kind)
	s.count(len(strs))
	for _, x := range strs {
		s.text(x)
	}
	s.raw(body)
	return s.b
}

// putAnswers writes the answers: 0 for none (the initial step), else 1 and
// one entry per entity.
func putAnswers(s *sink, in *interner, answers []Answer) {
	if answers == nil {
		s.byte1(0)
		return
	}
	s.byte1(1)
	for _, a := range answers {
		kind := byte(a.Kind)
		if a.LatePrevious != nil {
			kind |= lateFlag
		}
		s.byte1(kind)
		if a.Kind == AnswerInTime || a.Kind == AnswerUnrecorded {
			putAction(s, in, a.Action)
		}
		if a.LatePrevious != nil {
			putAction(s, in, *a.LatePrevious)
		}
	}
}

// lateFlag marks an answer entry followed by a late answer to the previous step.
const lateFlag = 0x10

func putAction(s *sink, in *interner, a Action) {
	s.str(in, a.Name)
	s.strList(in, a.Params)
}
