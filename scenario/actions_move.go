package scenario

import "github.com/massim-go/massim/protocol"

// maxSpeed is the speed of docs/rules.md, "Roles" for the entity's role and
// a structure of structureSize things: speed[min(n, len-1)], n = structureSize - 1.
func (w *World) maxSpeed(e *entity, structureSize int) int {
	speed := w.roles[e.role].Speed
	return speed[min(structureSize-1, len(speed)-1)]
}

// move is the move action (docs/rules.md, "move"): the whole structure moves, as far as the speed of its size allows.
func (w *World) move(e *entity, params []string) string {
	if len(params) == 0 {
		return protocol.ResultFailedParameter
	}
	var fixed [4]Pos // most moves name few directions: keep them off the heap
	dirs := fixed[:0]
	for _, p := range params {
		d, ok := direction(p)
		if !ok {
			return protocol.ResultFailedParameter
		}
		dirs = append(dirs, d)
	}
	s := w.structureOf(e.t)
	speed := w.maxSpeed(e, s.size())
	moved := 0
	for _, d := range dirs {
		if moved >= speed || !w.shift(s, d) {
			break
		}
		moved++
	}
	switch {
	case moved == 0:
		return protocol.ResultFailedPath
	case moved < len(dirs):
		return protocol.ResultPartialSuccess
	}
	return protocol.ResultSuccess
}

// shift moves a whole structure one cell in direction d if no target cell
// holds an attachable outside the structure; otherwise nothing moves.
func (w *World) shift(s structure, d Pos) bool {
	for _, t := range s.items {
		if w.blockedFor(s, w.neighbour(t, d)) {
			return false
		}
	}
	for _, t := range s.items {
		w.things.unplace(t)
	}
	for _, t := range s.items {
		t.pos = w.neighbour(t, d)
		w.things.place(t)
	}
	return true
}

// blockedFor reports whether a cell holds an attachable outside s.
func (w *World) blockedFor(s structure, cell Pos) bool {
	i := w.g.index(cell)
	if w.things.cells[i]&cellAttachable == 0 {
		return false // the summary is denser in the cache than firstAt
	}
	for id := w.things.firstAt[i]; id != 0; id = w.things.all[id].nextAt {
		if !s.has(w.things.all[id]) {
			return true
		}
	}
	return false
}

// rotate is the rotate action (docs/rules.md, "rotate"): the structure turns 90° about the agent; only the target
// cells must be free.
func (w *World) rotate(e *entity, params []string) string {
	p, _ := param(params, 0)
	if p != "cw" && p != "ccw" {
		return protocol.ResultFailedParameter
	}
	clockwise := p == "cw"
	s := w.structureOf(e.t)
	if s.entities() > 1 {
		return protocol.ResultFailed
	}
	targets := make([]Pos, len(s.items))
	for i, t := range s.items {
		targets[i] = w.g.rotate(e.t.pos, t.pos, clockwise)
		if w.blockedFor(s, targets[i]) {
			return protocol.ResultFailed
		}
		// On a grid narrower than the structure two things could land on
		// one cell (the rules are silent); refuse rather than stack them.
		for _, earlier := range targets[:i] {
			if earlier == targets[i] {
				return protocol.ResultFailed
			}
		}
	}
	for _, t := range s.items {
		w.things.unplace(t)
	}
	for i, t := range s.items {
		t.pos = targets[i]
		w.things.place(t)
	}
	return protocol.ResultSuccess
}
