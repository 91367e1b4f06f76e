package monitor

import (
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
)

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

// statusOf is the status message after a step, entities in snapshot order.
func statusOf(sim string, steps int, snap *scenario.Snapshot) statusMessage {
	m := statusMessage{Sim: sim, Steps: steps, Step: snap.Step, Entities: make([]statusEntity, len(snap.Entities))}
	for i, e := range snap.Entities {
		action := e.Action
		// The public status page shows who answers without revealing
		// strategies: game actions are hidden, no_action and unknown stay.
		if protocol.IsGameAction(action) {
			action = "HIDDEN"
		}
		m.Entities[i] = statusEntity{Name: e.Name, Team: e.Team, Action: action, ActionResult: e.ActionResult}
	}
	return m
}
