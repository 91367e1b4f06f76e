package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

func carrySubject(limit, announce, duration, punishment int) NormSubject {
	return NormSubject{Name: SubjectCarry, Announcement: Bounds{announce, announce}, Duration: Bounds{duration, duration},
		Punishment: Bounds{punishment, punishment}, Weight: 1, Quantity: Bounds{limit, limit}}
}

func normWorld(t *testing.T, simultaneous int, chance float64, subjects ...NormSubject) *testWorld {
	return newTestWorldWith(t, 30, 30, func(p *Params) {
		p.Regulation = RegulationParams{Simultaneous: simultaneous, Chance: chance, Subjects: subjects}
	})
}

func TestNorm_CreationRespectsSimultaneousAndLifetime(t *testing.T) {
	tw := normWorld(t, 1, 100, carrySubject(2, 2, 3, 1))
	e := tw.agent(0, 5, 5)
	// n1: created 0, start 2, until 5; n2 follows in step 6, when n1 is gone.
	want := map[int]string{0: "n1", 1: "n1", 2: "n1", 5: "n1", 6: "n2", 11: "n2", 12: "n3"}
	for step := 0; step <= 12; step++ {
		p := tw.percept(e)
		require.Len(t, p.Norms, 1, "step %d", step)
		if name, ok := want[step]; ok {
			assert.Equal(t, name, p.Norms[0].Name, "step %d", step)
		}
		require.NoError(t, tw.Execute(nil))
	}
	require.Len(t, tw.norms, 3)
	assert.Equal(t, norm{name: "n1", created: 0, start: 2, until: 5, level: "individual", subject: SubjectCarry,
		punishment: 1, req: normRequirement{"block", "any", 2}}, *tw.norms[0])
}

func TestNorm_NoneWithChanceZero(t *testing.T) {
	tw := normWorld(t, 3, 0, carrySubject(2, 2, 3, 1))
	for range 20 {
		tw.skipStep()
	}
	assert.Empty(t, tw.norms)
}

func TestNorm_SimultaneousAllowsSeveral(t *testing.T) {
	tw := normWorld(t, 3, 100, carrySubject(2, 10, 10, 1))
	for range 5 {
		tw.skipStep()
	}
	assert.Len(t, tw.norms, 3)
}

func TestNorm_SubjectWeightsChooseTheSubject(t *testing.T) {
	never := carrySubject(0, 1, 1, 1)
	never.Weight = 0
	always := NormSubject{Name: SubjectRoleIndividual, Announcement: Bounds{1, 1}, Duration: Bounds{1, 1}, Punishment: Bounds{1, 1}, Weight: 5}
	for seed := int64(1); seed <= 20; seed++ {
		tw := newTestWorldWith(t, 20, 20, func(p *Params) {
			p.Seed = seed
			p.Regulation = RegulationParams{Simultaneous: 1, Chance: 100, Subjects: []NormSubject{never, always}}
		})
		require.NoError(t, tw.Prepare())
		require.Len(t, tw.norms, 1)
		assert.Equal(t, SubjectRoleIndividual, tw.norms[0].subject)
	}
}

func TestNorm_DrawsStayWithinTheirBounds(t *testing.T) {
	s := NormSubject{Name: SubjectCarry, Announcement: Bounds{3, 6}, Duration: Bounds{2, 9}, Punishment: Bounds{4, 7}, Weight: 1, Quantity: Bounds{1, 3}}
	for seed := int64(1); seed <= 30; seed++ {
		tw := newTestWorldWith(t, 20, 20, func(p *Params) {
			p.Seed = seed
			p.Regulation = RegulationParams{Simultaneous: 1, Chance: 100, Subjects: []NormSubject{s}}
		})
		require.NoError(t, tw.Prepare())
		n := tw.norms[0]
		assert.True(t, n.start >= 3 && n.start <= 6, "start %d", n.start)
		assert.True(t, n.until-n.start >= 2 && n.until-n.start <= 9, "duration %d", n.until-n.start)
		assert.True(t, n.punishment >= 4 && n.punishment <= 7)
		assert.True(t, n.req.quantity >= 1 && n.req.quantity <= 3)
	}
}

