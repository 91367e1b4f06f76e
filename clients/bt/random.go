package bt

import (
	"fmt"
	"slices"
)

type randomly struct {
	nodeBase
	p float64
}

// Randomly is a probability gate. With one child it ticks the child with
// probability p and fails otherwise; with two it ticks the first with
// probability p, else the second. The draw is made when the node starts
// and kept while the chosen child runs.
func Randomly(p float64, first Node, second ...Node) Node {
	kids := append([]Node{first}, second[:min(len(second), 1)]...)
	return &randomly{nodeBase{kind: fmt.Sprintf("randomly(%g)", p), kids: kids}, p}
}

func (n *randomly) tick(c *Context) Status {
	s := c.slot(n)
	if !s.running {
		s.child = 0
		if c.Rand().Float64() >= n.p {
			s.child = 1
		}
	}
	if s.child >= len(n.kids) {
		return Failure
	}
	return c.tickNode(n.kids[s.child])
}

type choose struct {
	nodeBase
	weights []float64 // nil: uniform
}

// Choose picks a child at random and returns its status; a running child
// stays chosen until it completes.
func Choose(children ...Node) Node {
	return &choose{nodeBase: nodeBase{kind: "choose", kids: children}}
}

// WeightedChoice is Choose with a weight per child (non-negative, not all
// zero; one per child).
func WeightedChoice(weights []float64, children ...Node) (Node, error) {
	if len(weights) != len(children) {
		return nil, fmt.Errorf("bt: weighted-choice: %d weights for %d children", len(weights), len(children))
	}
	total := 0.0
	for _, w := range weights {
		if w < 0 {
			return nil, fmt.Errorf("bt: weighted-choice: negative weight %g", w)
		}
		total += w
	}
	if total <= 0 {
		return nil, fmt.Errorf("bt: weighted-choice: the weights add up to %g", total)
	}
	return &choose{nodeBase: nodeBase{kind: "weighted-choice", kids: children}, weights: slices.Clone(weights)}, nil
}

func (n *choose) tick(c *Context) Status {
	if len(n.kids) == 0 {
		return Failure
	}
	s := c.slot(n)
	if !s.running {
		s.child = n.pick(c)
	}
	return c.tickNode(n.kids[s.child])
}

func (n *choose) pick(c *Context) int {
	if n.weights == nil {
		return c.Rand().IntN(len(n.kids))
	}
	total := 0.0
	for _, w := range n.weights {
		total += w
	}
	r := c.Rand().Float64() * total
	for i, w := range n.weights {
		if r < w {
			return i
		}
		r -= w
	}
	return len(n.weights) - 1 // rounding
}

type chooseEach struct {
	nodeBase
	refill bool
}

// ChooseEach picks a random child not picked before and returns its status
// (a running child stays picked). When every child has been picked it
// fails, or, with refill, starts a new round. The picks are remembered
// across activations.
func ChooseEach(refill bool, children ...Node) Node {
	kind := "choose-each"
	if refill {
		kind += "(repeat)"
	}
	return &chooseEach{nodeBase{kind: kind, kids: children}, refill}
}

func (n *chooseEach) tick(c *Context) Status {
	s := c.slot(n)
	if !s.running {
		if len(s.pool) == 0 && (!s.init || n.refill) {
			s.pool, s.init = make([]int, len(n.kids)), true
			for i := range s.pool {
				s.pool[i] = i
			}
		}
		if len(s.pool) == 0 {
			return Failure
		}
		i := c.Rand().IntN(len(s.pool))
		s.child = s.pool[i]
		s.pool = slices.Delete(s.pool, i, i+1)
	}
	return c.tickNode(n.kids[s.child])
}
