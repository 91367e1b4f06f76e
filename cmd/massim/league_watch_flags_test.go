package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/league"
)

// The watching flags of massim league: what every match and what one match
// gets, and what is refused.
func TestLeagueWatchFlags(t *testing.T) {
	plan := &league.Plan{Matches: []league.Match{{Index: 0}, {Index: 1}, {Index: 2}}}
	cases := []struct {
		name      string
		w         leagueWatchFlags
		monitor   string
		slurm     bool
		refused   string
		every     []string
		showcased []string // match 1's own flags
	}{
		{name: "nothing", w: leagueWatchFlags{showcase: -1, agentHost: leagueAgentHost}, monitor: "off"},
		{name: "every match paced", w: leagueWatchFlags{showcase: -1, pace: time.Second, agentHost: leagueAgentHost}, monitor: "off",
			every: []string{"-pace", "1s"}},
		{name: "showcase at the default pace", w: leagueWatchFlags{showcase: 1, agentHost: leagueAgentHost}, monitor: "8000",
			showcased: []string{"-pace", "500ms"}},
		{name: "showcase at -pace", w: leagueWatchFlags{showcase: 1, pace: 2 * time.Second, agentHost: leagueAgentHost}, monitor: ":8000",
			showcased: []string{"-pace", "2s"}},
		{name: "agents from other machines", w: leagueWatchFlags{showcase: -1, agentHost: "0.0.0.0"}, monitor: "off",
			every: []string{"-agent-host", "0.0.0.0"}},
		{name: "showcase without the page", w: leagueWatchFlags{showcase: 1, agentHost: leagueAgentHost}, monitor: "off", refused: "give -monitor too"},
		{name: "linger without the page", w: leagueWatchFlags{showcase: -1, linger: true, agentHost: leagueAgentHost}, monitor: "off", refused: "give -monitor too"},
		{name: "on slurm", w: leagueWatchFlags{showcase: -1, pace: time.Second, agentHost: leagueAgentHost}, monitor: "off", slurm: true, refused: "do not go with -slurm"},
		{name: "negative pace", w: leagueWatchFlags{showcase: -1, pace: -time.Second, agentHost: leagueAgentHost}, monitor: "off", refused: "0 or more"},
		{name: "a port in the host", w: leagueWatchFlags{showcase: -1, agentHost: "127.0.0.1:4000"}, monitor: "off", refused: "without a port"},
		{name: "no such match", w: leagueWatchFlags{showcase: 3, agentHost: leagueAgentHost}, monitor: "8000", refused: "no match of that index (0 to 2)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.w.check(c.monitor, c.slurm)
			if err == nil {
				err = c.w.checkPlan(plan)
			}
			if c.refused != "" {
				assert.ErrorContains(t, err, c.refused)
				return
			}
			assert.NoError(t, err)
			assert.Equal(t, c.every, c.w.childArgs())
			assert.Equal(t, c.showcased, c.w.matchArgs(plan.Matches[1]))
			assert.Nil(t, c.w.matchArgs(plan.Matches[0]), "the other matches are not paced on their own")
		})
	}
}
