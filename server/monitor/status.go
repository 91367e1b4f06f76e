package monitor

import "github.com/massim-go/massim/scenario"

// statusMessage is the /live/status document (docs/replays.md, "/live/status").
type statusMessage struct {
	Sim      string         `json:"sim"`
	Steps    int            `json:"steps"`
	Step     int            `json:"step"`
	Entities []statusEntity `json:"entities"`
}

type statusEntity struct {
	Name         string `json:"name"`
	Team         string `json:"team"`
	Action       string `json:"action"`
	ActionResult string `json:"actionResult"`
}

// gameActions are the actions whose names the status feed hides, so the
// public status page shows who answers without revealing strategies.
var gameActions = map[string]bool{
	"move": true, "attach": true, "detach": true, "rotate": true, "connect": true, "request": true,
	"submit": true, "clear": true, "disconnect": true, "skip": true, "survey": true, "adopt": true, "adapt": true,
}

// statusOf is the status message after a step, entities in snapshot order.
func statusOf(sim string, steps int, snap *scenario.Snapshot) statusMessage {
	m := statusMessage{Sim: sim, Steps: steps, Step: snap.Step, Entities: make([]statusEntity, len(snap.Entities))}
	for i, e := range snap.Entities {
		action := e.Action
		if gameActions[action] {
			action = "HIDDEN"
		}
		m.Entities[i] = statusEntity{Name: e.Name, Team: e.Team, Action: action, ActionResult: e.ActionResult}
	}
	return m
}
