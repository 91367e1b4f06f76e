package game

import (
	"slices"

	"github.com/massim-go/massim/protocol"
)

// Role is a role of the simulation, as announced in sim-start.
type Role struct {
	Name             string
	Vision           int
	Actions          []string
	Speed            []int
	ClearChance      float64
	ClearMaxDistance int
}

// Can reports whether the role permits the action (docs/rules.md, "Roles": adapt
// counts as adopt).
func (r Role) Can(action string) bool {
	if action == "adapt" {
		action = ActAdopt
	}
	return slices.Contains(r.Actions, action)
}

// MaxSpeed is the number of cells the agent moves per step while holding n
// things (its structure without itself).
func (r Role) MaxSpeed(n int) int {
	if len(r.Speed) == 0 {
		return 0
	}
	return r.Speed[min(max(n, 0), len(r.Speed)-1)]
}

// Static is what an agent learns at sim-start.
type Static struct {
	Name     string
	Team     string
	TeamSize int
	Steps    int
	Roles    []Role
}

// StaticFrom types the initial percept.
func StaticFrom(p protocol.InitialPercept) Static {
	s := Static{Name: p.Name, Team: p.Team, TeamSize: p.TeamSize, Steps: p.Steps}
	for _, r := range p.Roles {
		s.Roles = append(s.Roles, Role{
			Name: r.Name, Vision: r.Vision, Actions: slices.Clone(r.Actions), Speed: slices.Clone(r.Speed),
			ClearChance: r.Clear.Chance, ClearMaxDistance: r.Clear.MaxDistance,
		})
	}
	return s
}

// Role returns the role of that name.
func (s *Static) Role(name string) (Role, bool) {
	for _, r := range s.Roles {
		if r.Name == name {
			return r, true
		}
	}
	return Role{}, false
}
