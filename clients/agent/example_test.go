package agent_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/random"
	massimconfig "github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/server"
)

// walker is a whole agent: it walks north every step and says what it
// learns.
type walker struct{}

func (walker) SimStart(p protocol.InitialPercept) {
	fmt.Printf("%s plays for team %s: %d steps, %d roles\n", p.Name, p.Team, p.Steps, len(p.Roles))
}

func (walker) Act(ra *protocol.RequestAction) (string, []string) {
	if ra.Step > 0 {
		fmt.Printf("step %d: my last action was %s\n", ra.Step, ra.Percept.LastAction)
	}
	return "move", []string{"n"}
}

func (walker) SimEnd(e protocol.SimEnd) {
	fmt.Printf("simulation over: score %d, rank %d\n", e.Score, e.Ranking)
}

// Run connects one agent to a server and plays until the server says bye.
// The example starts a server of its own (the demo config cut down to one
// agent per team and three steps) and a random mover for team B.
func Example() {
	addr, stop := demoServer()
	defer stop()
	go func() {
		_ = agent.Run(context.Background(), agent.Config{Addr: addr, User: "agentB1", Password: "1"}, random.New(1))
	}()

	err := agent.Run(context.Background(), agent.Config{Addr: addr, User: "agentA1", Password: "1"}, walker{})
	fmt.Println("run returned:", err)
	// Output:
	// agentA1 plays for team A: 3 steps, 5 roles
	// step 1: my last action was move
	// step 2: my last action was move
	// simulation over: score 0, rank 1
	// run returned: <nil>
}

// demoServer plays the demo config with one agent per team for three
// steps on loopback, starting once both agents are in.
func demoServer() (addr string, stop func()) {
	cfg, err := massimconfig.Demo()
	if err != nil {
		panic(err)
	}
	cfg.Match[0].Steps, cfg.Match[0].TeamSize = 3, 1
	dir, err := os.MkdirTemp("", "agent-example-")
	if err != nil {
		panic(err)
	}
	cfg.Server.ResultPath = dir
	srv := server.New(cfg, zerolog.Nop(), server.Options{Dir: dir, Listen: "127.0.0.1:0", WaitForAgents: time.Minute})
	if err := srv.Listen(); err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = srv.Run(ctx)
	}()
	return srv.Addr().(*net.TCPAddr).String(), func() {
		cancel()
		<-done
		_ = os.RemoveAll(dir)
	}
}
