package loadtest

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/protocol"
)

// probe gathers what the agents see: logins, the arrival of each
// step's first request-action, sim-ends and actions the server did not get.
type probe struct {
	agents   int64
	loggedIn atomic.Int64
	allIn    chan struct{}
	ended    atomic.Int64
	allEnded chan struct{}
	first    sync.Once
	started  chan struct{} // closed at the first request-action
	stepSeen []atomic.Int64
	missed   atomic.Int64 // percepts saying the previous step's action did not count
}

func newProbe(agents, steps int) *probe {
	return &probe{agents: int64(agents), allIn: make(chan struct{}), allEnded: make(chan struct{}),
		started: make(chan struct{}), stepSeen: make([]atomic.Int64, steps)}
}

// dialer returns one agent's dial function: the first bytes the server
// sends on any of its connections are the auth-response, so the first read
// that returns data counts the agent as logged in (once).
func (p *probe) dialer() agent.DialFunc {
	var once sync.Once
	var d net.Dialer
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &loginConn{Conn: c, once: &once, probe: p}, nil
	}
}

type loginConn struct {
	net.Conn
	once  *sync.Once
	probe *probe
	seen  bool
}

func (c *loginConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 && !c.seen {
		c.seen = true
		c.once.Do(func() {
			if c.probe.loggedIn.Add(1) == c.probe.agents {
				close(c.probe.allIn)
			}
		})
	}
	return n, err
}

func (p *probe) request(ra *protocol.RequestAction) {
	p.first.Do(func() { close(p.started) })
	if ra.Step >= 0 && ra.Step < len(p.stepSeen) {
		p.stepSeen[ra.Step].CompareAndSwap(0, time.Now().UnixNano())
	}
	if ra.Step > 0 && ra.Percept.LastAction == "no_action" {
		p.missed.Add(1)
	}
}

func (p *probe) simEnd() {
	if p.ended.Add(1) == p.agents {
		close(p.allEnded)
	}
}

// stepTimes are the intervals between the first request-actions of
// consecutive steps.
func (p *probe) stepTimes() []time.Duration {
	var out []time.Duration
	for i := 1; i < len(p.stepSeen); i++ {
		a, b := p.stepSeen[i-1].Load(), p.stepSeen[i].Load()
		if a > 0 && b > 0 {
			out = append(out, time.Duration(b-a))
		}
	}
	return out
}

// probedBehaviour tells the probe about requests and sim-ends.
type probedBehaviour struct {
	agent.Behaviour
	probe *probe
}

func (b probedBehaviour) Act(ra *protocol.RequestAction) (string, []string) {
	b.probe.request(ra)
	return b.Behaviour.Act(ra)
}

func (b probedBehaviour) SimEnd(e protocol.SimEnd) {
	b.probe.simEnd()
	b.Behaviour.SimEnd(e)
}
