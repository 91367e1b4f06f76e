package scenario

// task is a task of SCENARIO.md §11.1.
type task struct {
	name        string
	deadline    int
	iterations  int
	completions int
	reqs        []requirement // sorted by x, then y
}

// requirement is one block of a task, relative to the submitting agent.
type requirement struct {
	pos Pos
	typ string
}

// reward is 10·n² for n requirements.
func (t *task) reward() int { return 10 * len(t.reqs) * len(t.reqs) }

// active: not used up and not past its deadline.
func (t *task) active(step int) bool { return t.completions < t.iterations && step <= t.deadline }

// norm is an approved or expired norm (SCENARIO.md §10.2).
type norm struct {
	name       string
	created    int
	start      int
	until      int
	level      string // individual or team
	subject    string // Carry, Adopt or RoleIndividual
	punishment int
	req        normRequirement
}

// normRequirement is what a norm limits.
type normRequirement struct {
	typ      string // block or role (lower case, as in percepts)
	name     string
	quantity int
}

func (n *norm) announced(step int) bool { return n.created <= step && step < n.start }
func (n *norm) active(step int) bool    { return n.start <= step && step <= n.until }
func (n *norm) approved(step int) bool  { return n.announced(step) || n.active(step) }

// violation records that an agent violated a norm in a step's regulation.
type violation struct {
	norm string
	who  string
}

// clearEvent is a pending clear event (SCENARIO.md §9).
type clearEvent struct {
	centre  Pos
	radius  int
	resolve int // resolution step
}

// LogEvent is a world event of the snapshot's top-level "events" list.
type LogEvent struct {
	Type string `json:"type"`
	Task string `json:"task"`
	Team string `json:"team"`
}
