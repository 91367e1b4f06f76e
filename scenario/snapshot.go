package scenario

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/massim-go/massim/protocol"
)

// Snapshot is the world state after a step (docs/replays.md, "Snapshots"). All positions are
// absolute, except task requirements. Arrays are in a stable order so that
// equal worlds give byte-identical JSON.
type Snapshot struct {
	Step       int                 `json:"step"`
	Entities   []EntitySnapshot    `json:"entities"`
	Blocks     []BlockSnapshot     `json:"blocks"`
	Obstacles  []ObstacleSnapshot  `json:"obstacles"`
	Dispensers []DispenserSnapshot `json:"dispensers"`
	GoalZones  []ZoneSnapshot      `json:"goalZones"`
	RoleZones  []ZoneSnapshot      `json:"roleZones"`
	Clear      []ZoneSnapshot      `json:"clear"`
	Tasks      []TaskSnapshot      `json:"tasks"`
	Norms      []NormSnapshot      `json:"norms"`
	Violations []ViolationSnapshot `json:"violations"`
	Scores     []TeamScore         `json:"scores"`
	Events     []LogEvent          `json:"events"`

	// Seq numbers the snapshots of one world, from 1 (0: not built by a
	// world, e.g. decoded from a replay).
	Seq uint64 `json:"-"`
	// ThingsSince, when not 0, is the Seq of the world's previous snapshot,
	// and ThingsChanged lists, ascending, the ids of every block and obstacle
	// whose entry may differ from that snapshot's (it appeared, disappeared,
	// moved or its structure changed); every other block and obstacle entry
	// is the same in both. A consumer that keeps the previous snapshot (the
	// replay encoder) diffs only these instead of both whole lists.
	ThingsSince   uint64 `json:"-"`
	ThingsChanged []int  `json:"-"`
}

// EntitySnapshot is one entity (docs/replays.md, "Entities").
type EntitySnapshot struct {
	ID           int              `json:"id"`
	Name         string           `json:"name"`
	Team         string           `json:"team"`
	Pos          protocol.Pos     `json:"pos"`
	Role         string           `json:"role"`
	Energy       int              `json:"energy"`
	Vision       int              `json:"vision"`
	Deactivated  bool             `json:"deactivated"`
	Action       string           `json:"action"`
	ActionParams []string         `json:"actionParams"`
	ActionResult string           `json:"actionResult"`
	Attached     []protocol.Pos   `json:"attached,omitempty"`
	Events       []protocol.Event `json:"events,omitempty"`
}

// BlockSnapshot is one block.
type BlockSnapshot struct {
	ID       int            `json:"id"`
	Pos      protocol.Pos   `json:"pos"`
	Type     string         `json:"type"`
	Attached []protocol.Pos `json:"attached,omitempty"`
}

// ObstacleSnapshot is one obstacle.
type ObstacleSnapshot struct {
	ID       int            `json:"id"`
	Pos      protocol.Pos   `json:"pos"`
	Attached []protocol.Pos `json:"attached,omitempty"`
}

// DispenserSnapshot is one dispenser.
type DispenserSnapshot struct {
	ID   int          `json:"id"`
	Pos  protocol.Pos `json:"pos"`
	Type string       `json:"type"`
}

// ZoneSnapshot is a goal zone, role zone or pending clear event.
type ZoneSnapshot struct {
	Pos protocol.Pos `json:"pos"`
	R   int          `json:"r"`
}

// TaskSnapshot is an active task; requirement positions are relative.
type TaskSnapshot struct {
	Name         string                    `json:"name"`
	Deadline     int                       `json:"deadline"`
	Reward       int                       `json:"reward"`
	Requirements []TaskRequirementSnapshot `json:"requirements"`
}

// TaskRequirementSnapshot is one task requirement.
type TaskRequirementSnapshot struct {
	Pos  protocol.Pos `json:"pos"`
	Type string       `json:"type"`
}

// NormSnapshot is an approved norm; requirement types are upper case (docs/replays.md, "Snapshots").
type NormSnapshot struct {
	Name         string                    `json:"name"`
	Start        int                       `json:"start"`
	Until        int                       `json:"until"`
	Level        string                    `json:"level"`
	Punishment   int                       `json:"punishment"`
	Requirements []NormRequirementSnapshot `json:"requirements"`
}

// NormRequirementSnapshot is one norm requirement.
type NormRequirementSnapshot struct {
	Type     string `json:"type"`
	Name     string `json:"name"`
	Quantity int    `json:"quantity"`
}

// ViolationSnapshot records a violation of the step's regulation.
type ViolationSnapshot struct {
	Norm string `json:"norm"`
	Who  string `json:"who"`
}

// MarshalJSON writes a score as the pair [team, score] of docs/replays.md, "Snapshots".
func (s TeamScore) MarshalJSON() ([]byte, error) {
	team, err := json.Marshal(s.Team)
	if err != nil {
		return nil, err
	}
	b := append([]byte{'['}, team...)
	b = append(b, ',')
	b = strconv.AppendInt(b, s.Score, 10)
	return append(b, ']'), nil
}

// UnmarshalJSON reads the pair [team, score].
func (s *TeamScore) UnmarshalJSON(data []byte) error {
	var pair [2]json.RawMessage
	if err := json.Unmarshal(data, &pair); err != nil {
		return err
	}
	if err := json.Unmarshal(pair[0], &s.Team); err != nil {
		return err
	}
	return json.Unmarshal(pair[1], &s.Score)
}

// Static is the static world of a simulation (docs/replays.md, "static.json").
type Static struct {
	Sim        string
	Width      int
	Height     int
	Teams      []string // match order
	BlockTypes []string
	MaxEnergy  int
	Steps      int
}

// Static describes the world for replays and viewers; sim is the simulation name.
func (w *World) Static(sim string) Static {
	teams := make([]string, len(w.teams))
	for i, t := range w.teams {
		teams[i] = t.Name
	}
	return Static{Sim: sim, Width: w.g.w, Height: w.g.h, Teams: teams,
		BlockTypes: slices.Clone(w.blockTypes), MaxEnergy: w.p.MaxEnergy, Steps: w.p.Steps}
}

// MarshalJSON writes the form of docs/replays.md, "static.json", teams as an object in match order.
func (s Static) MarshalJSON() ([]byte, error) {
	sim, err := json.Marshal(s.Sim)
	if err != nil {
		return nil, err
	}
	b := append([]byte(`{"sim":`), sim...)
	b = append(b, `,"grid":{"width":`...)
	b = strconv.AppendInt(b, int64(s.Width), 10)
	b = append(b, `,"height":`...)
	b = strconv.AppendInt(b, int64(s.Height), 10)
	b = append(b, `},"teams":{`...)
	for i, t := range s.Teams {
		if i > 0 {
			b = append(b, ',')
		}
		name, err := json.Marshal(t)
		if err != nil {
			return nil, err
		}
		b = append(b, name...)
		b = append(b, `:{"name":`...)
		b = append(b, name...)
		b = append(b, '}')
	}
	bt, err := json.Marshal(append([]string{}, s.BlockTypes...))
	if err != nil {
		return nil, err
	}
	b = append(b, `},"blockTypes":`...)
	b = append(b, bt...)
	b = append(b, `,"maxEnergy":`...)
	b = strconv.AppendInt(b, int64(s.MaxEnergy), 10)
	b = append(b, `,"steps":`...)
	b = strconv.AppendInt(b, int64(s.Steps), 10)
	return append(b, '}'), nil
}
