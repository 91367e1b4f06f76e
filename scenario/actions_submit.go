package scenario

import "github.com/massim-go/massim/protocol"

// request is the request action (docs/rules.md, "request"): a new, unattached block on a free dispenser cell.
func (w *World) request(e *entity, params []string) string {
	d, ok := dirParam(params, 0)
	if !ok {
		return protocol.ResultFailedParameter
	}
	cell := w.neighbour(e.t, d)
	disp := w.things.dispenser(cell)
	if disp == nil {
		return protocol.ResultFailedTarget
	}
	if w.things.occupied(cell) {
		return protocol.ResultFailedBlocked
	}
	w.things.add(KindBlock, cell, disp.typ)
	return protocol.ResultSuccess
}

// submit is the submit action (docs/rules.md, "submit"): the requirement blocks, in the agent's own frame and held
// through its structure, are consumed for the task's reward.
func (w *World) submit(e *entity, params []string) string {
	name, _ := param(params, 0)
	t := w.taskByName[name]
	if t == nil || !t.active(w.step) {
		return protocol.ResultFailedTarget
	}
	if w.goalCover[w.g.index(e.t.pos)] == 0 {
		return protocol.ResultFailed
	}
	s := w.structureOf(e.t)
	var fixed [8]*thing
	blocks := fixed[:0]
	for _, r := range t.reqs {
		b := w.things.unique(w.g.wrap(e.t.pos.Add(r.pos)))
		if b == nil || b.kind != KindBlock || b.typ != r.typ || !s.has(b) {
			return protocol.ResultFailed
		}
		blocks = append(blocks, b)
	}
	for _, b := range blocks {
		w.things.remove(b)
	}
	w.scores[e.team] += int64(t.reward())
	t.completions++
	w.moveGoalZone(e.t.pos)
	w.logEvents = append(w.logEvents, LogEvent{Type: "task completed", Task: t.name, Team: w.teams[e.team].Name})
	return protocol.ResultSuccess
}
