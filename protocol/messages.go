package protocol

import "encoding/json"

// Message type names, the "type" key of every frame.
const (
	TypeAuthRequest    = "auth-request"
	TypeAuthResponse   = "auth-response"
	TypeStatusRequest  = "status-request"
	TypeStatusResponse = "status-response"
	TypeSimStart       = "sim-start"
	TypeRequestAction  = "request-action"
	TypeAction         = "action"
	TypeSimEnd         = "sim-end"
	TypeBye            = "bye"
)

// Auth results.
const (
	AuthOK   = "ok"
	AuthFail = "fail"
)

// Envelope is the outer shape of every frame: {"type": ..., "content": {...}}.
// Content stays raw until the type is known.
type Envelope struct {
	Type    string          `json:"type"`
	Content json.RawMessage `json:"content"`
}

// AuthRequest is the first message of an agent connection.
type AuthRequest struct {
	User     string `json:"user"`
	Password string `json:"pw"`
}

// AuthResponse answers an AuthRequest.
type AuthResponse struct {
	Result string `json:"result"`
}

// StatusRequest asks for the server's tournament status. It has no fields.
type StatusRequest struct{}

// StatusResponse describes the current match (docs/protocol.md, "status-request and status-response").
type StatusResponse struct {
	Time              int64    `json:"time"`
	Teams             []string `json:"teams"`
	TeamSizes         []int    `json:"teamSizes"`
	CurrentSimulation int      `json:"currentSimulation"`
}

// SimStart announces a simulation to one participant.
type SimStart struct {
	Time    int64          `json:"time"`
	Percept InitialPercept `json:"percept"`
}

// InitialPercept is the static part of what an agent knows (docs/protocol.md, "sim-start").
type InitialPercept struct {
	Name     string     `json:"name"`
	Team     string     `json:"team"`
	TeamSize int        `json:"teamSize"`
	Steps    int        `json:"steps"`
	Roles    []RoleInfo `json:"roles"`
}

// RoleInfo describes one role in the initial percept.
type RoleInfo struct {
	Name    string    `json:"name"`
	Vision  int       `json:"vision"`
	Actions []string  `json:"actions"`
	Speed   []int     `json:"speed"`
	Clear   ClearInfo `json:"clear"`
}

// ClearInfo is a role's clear ability.
type ClearInfo struct {
	Chance      float64 `json:"chance"`
	MaxDistance int     `json:"maxDistance"`
}

// RequestAction asks an agent for its action of one step.
type RequestAction struct {
	ID       int64       `json:"id"`
	Time     int64       `json:"time"`
	Deadline int64       `json:"deadline"`
	Step     int         `json:"step"`
	Percept  StepPercept `json:"percept"`
}

// StepPercept is what an agent perceives in one step (docs/protocol.md, "The step percept").
// Every field except AbsolutePosition is always written, empty arrays as [].
type StepPercept struct {
	Score            int64    `json:"score"`
	LastAction       string   `json:"lastAction"`
	LastActionResult string   `json:"lastActionResult"`
	LastActionParams []string `json:"lastActionParams"`
	Energy           int      `json:"energy"`
	Deactivated      bool     `json:"deactivated"`
	Role             string   `json:"role"`
	Things           []Thing  `json:"things"`
	Attached         []Pos    `json:"attached"`
	GoalZones        []Pos    `json:"goalZones"`
	RoleZones        []Pos    `json:"roleZones"`
	Events           []Event  `json:"events"`
	Tasks            []Task   `json:"tasks"`
	Norms            []Norm   `json:"norms"`
	Violations       []string `json:"violations"`
	AbsolutePosition *Pos     `json:"absolutePosition,omitempty"`
}

// Pos is an [x, y] pair; in percepts it is relative to the perceiving agent.
type Pos [2]int

// Thing is one perceived thing on a cell.
type Thing struct {
	X       int    `json:"x"`
	Y       int    `json:"y"`
	Type    string `json:"type"`
	Details string `json:"details"`
}

// Thing types as they appear in percepts.
const (
	ThingEntity    = "entity"
	ThingBlock     = "block"
	ThingObstacle  = "obstacle"
	ThingDispenser = "dispenser"
	ThingMarker    = "marker"
)

// Event is a per-agent event (docs/protocol.md, "Events"): "hit" or "surveyed".
// Only the keys of the event's form are written.
type Event struct {
	Type     string `json:"type"`
	Origin   *Pos   `json:"origin,omitempty"`   // hit
	Damage   *int   `json:"damage,omitempty"`   // hit
	Target   string `json:"target,omitempty"`   // surveyed
	Distance *int   `json:"distance,omitempty"` // surveyed dispenser/goal/role
	Name     string `json:"name,omitempty"`     // surveyed agent
	Role     string `json:"role,omitempty"`     // surveyed agent
	Energy   *int   `json:"energy,omitempty"`   // surveyed agent
}

// Task is an active task as perceived.
type Task struct {
	Name         string            `json:"name"`
	Deadline     int               `json:"deadline"`
	Reward       int               `json:"reward"`
	Requirements []TaskRequirement `json:"requirements"`
}

// TaskRequirement is one block of a task, relative to the submitting agent.
type TaskRequirement struct {
	X       int    `json:"x"`
	Y       int    `json:"y"`
	Type    string `json:"type"`
	Details string `json:"details"`
}

// Norm is an approved norm as perceived (docs/protocol.md, "Tasks and norms").
type Norm struct {
	Name         string            `json:"name"`
	Start        int               `json:"start"`
	Until        int               `json:"until"`
	Level        string            `json:"level"`
	Requirements []NormRequirement `json:"requirements"`
	Punishment   int               `json:"punishment"`
}

// NormRequirement is one requirement of a norm.
type NormRequirement struct {
	Type     string `json:"type"`
	Name     string `json:"name"`
	Quantity int    `json:"quantity"`
}

// Action is an agent's answer to a RequestAction. Params are already
// converted to strings as docs/protocol.md, "action" prescribes; a missing "type"
// decodes as "unknown_action" and a missing "p" as an empty list.
type Action struct {
	ID     int64    `json:"id"`
	Type   string   `json:"type"`
	Params []string `json:"p"`
}

// SimEnd closes a simulation for one participant.
type SimEnd struct {
	Time    int64 `json:"time"`
	Score   int64 `json:"score"`
	Ranking int   `json:"ranking"`
}

// Bye ends the tournament. It has no fields.
type Bye struct{}

// Message is implemented by every message type; MessageType gives its "type" key.
type Message interface{ MessageType() string }

func (AuthRequest) MessageType() string    { return TypeAuthRequest }
func (AuthResponse) MessageType() string   { return TypeAuthResponse }
func (StatusRequest) MessageType() string  { return TypeStatusRequest }
func (StatusResponse) MessageType() string { return TypeStatusResponse }
func (SimStart) MessageType() string       { return TypeSimStart }
func (RequestAction) MessageType() string  { return TypeRequestAction }
func (Action) MessageType() string         { return TypeAction }
func (SimEnd) MessageType() string         { return TypeSimEnd }
func (Bye) MessageType() string            { return TypeBye }

// NoID marks an action whose id was missing or not an integer; it never matches a request.
const NoID int64 = -1
