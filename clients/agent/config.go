package agent

import (
	"context"
	"errors"
	"net"
	"time"

	"github.com/rs/zerolog"
)

// Defaults for the zero values of Config.
const (
	DefaultInitialBackoff = 50 * time.Millisecond
	DefaultMaxBackoff     = 2 * time.Second
	DefaultAuthTimeout    = 10 * time.Second
	// DefaultMaxFrameLen bounds a server frame; percepts are far smaller.
	DefaultMaxFrameLen = 16 << 20
)

// DialFunc opens a connection; net.Dialer.DialContext has this shape.
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// Config describes one agent connection.
type Config struct {
	Addr     string // server address, host:port
	User     string // account name, e.g. "agentA1"
	Password string // the team's password; never logged

	Logger zerolog.Logger // the zero value logs nothing

	InitialBackoff time.Duration // first reconnection delay; default 50 ms
	MaxBackoff     time.Duration // cap of the doubling delay; default 2 s
	AuthTimeout    time.Duration // how long to wait for auth-response; default 10 s
	// ServerSilence, when positive, gives up a connection on which no
	// message came for this long during a simulation and opens a new one:
	// a dead link often stays open (docs/protocol.md, "Slow links and dead
	// connections"). Choose several agentTimeouts; a paused tournament
	// sends nothing either. 0 (the default) waits forever.
	ServerSilence time.Duration
	MaxFrameLen   int      // largest server frame accepted; default 16 MiB
	Dial          DialFunc // default: a net.Dialer
}

func (c Config) withDefaults() Config {
	if c.InitialBackoff <= 0 {
		c.InitialBackoff = DefaultInitialBackoff
	}
	if c.MaxBackoff <= 0 {
		c.MaxBackoff = DefaultMaxBackoff
	}
	c.MaxBackoff = max(c.MaxBackoff, c.InitialBackoff)
	if c.AuthTimeout <= 0 {
		c.AuthTimeout = DefaultAuthTimeout
	}
	if c.MaxFrameLen <= 0 {
		c.MaxFrameLen = DefaultMaxFrameLen
	}
	if c.Dial == nil {
		c.Dial = (&net.Dialer{}).DialContext
	}
	return c
}

func (c Config) validate() error {
	switch {
	case c.Addr == "":
		return errors.New("agent: config: Addr is empty")
	case c.User == "":
		return errors.New("agent: config: User is empty")
	}
	return nil
}
