package teamcmdtest

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/protocol"
)

// submitter submits the first task it sees whenever it holds a block, and
// skips otherwise: a team that scores at once in a world a setup file
// prepared (its agent in a goal zone with the task's block attached), so
// that a test sees results that depend on which team program played.
type submitter struct{}

func (submitter) SimStart(protocol.InitialPercept) {}
func (submitter) SimEnd(protocol.SimEnd)           {}
func (submitter) Act(ra *protocol.RequestAction) (string, []string) {
	if len(ra.Percept.Attached) > 0 && len(ra.Percept.Tasks) > 0 {
		return protocol.ActionSubmit, []string{ra.Percept.Tasks[0].Name}
	}
	return "skip", nil
}

// connectSubmitters runs submitter agents for the MASSIM_* values until
// SIGTERM.
func connectSubmitters() error {
	port, err := strconv.Atoi(os.Getenv("MASSIM_PORT"))
	if err != nil {
		return fmt.Errorf("MASSIM_PORT: %w", err)
	}
	count, err := strconv.Atoi(os.Getenv("MASSIM_AGENTS"))
	if err != nil {
		return fmt.Errorf("MASSIM_AGENTS: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	err = team.Run(ctx, team.Config{Host: os.Getenv("MASSIM_HOST"), Port: port, Team: os.Getenv("MASSIM_TEAM"),
		Prefix: os.Getenv("MASSIM_PREFIX"), Password: os.Getenv("MASSIM_PASSWORD"), Count: count,
		MaxBackoff: 100 * time.Millisecond}, func(int, string) agent.Behaviour { return submitter{} })
	if ctx.Err() != nil {
		return nil
	}
	return err
}
