package main

import (
	"flag"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server"
)

// leagueAgentHost is where a league's match listens for agents unless
// told otherwise: its team commands run on the same machine, and nobody
// else has business on a port that changes with every match.
const leagueAgentHost = "127.0.0.1"

// matchWatchFlags are the flags of massim match that a league passes on
// so that a person can watch a match (docs/leagues.md, "Watching"): its
// pace, the league page its monitor links back to, and the address of its
// agent port.
type matchWatchFlags struct {
	pace      time.Duration
	agentHost string
}

func (w *matchWatchFlags) register(fs *flag.FlagSet, f *tournamentFlags) {
	fs.DurationVar(&w.pace, "pace", 0, "minimum duration of a step, so a person can watch (0: as fast as the agents answer)")
	fs.StringVar(&f.leaguePage, "league-page", "", "the URL of the league's page: the match's monitor links back to it when the match is over (massim league sets it)")
	fs.StringVar(&w.agentHost, "agent-host", "", "the address the agent port listens on (default: every address; "+leagueAgentHost+" for a match of -league)")
}

func (w *matchWatchFlags) check() error {
	if w.pace < 0 {
		return fmt.Errorf("-pace %v: want a duration of 0 or more", w.pace)
	}
	return checkAgentHost("-agent-host", w.agentHost)
}

// checkAgentHost accepts an IP address or a host name, without a port.
func checkAgentHost(flag, host string) error {
	if host == "" || net.ParseIP(host) != nil {
		return nil
	}
	if strings.ContainsAny(host, ":/ []") {
		return fmt.Errorf("%s %q: want an IP address or a host name, without a port", flag, host)
	}
	return nil
}

// apply sets the pace and the agent address of the match; a league's match
// listens on loopback unless -agent-host names another address.
func (w *matchWatchFlags) apply(cfg *config.Config, opts *server.Options, inLeague bool) {
	opts.MinStepDuration = w.pace
	host := w.agentHost
	if host == "" && inLeague {
		host = leagueAgentHost
	}
	if host != "" {
		opts.Listen = net.JoinHostPort(host, strconv.Itoa(cfg.Server.Port))
	}
}
