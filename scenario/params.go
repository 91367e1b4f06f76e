package scenario

import (
	"strconv"

	"github.com/massim-go/massim/maps"
)

// Params holds everything one simulation needs. The server builds it from a
// validated config match entry; scenario never reads config itself.
type Params struct {
	Steps               int
	Seed                int64
	RandomFail          int // percent
	TeamSize            int // agents per team
	ClusterBounds       Bounds
	Roles               []Role // the first is the default role; inheritance already resolved
	ClearEnergyCost     int
	DeactivatedDuration int
	MaxEnergy           int
	RefreshEnergy       int
	StepRecharge        int
	ClearDamage         []int
	AttachLimit         int
	Grid                GridParams
	BlockTypes          Bounds
	Dispensers          Bounds // per block type
	Tasks               TaskParams
	Events              EventParams
	Regulation          RegulationParams
	AbsolutePosition    bool
	Setup               []SetupCommand // run at step -1 (docs/rules.md, "Setting up a simulation", item 8); see ParseSetup
}

// Bounds is an inclusive [Min, Max] range, drawn with RNG.Between.
type Bounds struct{ Min, Max int }

// GridParams describes the terrain and the zones placed at set-up.
type GridParams struct {
	Width, Height int
	Bitmap        *maps.Bitmap // decoded grid.file, nil if none
	Instructions  []maps.Instruction
	Goals         ZoneParams
	RoleZones     ZoneParams
	// Connected makes set-up carve the fewest obstacles it can (maps.Carve)
	// so that every start cell, dispenser and zone is reachable from the
	// others (grid.connected, a massim-go extension; see Reachability).
	Connected bool
}

// ZoneParams configures goal or role zones.
type ZoneParams struct {
	Number          int
	Size            Bounds
	MoveProbability float64 // goal zones only
}

// TaskParams configures random tasks.
type TaskParams struct {
	Size        Bounds
	Concurrent  int
	Iterations  Bounds
	MaxDuration Bounds
}

// EventParams configures clear events.
type EventParams struct {
	Chance    int // percent per step
	Radius    Bounds
	Warning   int
	Create    Bounds
	Perimeter int
}

// RegulationParams configures the norm officer.
type RegulationParams struct {
	Simultaneous int
	Chance       float64 // percent
	Subjects     []NormSubject
}

// NormSubject is one norm template.
type NormSubject struct {
	Name         string // Carry, Adopt or RoleIndividual
	Announcement Bounds
	Duration     Bounds
	Punishment   Bounds
	Weight       float64
	Quantity     Bounds // Carry
	Playing      int    // Adopt, percent
}

// Role is a fully resolved role.
type Role struct {
	Name             string
	Vision           int
	Actions          []string
	Speed            []int
	ClearChance      float64
	ClearMaxDistance int
}

// Team is a team taking part in the simulation, in match order.
type Team struct {
	Name   string
	Prefix string // account prefix: accounts are Prefix+Name+i, i from 1
}

// Action is what an agent asked to do in a step.
type Action struct {
	Name   string
	Params []string
}

// AgentName is the account name of agent index i (0-based) of a team.
func AgentName(t Team, i int) string {
	return t.Prefix + t.Name + strconv.Itoa(i+1)
}