func TestNorm_CarryPunishesOnlyWhileActive(t *testing.T) {
	tw := normWorld(t, 1, 100, carrySubject(1, 2, 1, 10))
	heavy := tw.agent(0, 5, 5)
	b := tw.holds(heavy.t, 5, 6, "b0")
	tw.holds(b, 5, 7, "b0")
	light := tw.agent(1, 10, 10)
	tw.holds(light.t, 10, 11, "b0")
	// Norm n1 active in steps 2 and 3.
	wantViolations := []int{0, 0, 1, 1, 0}
	energy := 100
	for step, want := range wantViolations {
		p := tw.percept(heavy)
		assert.Len(t, p.Violations, want, "step %d", step)
		energy = min(energy-10*want+1, 100) // punished, then recharged
		assert.Equal(t, energy, p.Energy, "step %d", step)
		assert.Empty(t, tw.percept2(light).Violations)
		require.NoError(t, tw.Execute(nil))
		snap := tw.Snapshot()
		if want > 0 {
			assert.Equal(t, []ViolationSnapshot{{Norm: "n1", Who: heavy.name}}, snap.Violations)
		} else {
			assert.Empty(t, snap.Violations)
		}
	}
}

// percept2 reads another agent's percept of the already prepared step.
func (tw *testWorld) percept2(e *entity) protocol.StepPercept {
	p, ok := tw.Percept(e.name)
	require.True(tw.t, ok)
	return p
}

func TestNorm_DeactivatedViolatorsAreRecordedButNotPunished(t *testing.T) {
	tw := normWorld(t, 1, 100, carrySubject(0, 0, 5, 10))
	e := tw.agent(0, 5, 5)
	e.energy, e.disabled = 50, 5
	mate := tw.agent(0, 6, 5)
	tw.link(mate.t, e.t) // attached by a teammate, so it carries one thing
	tw.skipStep()        // step 0: the norm is created after the regulation
	p := tw.percept(e)
	assert.True(t, p.Deactivated)
	assert.Equal(t, []string{"n1"}, p.Violations)
	assert.Equal(t, 52, p.Energy, "recharged, not punished")
}

func TestNorm_PunishmentDeactivatesForDSteps(t *testing.T) {
	tw := normWorld(t, 1, 100, carrySubject(0, 1, 100, 200))
	e := tw.agent(0, 5, 5)
	tw.holds(e.t, 5, 6, "b0")
	tw.skipStep() // step 0: announced
	p := tw.percept(e)
	assert.True(t, p.Deactivated)
	assert.Equal(t, 1, p.Energy, "punished to 0, then recharged in the same preparation")
	require.NoError(t, tw.Execute(nil))
	for s := 2; s <= tw.p.DeactivatedDuration; s++ {
		require.True(t, tw.percept(e).Deactivated, "step %d", s)
		require.NoError(t, tw.Execute(nil))
	}
	assert.False(t, tw.percept(e).Deactivated, "active again in step s+D")
}

func TestNorm_AdoptLimitsEachTeamToAShareOfTheLargerCount(t *testing.T) {
	adopt := NormSubject{Name: SubjectAdopt, Announcement: Bounds{0, 0}, Duration: Bounds{5, 5}, Punishment: Bounds{3, 3}, Weight: 1, Playing: 50}
	tw := normWorld(t, 1, 100, adopt)
	var teamA, teamB []*entity
	for i := range 5 {
		teamA = append(teamA, tw.agentAs(0, i, 0, "explorer"))
	}
	for i := range 15 {
		teamB = append(teamB, tw.agentAs(1, i, 5, "explorer"))
	}
	tw.skipStep() // step 0: created, start 0 (regulation of step 0 ran before)
	require.Len(t, tw.norms, 1)
	assert.Equal(t, normRequirement{"role", "explorer", 8}, tw.norms[0].req, "ceil(15 × 0.5)")
	assert.Equal(t, "team", tw.norms[0].level)
	p := tw.percept(teamB[0])
	assert.Equal(t, []string{"n1"}, p.Violations)
	assert.Equal(t, 100-3+1, p.Energy, "punished, then recharged")
	assert.Empty(t, tw.percept2(teamA[0]).Violations, "5 ≤ 8: team A complies")
}

