package codec

import (
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
)

// Entity delta fields. The action fields are not among them: they follow
// from the answers of the record.
const (
	entPos uint64 = 1 << iota
	entRole
	entEnergy
	entVision
	entDeactivated
	entResult
	entAttached
	entEvents
)

func putEntities(s *sink, g grid, in *interner, es []scenario.EntitySnapshot) {
	s.count(len(es))
	prevID := 0
	for _, e := range es {
		s.int(int64(e.ID - prevID))
		prevID = e.ID
		s.str(in, e.Name)
		s.str(in, e.Team)
		putPos(s, e.Pos)
		s.str(in, e.Role)
		s.int(int64(e.Energy))
		s.int(int64(e.Vision))
		s.bool(e.Deactivated)
		s.str(in, e.ActionResult)
		g.putAttached(s, e.Pos, e.Attached)
		putEvents(s, in, e.Events)
	}
}

func getEntities(src *source, g grid, table []string) []scenario.EntitySnapshot {
	n := src.count()
	out := make([]scenario.EntitySnapshot, 0, n)
	prevID := 0
	for range n {
		e := scenario.EntitySnapshot{ID: prevID + src.smallInt()}
		prevID = e.ID
		e.Name = src.str(table)
		e.Team = src.str(table)
		e.Pos = getPos(src)
		e.Role = src.str(table)
		e.Energy = src.smallInt()
		e.Vision = src.smallInt()
		e.Deactivated = src.bool()
		e.ActionResult = src.str(table)
		e.Attached = g.attached(src, e.Pos)
		e.Events = getEvents(src, table)
		if src.err != nil {
			return nil
		}
		out = append(out, e)
	}
	return out
}

// sameRoster reports whether two entity lists hold the same agents in the
// same order, so that the second can be written as changes of the first.
func sameRoster(a, b []scenario.EntitySnapshot) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i] // not copies: an entity record is ~200 bytes
		if x.ID != y.ID || x.Name != y.Name || x.Team != y.Team {
			return false
		}
	}
	return true
}

func putEntityChanges(s *sink, g grid, in *interner, a, b []scenario.EntitySnapshot) {
	if !sameRoster(a, b) {
		s.byte1(1)
		putEntities(s, g, in, b)
		return
	}
	s.byte1(0)
	for i := range b {
		x, y := &a[i], &b[i]
		var m uint64
		if x.Pos != y.Pos {
			m |= entPos
		}
		if x.Role != y.Role {
			m |= entRole
		}
		if x.Energy != y.Energy {
			m |= entEnergy
		}
		if x.Vision != y.Vision {
			m |= entVision
		}
		if x.Deactivated != y.Deactivated {
			m |= entDeactivated
		}
		if x.ActionResult != y.ActionResult {
			m |= entResult
		}
		if !g.sameAttached(x.Pos, x.Attached, y.Pos, y.Attached) {
			m |= entAttached
		}
		if len(x.Events) > 0 || len(y.Events) > 0 {
			m |= entEvents // events are of one step: written whenever there are any
		}
		s.uint(m)
		if m&entPos != 0 {
			g.putMove(s, x.Pos, y.Pos)
		}
		if m&entRole != 0 {
			s.str(in, y.Role)
		}
		if m&entEnergy != 0 {
			s.int(int64(y.Energy - x.Energy))
		}
		if m&entVision != 0 {
			s.int(int64(y.Vision))
		}
		if m&entDeactivated != 0 {
			s.bool(y.Deactivated)
		}
		if m&entResult != 0 {
			s.str(in, y.ActionResult)
		}
		if m&entAttached != 0 {
			g.putAttached(s, y.Pos, y.Attached)
		}
		if m&entEvents != 0 {
			putEvents(s, in, y.Events)
		}
	}
}

func applyEntityChanges(src *source, g grid, table []string, a []scenario.EntitySnapshot) []scenario.EntitySnapshot {
	switch src.byte1() {
	case 1:
		return getEntities(src, g, table)
	case 0:
	default:
		src.fail("bad entity list mode")
		return nil
	}
	out := make([]scenario.EntitySnapshot, len(a))
	for i := range a {
		e := a[i]
		m := src.uint()
		if m&entPos != 0 {
			e.Pos = g.move(src, a[i].Pos)
		}
		if m&entRole != 0 {
			e.Role = src.str(table)
		}
		if m&entEnergy != 0 {
			e.Energy += src.smallInt()
		}
		if m&entVision != 0 {
			e.Vision = src.smallInt()
		}
		if m&entDeactivated != 0 {
			e.Deactivated = src.bool()
		}
		if m&entResult != 0 {
			e.ActionResult = src.str(table)
		}
		if m&entAttached != 0 {
			e.Attached = g.attached(src, e.Pos)
		} else if m&entPos != 0 && len(e.Attached) > 0 {
			e.Attached = translate(g, e.Attached, a[i].Pos, e.Pos)
		}
		e.Events = nil
		if m&entEvents != 0 {
			e.Events = getEvents(src, table)
		}
		if src.err != nil {
			return nil
		}
		out[i] = e
	}
	return out
}

// Event fields present (the optional keys of a percept event).
const (
	evOrigin byte = 1 << iota
	evDamage
	evTarget
	evDistance
	evName
	evRole
	evEnergy
)

func putEvents(s *sink, in *interner, evs []protocol.Event) {
	s.count(len(evs))
	for _, ev := range evs {
		s.str(in, ev.Type)
		var m byte
		if ev.Origin != nil {
			m |= evOrigin
		}
		if ev.Damage != nil {
			m |= evDamage
		}
		if ev.Target != "" {
			m |= evTarget
		}
		if ev.Distance != nil {
			m |= evDistance
		}
		if ev.Name != "" {
			m |= evName
		}
		if ev.Role != "" {
			m |= evRole
		}
		if ev.Energy != nil {
			m |= evEnergy
		}
		s.byte1(m)
		if ev.Origin != nil {
			putPos(s, *ev.Origin)
		}
		if ev.Damage != nil {
			s.int(int64(*ev.Damage))
		}
		if ev.Target != "" {
			s.str(in, ev.Target)
		}
		if ev.Distance != nil {
			s.int(int64(*ev.Distance))
		}
		if ev.Name != "" {
			s.str(in, ev.Name)
		}
		if ev.Role != "" {
			s.str(in, ev.Role)
		}
		if ev.Energy != nil {
			s.int(int64(*ev.Energy))
		}
	}
}

func getEvents(src *source, table []string) []protocol.Event {
	n := src.count()
	if n == 0 {
		return nil
	}
	out := make([]protocol.Event, 0, n)
	for range n {
		ev := protocol.Event{Type: src.str(table)}
		m := src.byte1()
		num := func() *int { v := src.smallInt(); return &v }
		if m&evOrigin != 0 {
			p := getPos(src)
			ev.Origin = &p
		}
		if m&evDamage != 0 {
			ev.Damage = num()
		}
		if m&evTarget != 0 {
			ev.Target = src.str(table)
		}
		if m&evDistance != 0 {
			ev.Distance = num()
		}
		if m&evName != 0 {
			ev.Name = src.str(table)
		}
		if m&evRole != 0 {
			ev.Role = src.str(table)
		}
		if m&evEnergy != 0 {
			ev.Energy = num()
		}
		if m >= evEnergy<<1 {
			src.fail("bad event fields")
		}
		if src.err != nil {
			return nil
		}
		out = append(out, ev)
	}
	return out
}
