package scenario

// attach is the attach action (docs/rules.md, "attach").
func (w *World) attach(e *entity, params []string) string {
	d, ok := dirParam(params, 0)
	if !ok {
		return ResultFailedParameter
	}
	target := w.things.unique(w.neighbour(e.t, d))
	if target == nil || w.opponent(e, target) {
		return ResultFailedTarget
	}
	own := w.structureOf(e.t)
	other := w.secondStructure(own, target)
	for _, t := range other.items {
		if w.opponent(e, t) {
			return ResultFailedBlocked
		}
	}
	size := own.size()
	if other.stamp != own.stamp {
		size += other.size()
	}
	if size > w.p.AttachLimit {
		return ResultFailed
	}
	w.things.link(e.t, target)
	return ResultSuccess
}

// detach is the detach action (docs/rules.md, "detach"): only the direct link between agent and thing goes.
func (w *World) detach(e *entity, params []string) string {
	d, ok := dirParam(params, 0)
	if !ok {
		return ResultFailedParameter
	}
	target := w.things.unique(w.neighbour(e.t, d))
	if target == nil || w.opponent(e, target) {
		return ResultFailedTarget
	}
	if !w.things.unlink(e.t, target) {
		return ResultFailed
	}
	return ResultSuccess
}

// opponent reports whether t is an entity of another team than e.
func (w *World) opponent(e *entity, t *thing) bool {
	return t.kind == KindEntity && t.entity.team != e.team
}
