package compact

import (
	"encoding/json"
	"time"

	"github.com/massim-go/massim/scenario"
)

// FormatName identifies the meta document.
const FormatName = "massim-go compact replay"

// Meta is the first chunk of a replay: what the simulation was and, for
// replays written by our server, the match record needed to play it again.
type Meta struct {
	Format     string    `json:"format"`
	Version    int       `json:"version"`
	Sim        string    `json:"sim"`
	MatchStart time.Time `json:"matchStart"`
	Static     Static    `json:"static"`
	Interval   int       `json:"keyframeInterval"`
	ChunkSteps int       `json:"chunkSteps"`
	// Origin says where the steps come from: "massim-go" for a simulation
	// played by our server, "official" for a converted official replay.
	Origin string `json:"origin"`
	// Record is nil when the replay has no action record (converted).
	Record *Record `json:"record,omitempty"`
}

// Static is the static world (the official static.json, in our own words).
type Static struct {
	Width      int      `json:"width"`
	Height     int      `json:"height"`
	Teams      []string `json:"teams"`
	BlockTypes []string `json:"blockTypes"`
	MaxEnergy  int      `json:"maxEnergy"`
	Steps      int      `json:"steps"`
}

// StaticOf and Scenario convert between the two forms of the static world.
func StaticOf(s scenario.Static) Static {
	return Static{Width: s.Width, Height: s.Height, Teams: s.Teams, BlockTypes: s.BlockTypes, MaxEnergy: s.MaxEnergy, Steps: s.Steps}
}

// Scenario is the static world of the simulation.
func (m *Meta) Scenario() scenario.Static {
	s := m.Static
	return scenario.Static{Sim: m.Sim, Width: s.Width, Height: s.Height, Teams: s.Teams, BlockTypes: s.BlockTypes,
		MaxEnergy: s.MaxEnergy, Steps: s.Steps}
}

// Record is everything needed to play the simulation again; the answers of
// every step are in the step records.
type Record struct {
	Seed  int64  `json:"seed"`
	Teams []Team `json:"teams"` // match order
	// Agents lists the accounts in the world's order (the order of the
	// entities and of the answers of each step).
	Agents []string `json:"agents"`
	// Match is the match entry as the server expanded it (defaults applied,
	// roles resolved, paths as found): a config.Match in JSON.
	Match json.RawMessage `json:"match"`
	// Files holds the content of the files the entry names (grid.file,
	// setup) by their path in Match.
	Files map[string][]byte `json:"files,omitempty"`
	// AgentTimeoutMs is the time agents had to answer a step.
	AgentTimeoutMs int64 `json:"agentTimeoutMs"`
}

// Team is a team of the match.
type Team struct {
	Name   string `json:"name"`
	Prefix string `json:"prefix"`
}
