package bt

// maxLoops bounds how often Repeat and UntilSuccess re-tick a child that
// completes without acting within one tick.
const maxLoops = 64

type invert struct{ nodeBase }

// Invert swaps success and failure; running stays running.
func Invert(child Node) Node { return &invert{nodeBase{kind: "invert", kids: []Node{child}}} }

func (n *invert) tick(c *Context) Status {
	switch st := c.tickNode(n.kids[0]); st {
	case Success:
		return Failure
	case Failure:
		return Success
	default:
		return st
	}
}

type force struct {
	nodeBase
	result Status
}

// Always ticks the child and succeeds whatever it returned (running stays
// running).
func Always(child Node) Node {
	return &force{nodeBase{kind: "always", kids: []Node{child}}, Success}
}

// Never ticks the child and fails whatever it returned (running stays
// running).
func Never(child Node) Node {
	return &force{nodeBase{kind: "never", kids: []Node{child}}, Failure}
}

func (n *force) tick(c *Context) Status {
	if c.tickNode(n.kids[0]) == Running {
		return Running
	}
	return n.result
}

// loop re-ticks its child until the child returns stopOn (which the loop
// returns) or has returned the other result limit times (the loop then
// returns that result). Repeat and UntilSuccess are the two mirror images.
type loop struct {
	nodeBase
	limit  Count
	stopOn Status
}

// Repeat ticks the child until it has succeeded times times, and fails as
// soon as it fails. times <= 0 repeats for ever (the node never succeeds).
// A child that completes without acting is ticked again in the same tick
// (up to a bound); one that acted continues in the next tick. A count read
// from the blackboard is read when the node starts.
func Repeat(times Count, child Node) Node {
	return &loop{nodeBase{kind: "repeat(" + times.String() + ")", kids: []Node{child}}, times, Failure}
}

// UntilSuccess ticks the child until it succeeds, at most tries times; it
// fails after tries failures. tries <= 0 retries for ever.
func UntilSuccess(tries Count, child Node) Node {
	return &loop{nodeBase{kind: "until-success(" + tries.String() + ")", kids: []Node{child}}, tries, Success}
}

func (n *loop) tick(c *Context) Status {
	s := c.slot(n)
	limit, ok := s.limit(c, n, n.limit)
	if !ok {
		return Failure
	}
	for range maxLoops {
		st := c.tickNode(n.kids[0])
		if st == Running || st == n.stopOn {
			return st
		}
		s.count++
		if limit > 0 && s.count >= limit {
			return st
		}
		if c.Acted() {
			return Running
		}
	}
	return Running
}

type cooldown struct {
	nodeBase
	steps Count
}

// Cooldown fails at once, without ticking the child, during the steps
// steps after the child failed. The cooldown survives interruptions. A
// count from the blackboard is read when the child fails.
func Cooldown(steps Count, child Node) Node {
	return &cooldown{nodeBase{kind: "cooldown(" + steps.String() + ")", kids: []Node{child}}, steps}
}

func (n *cooldown) tick(c *Context) Status {
	s := c.slot(n)
	if c.Step < s.until {
		return Failure
	}
	st := c.tickNode(n.kids[0])
	if st == Failure {
		steps, ok := n.steps.get(c, n)
		if !ok {
			steps = 0
		}
		s.until = c.Step + 1 + steps
	}
	return st
}

type timeout struct {
	nodeBase
	steps Count
}

// Timeout runs the child for at most steps steps: in the step that many
// steps after the child started, a child still running is halted and the
// node fails. The limit is read when the child starts; each new start
// (after the child completed or was halted) gets the full time again.
func Timeout(steps Count, child Node) Node {
	return &timeout{nodeBase{kind: "timeout(" + steps.String() + ")", kids: []Node{child}}, steps}
}

func (n *timeout) tick(c *Context) Status {
	s := c.slot(n)
	limit, ok := s.limit(c, n, n.steps)
	if !ok {
		return Failure
	}
	if !s.running {
		s.since = c.Step
	}
	if c.Step-s.since >= limit {
		c.halt(n.kids[0])
		return Failure
	}
	return c.tickNode(n.kids[0])
}

type guard struct {
	nodeBase
	cond Expr
}

// Guard ticks the child while cond holds: it fails when cond is false
// (halting a running child), otherwise returns the child's status. cond is
// re-checked every tick. It is "condition EXPR { child }" in behaviour
// files. cond must be boolean (see CheckBool).
func Guard(cond Expr, child Node) Node {
	return &guard{nodeBase{kind: "condition " + cond.String(), kids: []Node{child}}, cond}
}

func (n *guard) tick(c *Context) Status {
	if !evalBool(c, n.cond) {
		c.halt(n.kids[0])
		return Failure
	}
	return c.tickNode(n.kids[0])
}
