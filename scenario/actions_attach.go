package scenario

import "github.com/massim-go/massim/protocol"

// attach is the attach action (docs/rules.md, "attach").
func (w *World) attach(e *entity, params []string) string {
	target, failure := w.linkTarget(e, params)
	if failure != "" {
		return failure
	}
	own := w.structureOf(e.t)
	other := w.secondStructure(own, target)
	for _, t := range other.items {
		if w.opponent(e, t) {
			return protocol.ResultFailedBlocked
		}
	}
	size := own.size()
	if other.stamp != own.stamp {
		size += other.size()
	}
	if size > w.p.AttachLimit {
		return protocol.ResultFailed
	}
	w.things.link(e.t, target)
	return protocol.ResultSuccess
}

// detach is the detach action (docs/rules.md, "detach"): only the direct link between agent and thing goes.
func (w *World) detach(e *entity, params []string) string {
	target, failure := w.linkTarget(e, params)
	if failure != "" {
		return failure
	}
	if !w.things.unlink(e.t, target) {
		return protocol.ResultFailed
	}
	return protocol.ResultSuccess
}

// linkTarget is the thing attach and detach act on: the one next to e in
// the direction of the first parameter, if it is not an opponent. Otherwise
// failure is the result code.
func (w *World) linkTarget(e *entity, params []string) (target *thing, failure string) {
	d, ok := dirParam(params, 0)
	if !ok {
		return nil, protocol.ResultFailedParameter
	}
	target = w.things.unique(w.neighbour(e.t, d))
	if target == nil || w.opponent(e, target) {
		return nil, protocol.ResultFailedTarget
	}
	return target, ""
}

// opponent reports whether t is an entity of another team than e.
func (w *World) opponent(e *entity, t *thing) bool {
	return t.kind == KindEntity && t.entity.team != e.team
}
