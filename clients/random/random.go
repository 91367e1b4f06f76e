package random

import (
	"math/rand/v2"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/protocol"
)

// directions an agent can move in (docs/rules.md, "The grid").
var directions = [...]string{"n", "s", "e", "w"}

// pcgStream is the second PCG word; the seed supplies the first.
const pcgStream = 0x6d617373696d // "massim"

// mover picks a random direction each step.
type mover struct {
	rng *rand.Rand
}

// New returns a behaviour that moves in a random direction every step; the
// same seed yields the same sequence of moves.
func New(seed int64) agent.Behaviour {
	return &mover{rng: rand.New(rand.NewPCG(uint64(seed), pcgStream))}
}

// ForTeam gives each agent of a team its own seed, seed + index, for use as
// team.Run's behaviour factory.
func ForTeam(seed int64) func(index int, user string) agent.Behaviour {
	return func(index int, _ string) agent.Behaviour { return New(seed + int64(index)) }
}

func (m *mover) SimStart(protocol.InitialPercept) {}

func (m *mover) Act(*protocol.RequestAction) (string, []string) {
	return "move", []string{directions[m.rng.IntN(len(directions))]}
}

func (m *mover) SimEnd(protocol.SimEnd) {}