func TestNorm_AdoptChoosesARoleInUse(t *testing.T) {
	adopt := NormSubject{Name: SubjectAdopt, Announcement: Bounds{0, 0}, Duration: Bounds{5, 5}, Punishment: Bounds{3, 3}, Weight: 1, Playing: 100}
	for seed := int64(1); seed <= 20; seed++ {
		tw := newTestWorldWith(t, 20, 20, func(p *Params) {
			p.Seed = seed
			p.Regulation = RegulationParams{Simultaneous: 1, Chance: 100, Subjects: []NormSubject{adopt}}
		})
		tw.agentAs(0, 1, 1, "digger")
		tw.agentAs(1, 2, 2, "worker")
		tw.agentAs(1, 3, 3, "worker")
		require.NoError(t, tw.Prepare())
		name := tw.norms[0].req.name
		assert.Contains(t, []string{"digger", "worker"}, name)
		want := map[string]int{"digger": 1, "worker": 2}[name]
		assert.Equal(t, want, tw.norms[0].req.quantity)
	}
}

func TestNorm_RoleIndividualForbidsARole(t *testing.T) {
	s := NormSubject{Name: SubjectRoleIndividual, Announcement: Bounds{0, 0}, Duration: Bounds{5, 5}, Punishment: Bounds{1, 1}, Weight: 1}
	tw := normWorld(t, 1, 100, s)
	var all []*entity
	for i, r := range tw.roles {
		all = append(all, tw.agentAs(0, i, 0, r.Name))
	}
	tw.skipStep()
	n := tw.norms[0]
	assert.Equal(t, "individual", n.level)
	assert.Equal(t, 1, n.req.quantity)
	require.NoError(t, tw.Prepare())
	for _, e := range all {
		p := tw.percept2(e)
		if p.Role == n.req.name {
			assert.Equal(t, []string{"n1"}, p.Violations)
		} else {
			assert.Empty(t, p.Violations)
		}
	}
}

func TestNorm_PerceptAndSnapshotForms(t *testing.T) {
	tw := normWorld(t, 1, 100, carrySubject(2, 4, 6, 3))
	e := tw.agent(0, 5, 5)
	p := tw.percept(e)
	assert.Equal(t, []protocol.Norm{{Name: "n1", Start: 4, Until: 10, Level: "individual", Punishment: 3,
		Requirements: []protocol.NormRequirement{{Type: "block", Name: "any", Quantity: 2}}}}, p.Norms,
		"announced norms are shown from the step of their creation")
	require.NoError(t, tw.Execute(nil))
	assert.Equal(t, []NormSnapshot{{Name: "n1", Start: 4, Until: 10, Level: "individual", Punishment: 3,
		Requirements: []NormRequirementSnapshot{{Type: "BLOCK", Name: "any", Quantity: 2}}}}, tw.Snapshot().Norms)
}

func TestNorm_CarryQuantityFallsBackWhenMinExceedsMax(t *testing.T) {
	s := carrySubject(0, 1, 1, 1)
	s.Quantity = Bounds{-3, -1}
	tw := normWorld(t, 1, 100, s)
	require.NoError(t, tw.Prepare())
	q := tw.norms[0].req.quantity
	assert.True(t, q >= 0 && q <= 4, "quantity %d drawn from [0,4]", q)
}
