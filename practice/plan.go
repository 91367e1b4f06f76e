package practice

import (
	"errors"
	"fmt"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/replays/rebuild"
	"github.com/massim-go/massim/sim"
)

// Options choose what a practice plays.
type Options struct {
	// Config is the config to play (nil: the embedded 2022 contest).
	Config *config.Config
	// Sim is the 1-based match entry to play; 0 plays every entry.
	Sim int
	// Steps cuts each simulation to this many steps (0: as configured).
	Steps int
	// Seed fixes the worlds' seed; HasSeed says it is set (else the clock).
	Seed    int64
	HasSeed bool
	// Password is the password of both teams' accounts ("" : the config's,
	// or "1").
	Password string
	// From continues a recorded simulation after step Step instead.
	From *rebuild.Record
	Step int
	// Swap makes the team play the recorded simulation's second team (and
	// the opponent its first); without it the team plays the first.
	Swap bool
	// TeamCommand and OpponentCommand, when set, are run with sh -c as
	// the team command of each side (docs/config.md, "Team commands"):
	// the server starts them before the match and waits for their agents.
	TeamCommand, OpponentCommand string
}

// Plan is a practice ready to play.
type Plan struct {
	// Config is what the server plays: one match of two teams.
	Config *config.Config
	// You is the team's side, Opponent the other (both in Config.Teams).
	You, Opponent config.Team
	// Rerun and Lineup go into server.Options.
	Rerun  *sim.Rerun
	Lineup []string
}

// defaultTeams are practice's teams when the config has fewer than two:
// the team is A, the opponent B (docs/practice.md).
var defaultTeams = []config.Team{{Name: "A", Prefix: "agent", Password: "1"}, {Name: "B", Prefix: "agent", Password: "1"}}

// NewPlan turns options into a plan. Without From the team is the first of
// the two teams (the config's first two, or A and B); with From the teams
// are the recorded ones, and Swap chooses the side.
func NewPlan(o Options) (*Plan, error) {
	cfg := o.Config
	if cfg == nil {
		var err error
		if cfg, err = config.Contest2022(); err != nil {
			return nil, fmt.Errorf("practice: %w", err)
		}
	}
	c := *cfg // the plan's own copy: its match array and teams change
	teams := defaultTeams
	if len(c.Teams) >= 2 {
		teams = c.Teams[:2]
	}
	c.Teams = append([]config.Team(nil), teams...)
	for i := range c.Teams {
		if o.Password != "" {
			c.Teams[i].Password = o.Password
		}
	}
	c.Server.TeamsPerMatch = 2
	c.Server.WaitBetweenSimulations = 0
	p := &Plan{Config: &c}
	if o.From != nil {
		if err := p.continueFrom(o); err != nil {
			return nil, err
		}
	} else {
		if o.Swap {
			return nil, errors.New("practice: -swap needs -from (it chooses the side of a recorded simulation)")
		}
		if err := p.chooseMatch(o); err != nil {
			return nil, err
		}
		p.Lineup = []string{c.Teams[0].Name, c.Teams[1].Name}
	}
	you := 0
	if o.Swap {
		you = 1
	}
	for side, command := range [2]string{o.TeamCommand, o.OpponentCommand} {
		if command != "" {
			p.Config.Teams[you^side].Command = []string{"sh", "-c", command}
		}
	}
	p.You, p.Opponent = p.Config.Teams[you], p.Config.Teams[1-you]
	return p, nil
}

// chooseMatch keeps the chosen match entry, with the steps and seed asked for.
func (p *Plan) chooseMatch(o Options) error {
	c := p.Config
	if o.Sim < 0 || o.Sim > len(c.Match) {
		return fmt.Errorf("practice: -sim %d: the config has simulations 1 … %d", o.Sim, len(c.Match))
	}
	matches := c.Match
	if o.Sim > 0 {
		matches = matches[o.Sim-1 : o.Sim]
	}
	c.Match = append([]config.Match(nil), matches...)
	for i := range c.Match {
		if o.Steps > 0 {
			c.Match[i].Steps = o.Steps
		}
		if o.HasSeed {
			c.Match[i].RandomSeed, c.Match[i].HasRandomSeed = o.Seed+int64(i), true
		}
	}
	return nil
}

// continueFrom plays the recorded simulation on: its teams with practice's
// passwords.
func (p *Plan) continueFrom(o Options) error {
	if o.Steps > 0 || o.HasSeed || o.Sim > 1 {
		return errors.New("practice: -from plays the recorded simulation: -sim, -steps and -seed do not apply")
	}
	c := p.Config
	recorded := o.From.Meta.Record.Teams
	if len(recorded) != 2 {
		return fmt.Errorf("practice: the replay has %d teams; practice plays two", len(recorded))
	}
	for i, t := range recorded {
		c.Teams[i].Name, c.Teams[i].Prefix = t.Name, t.Prefix
	}
	var err error
	p.Rerun, p.Lineup, err = Continue(c, o.From, o.Step)
	return err
}

// Accounts are the accounts of the team's side in the plan's simulations.
func (p *Plan) Accounts() []config.Account {
	var out []config.Account
	for _, a := range p.Config.Accounts() {
		if a.Team == p.You.Name {
			out = append(out, a)
		}
	}
	return out
}

// TeamSize is the number of agents per team (the largest of the plan's
// simulations).
func (p *Plan) TeamSize() int { return p.Config.MaxTeamSize() }
