package bt

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func seeded(t *testing.T, root Node, seed uint64) *Instance {
	t.Helper()
	tree, err := NewTree("test", root)
	require.NoError(t, err)
	return tree.Instance(Options{Rand: rand.New(rand.NewPCG(seed, 0)), RootTicks: 1})
}

func TestRandomlyGatesWithProbabilityP(t *testing.T) {
	s := newScript(t)
	assert.Equal(t, Success, tick(instance(t, Randomly(1, s.leaf("a", Success))), 0))
	assert.Equal(t, Failure, tick(instance(t, Randomly(0, s.leaf("b", Success))), 0), "one child: fail otherwise")
	s.took()
	tick(instance(t, Randomly(0, s.leaf("c", Success), s.leaf("d", Success))), 0)
	assert.Equal(t, []string{"d"}, s.took(), "two children: the second otherwise")

	counts := map[string]int{}
	in := seeded(t, Randomly(0.25, s.leaf("p", Success), s.leaf("q", Success)), 7)
	s.took()
	for step := range 400 {
		tick(in, step)
	}
	for _, n := range s.took() {
		counts[n]++
	}
	assert.InDelta(t, 100, counts["p"], 30)
}

func TestRandomlyKeepsItsDrawWhileTheChildRuns(t *testing.T) {
	s := newScript(t)
	in := seeded(t, Randomly(0.5, s.leaf("a", Running), s.leaf("b", Running)), 3)
	for step := range 20 {
		tick(in, step)
	}
	assert.Equal(t, 1, s.starts["a"]+s.starts["b"], "one draw, then the chosen child keeps running")
}

func TestChooseKeepsARunningChild(t *testing.T) {
	s := newScript(t)
	in := seeded(t, Choose(s.leaf("a", Running, Success), s.leaf("b", Running, Success)), 1)
	tick(in, 0)
	first := s.took()
	tick(in, 1)
	assert.Equal(t, first, s.took())
}

func TestChooseSpreadsOverTheChildren(t *testing.T) {
	s := newScript(t)
	in := seeded(t, Choose(s.leaf("a", Success), s.leaf("b", Success), s.leaf("c", Success)), 1)
	for step := range 90 {
		tick(in, step)
	}
	counts := map[string]int{}
	for _, n := range s.took() {
		counts[n]++
	}
	assert.Len(t, counts, 3)
}

func TestChooseEachPicksEveryChildOnceThenFails(t *testing.T) {
	s := newScript(t)
	in := seeded(t, ChooseEach(false, s.leaf("a", Success), s.leaf("b", Success), s.leaf("c", Success)), 5)
	for step := range 3 {
		assert.Equal(t, Success, tick(in, step))
	}
	assert.ElementsMatch(t, []string{"a", "b", "c"}, s.took())
	assert.Equal(t, Failure, tick(in, 3))
	assert.Empty(t, s.took())
}

func TestChooseEachWithRepeatRefills(t *testing.T) {
	s := newScript(t)
	in := seeded(t, ChooseEach(true, s.leaf("a", Success), s.leaf("b", Success)), 5)
	for step := range 6 {
		assert.Equal(t, Success, tick(in, step))
	}
	log := s.took()
	for round := 0; round < 6; round += 2 {
		assert.ElementsMatch(t, []string{"a", "b"}, log[round:round+2])
	}
}

func TestWeightedChoiceFollowsTheWeights(t *testing.T) {
	s := newScript(t)
	n, err := WeightedChoice([]float64{3, 0, 1}, s.leaf("a", Success), s.leaf("never", Success), s.leaf("c", Success))
	require.NoError(t, err)
	in := seeded(t, n, 11)
	for step := range 400 {
		tick(in, step)
	}
	counts := map[string]int{}
	for _, x := range s.took() {
		counts[x]++
	}
	assert.Zero(t, counts["never"])
	assert.InDelta(t, 300, counts["a"], 40)

	_, err = WeightedChoice([]float64{1}, s.leaf("a", Success), s.leaf("b", Success))
	assert.ErrorContains(t, err, "1 weights for 2 children")
	_, err = WeightedChoice([]float64{0, 0}, s.leaf("a", Success), s.leaf("b", Success))
	assert.Error(t, err)
	_, err = WeightedChoice([]float64{-1, 2}, s.leaf("a", Success), s.leaf("b", Success))
	assert.Error(t, err)
}
