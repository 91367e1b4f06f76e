package scenario

import "github.com/massim-go/massim/protocol"

// connect is the connect action (docs/rules.md, "connect"): two agents of a team each name the other in the same
// step; whichever comes first in the second pass evaluates the pair and both
// get its result.
func (w *World) connect(e *entity, params []string) string {
	name, _ := param(params, 0)
	partner := w.byName[name]
	own, ok := offsetParams(params, 1)
	if partner == nil || !ok || partner.team != e.team {
		return protocol.ResultFailedParameter
	}
	if partner.result != resultUnprocessed || partner.action != protocol.ActionConnect {
		return protocol.ResultFailedPartner
	}
	if named, _ := param(partner.actionParams, 0); named != e.name {
		return protocol.ResultFailedPartner
	}
	theirs, ok := offsetParams(partner.actionParams, 1)
	if !ok {
		partner.result = protocol.ResultFailedParameter
		return protocol.ResultFailedPartner
	}
	result := w.connectBlocks(e, own, partner, theirs)
	partner.result = result
	return result
}

// connectBlocks is the joint evaluation of docs/rules.md, "connect" (checks 5–10).
func (w *World) connectBlocks(e *entity, own Pos, partner *entity, theirs Pos) string {
	b1 := w.things.unique(w.g.wrap(e.t.pos.Add(own)))
	b2 := w.things.unique(w.g.wrap(partner.t.pos.Add(theirs)))
	if b1 == nil || b2 == nil || b1.kind != KindBlock || b2.kind != KindBlock {
		return protocol.ResultFailedTarget
	}
	mine := w.structureOf(e.t)
	if mine.has(partner.t) {
		return protocol.ResultFailed
	}
	if !mine.has(b1) || mine.has(b2) {
		return protocol.ResultFailedTarget
	}
	// The partner is outside mine, so its structure is disjoint from it.
	yours := w.secondStructure(mine, partner.t)
	if !yours.has(b2) || yours.has(b1) {
		return protocol.ResultFailedTarget
	}
	if w.g.distance(b1.pos, b2.pos) != 1 || mine.size()+yours.size() > w.p.AttachLimit {
		return protocol.ResultFailed
	}
	w.things.link(b1, b2)
	return protocol.ResultSuccess
}

// disconnect is the disconnect action (docs/rules.md, "disconnect"): any direct link inside the agent's structure can be cut.
func (w *World) disconnect(e *entity, params []string) string {
	p1, ok1 := offsetParams(params, 0)
	p2, ok2 := offsetParams(params, 2)
	if !ok1 || !ok2 {
		return protocol.ResultFailedParameter
	}
	a := w.things.unique(w.g.wrap(e.t.pos.Add(p1)))
	b := w.things.unique(w.g.wrap(e.t.pos.Add(p2)))
	if a == nil || b == nil {
		return protocol.ResultFailedTarget
	}
	s := w.structureOf(e.t)
	if !s.has(a) || !s.has(b) {
		return protocol.ResultFailedTarget
	}
	if w.g.distance(a.pos, b.pos) != 1 || !w.things.unlink(a, b) {
		return protocol.ResultFailedTarget
	}
	return protocol.ResultSuccess
}
