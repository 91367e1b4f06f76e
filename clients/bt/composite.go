package bt

import "fmt"

// resuming is a composite with memory: it ticks its children in order
// while they return pass, and while one runs the next tick resumes at it.
// It returns the first other status, or pass when every child passed.
// Sequence (pass = Success) and Fallback (pass = Failure) are its two faces.
type resuming struct {
	nodeBase
	pass Status
}

// Sequence ticks its children in order while they succeed and returns the
// first failure or running status; it succeeds when all succeed. It has
// memory: while running it resumes at the running child, and the children
// before it are not ticked again.
func Sequence(children ...Node) Node {
	return &resuming{nodeBase{kind: "sequence", kids: children}, Success}
}

// Fallback is a selector with memory: while a child runs, the next tick
// resumes at it instead of re-trying the children before it.
func Fallback(children ...Node) Node {
	return &resuming{nodeBase{kind: "fallback", kids: children}, Failure}
}

func (n *resuming) tick(c *Context) Status {
	s := c.slot(n)
	for i := s.child; i < len(n.kids); i++ {
		st := c.tickNode(n.kids[i])
		if st == Running {
			s.child = i
		}
		if st != n.pass {
			return st
		}
	}
	return n.pass
}

// reactive is a composite without memory: every tick starts at the first
// child and goes on while children return pass, so earlier children are
// re-checked; a running child that an earlier one overtakes is halted.
// ReactiveSequence (pass = Success) and Selector (pass = Failure) are its
// two faces.
type reactive struct {
	nodeBase
	pass Status
}

// ReactiveSequence is a sequence without memory: every tick starts at the
// first child, so earlier conditions are re-checked; a running child whose
// predecessors stop succeeding is halted.
func ReactiveSequence(children ...Node) Node {
	return &reactive{nodeBase{kind: "reactive-sequence", kids: children}, Success}
}

// Selector ticks its children in order until one succeeds or runs, and
// fails when all fail. It re-evaluates from the first child every tick, so
// a higher-priority child can interrupt a running lower one (which is then
// halted).
func Selector(children ...Node) Node {
	return &reactive{nodeBase{kind: "selector", kids: children}, Failure}
}

func (n *reactive) tick(c *Context) Status {
	s := c.slot(n)
	for i, k := range n.kids {
		st := c.tickNode(k)
		if st == n.pass {
			continue
		}
		n.haltOthers(c, s, i)
		if st == Running {
			s.child = i + 1 // remembered 1-based: 0 means none running
		}
		return st
	}
	n.haltOthers(c, s, -1)
	return n.pass
}

// haltOthers halts the child that was running before if it is not keep.
func (n *reactive) haltOthers(c *Context, s *slot, keep int) {
	if prev := s.child - 1; prev >= 0 && prev != keep {
		c.halt(n.kids[prev])
	}
	s.child = 0
}

type parallel struct {
	nodeBase
	succeed, fail int
}

// Parallel ticks all its children every tick (children that finished are
// not ticked again while the node runs). It succeeds once succeed children
// have succeeded, fails once fail children have failed or success has
// become impossible, and runs otherwise; remaining running children are
// then halted. succeed <= 0 means all children, fail <= 0 means one. Only
// the first child to act in a tick gets its action through.
func Parallel(succeed, fail int, children ...Node) Node {
	if succeed <= 0 || succeed > len(children) {
		succeed = len(children)
	}
	if fail <= 0 {
		fail = 1
	}
	return &parallel{nodeBase: nodeBase{kind: fmt.Sprintf("parallel(%d,%d)", succeed, fail), kids: children}, succeed: succeed, fail: fail}
}

func (n *parallel) tick(c *Context) Status {
	s := c.slot(n)
	if s.done == nil {
		s.done = make([]Status, len(n.kids))
	}
	successes, failures := 0, 0
	for i, k := range n.kids {
		if s.done[i] == 0 {
			if st := c.tickNode(k); st != Running {
				s.done[i] = st
			}
		}
		switch s.done[i] {
		case Success:
			successes++
		case Failure:
			failures++
		}
	}
	var st Status
	switch {
	case successes >= n.succeed:
		st = Success
	case failures >= n.fail || len(n.kids)-failures < n.succeed:
		st = Failure
	default:
		return Running
	}
	for i, k := range n.kids {
		if s.done[i] == 0 {
			c.halt(k)
		}
	}
	return st
}
