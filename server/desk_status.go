package server

import (
	"slices"
	"sync"
	"time"

	"github.com/massim-go/massim/protocol"
)

// statusBoard is what status-response reports (docs/protocol.md, "status-request and status-response").
type statusBoard struct {
	mu        sync.Mutex
	teams     []string // teams of the current or last match
	teamSizes []int    // constant: one entry per match entry
	current   int      // index of the running or last started simulation, -1 before the first
}

func newStatusBoard(teamSizes []int) *statusBoard {
	return &statusBoard{teams: []string{}, teamSizes: teamSizes, current: -1}
}

func (b *statusBoard) simulationStarted(teams []string, index int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.teams = slices.Clone(teams)
	b.current = index
}

func (b *statusBoard) response(now time.Time) *protocol.StatusResponse {
	b.mu.Lock()
	defer b.mu.Unlock()
	return &protocol.StatusResponse{
		Time:              now.UnixMilli(),
		Teams:             slices.Clone(b.teams),
		TeamSizes:         slices.Clone(b.teamSizes),
		CurrentSimulation: b.current,
	}
}
