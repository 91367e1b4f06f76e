package league

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/internal/atomicfile"
	"github.com/massim-go/massim/tournament"
)

// File and folder names inside a league folder (docs/leagues.md, "The league folder").
const (
	PlanFile      = "league.json"
	MatchesFolder = "matches"
	LogsFolder    = "logs"
	StandingsText = "standings.txt"
)

// PlanFormat tags plan files.
const PlanFormat = "massim-go league 1"

// Plan is the list of a league's matches, fixed when the league starts
// and read back by every resumed run and by every match child.
type Plan struct {
	Format string `json:"format"`
	// Config is the absolute path of the config file; ConfigChecksum is
	// its checksum (config.Config.Checksum), which a resumed league and
	// every match child must find unchanged.
	Config         string `json:"config"`
	ConfigChecksum string `json:"configChecksum"`
	Mode           string `json:"mode"` // round-robin, manual or random
	// Seed is the seed of random mode's line-ups and of the rounds'
	// simulations (RoundSeed), recorded in random mode and with -rounds.
	Seed  *int64   `json:"seed,omitempty"`
	Teams []string `json:"teams"` // every team, config order
	Steps []int    `json:"steps"` // steps of each simulation of a match
	// Rounds is how often every pairing is played (-rounds; 0 in plans of
	// older versions: once).
	Rounds  int       `json:"rounds,omitempty"`
	Created time.Time `json:"created"`
	Matches []Match   `json:"matches"`
}

// Match is one match of the plan.
type Match struct {
	Index int      `json:"index"`
	Teams []string `json:"teams"` // match order
	Dir   string   `json:"dir"`   // its folder, relative to the league folder
	// Round is the 1-based round of the match (-rounds; 0 in plans of
	// older versions: round 1); Seed is the random seed of its
	// simulations, different in every round, when the league sets it.
	Round int    `json:"round,omitempty"`
	Seed  *int64 `json:"seed,omitempty"`
	// Replaced lists the earlier plays of the match that were set aside
	// to play it again (-replay, -replay-team), oldest first; only the
	// match's current folder Dir counts.
	Replaced []Replacement `json:"replaced,omitempty"`
}

// Replacement is an earlier play of a match, kept aside in its own folder.
type Replacement struct {
	Dir string    `json:"dir"` // the folder it was moved to, relative to the league folder
	At  time.Time `json:"at"`  // when it was set aside
	Why string    `json:"why"` // e.g. "-replay-team B"
}

// Planning is how a new league is planned: the flags of massim league.
type Planning struct {
	Matches int   // random mode: how many matches to draw (-matches)
	Seed    int64 // random mode's draw and the rounds' seeds (-seed); Open takes the clock for 0
	Rounds  int   // how often every line-up is played (-rounds); 0 means once
}

// NewPlan plans the league of a config: every match of its tournament
// mode, or, in random mode, pl.Matches matches drawn with pl.Seed (the
// same draw serve -seed makes), each line-up pl.Rounds times (rounds.go).
// confPath is recorded as an absolute path.
func NewPlan(cfg *config.Config, confPath string, pl Planning, now time.Time) (*Plan, error) {
	abs, err := filepath.Abs(confPath)
	if err != nil {
		return nil, fmt.Errorf("league: config path: %w", err)
	}
	checksum, err := cfg.Checksum()
	if err != nil {
		return nil, fmt.Errorf("league: %w", err)
	}
	if pl.Rounds < 0 {
		return nil, fmt.Errorf("league: -rounds %d: at least 1", pl.Rounds)
	}
	rounds := max(pl.Rounds, 1)
	mode, lineups, err := tournament.Lineups(cfg, pl.Matches, pl.Seed)
	if err != nil {
		return nil, fmt.Errorf("league: %w", err)
	}
	if mode == config.ModeRandom && pl.Matches <= 0 {
		return nil, errors.New("league: a random tournament never ends: say how many matches to play (-matches N)")
	}
	if mode == config.ModeRandom && rounds > 1 {
		return nil, fmt.Errorf("league: -rounds %d does not go with random mode, whose line-ups are drawn: "+
			"draw more matches instead (-matches N), each with its own line-up", rounds)
	}
	p := &Plan{Format: PlanFormat, Config: abs, ConfigChecksum: checksum, Mode: mode, Rounds: rounds, Created: now.UTC()}
	if mode == config.ModeRandom || rounds > 1 {
		seed := pl.Seed
		p.Seed = &seed
	}
	for _, t := range cfg.Teams {
		p.Teams = append(p.Teams, t.Name)
	}
	for _, m := range cfg.Match {
		p.Steps = append(p.Steps, m.Steps)
	}
	width := max(3, len(strconv.Itoa(rounds*len(lineups)-1)))
	for round := 1; round <= rounds; round++ {
		for _, lineup := range lineups {
			i := len(p.Matches)
			teams := sides(lineup, round)
			name := fmt.Sprintf("%0*d-%s", width, i, fileSafe(strings.Join(teams, "-")))
			m := Match{Index: i, Teams: teams, Round: round}
			if rounds > 1 {
				name = fmt.Sprintf("%0*d-r%d-%s", width, i, round, fileSafe(strings.Join(teams, "-")))
				seed := RoundSeed(pl.Seed, round)
				m.Seed = &seed
			}
			m.Dir = filepath.ToSlash(filepath.Join(MatchesFolder, name))
			p.Matches = append(p.Matches, m)
		}
	}
	return p, nil
}

// fileSafe keeps team names readable in folder names but replaces what a
// file system might not take.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
}

// Name is the match's folder name, used in logs and the progress view.
func (m Match) Name() string { return filepath.Base(m.Dir) }

// TotalSteps is the number of steps of one match (every simulation).
func (p *Plan) TotalSteps() int {
	n := 0
	for _, s := range p.Steps {
		n += s
	}
	return n
}

// Write writes the plan to dir/league.json, creating dir.
func (p *Plan) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("league: create %s: %w", dir, err)
	}
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("league: encode plan: %w", err)
	}
	path := filepath.Join(dir, PlanFile)
	if err := atomicfile.Write(path, append(data, '\n'), atomicfile.Options{Durable: true}); err != nil {
		return fmt.Errorf("league: write %s: %w", path, err)
	}
	return nil
}

// ReadPlan reads dir/league.json. A missing file is reported with
// fs.ErrNotExist.
func ReadPlan(dir string) (*Plan, error) {
	path := filepath.Join(dir, PlanFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("league: read plan: %w", err)
	}
	var p Plan
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("league: read plan %s: %w", path, err)
	}
	if p.Format != PlanFormat {
		return nil, fmt.Errorf("league: read plan %s: format %q, want %q", path, p.Format, PlanFormat)
	}
	return &p, nil
}

// HasPlan reports whether dir holds a league.
func HasPlan(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, PlanFile))
	return !errors.Is(err, fs.ErrNotExist)
}

// CheckConfig refuses a config that is not the one the league was planned
// with: its results would not belong to the same tournament.
func (p *Plan) CheckConfig(cfg *config.Config) error {
	checksum, err := cfg.Checksum()
	if err != nil {
		return fmt.Errorf("league: %w", err)
	}
	if checksum != p.ConfigChecksum {
		return fmt.Errorf("league: the config has changed since the league was planned (checksum %s, the plan has %s): "+
			"continue the league with the config it started with, or start a new league in another folder", checksum, p.ConfigChecksum)
	}
	return nil
}

// MatchAt returns match i of the plan.
func (p *Plan) MatchAt(i int) (Match, error) {
	if i < 0 || i >= len(p.Matches) {
		return Match{}, fmt.Errorf("league: no match %d: the plan has matches 0 to %d", i, len(p.Matches)-1)
	}
	return p.Matches[i], nil
}

// Finished reports whether the match's folder records it as finished.
func Finished(dir string, m Match) bool {
	man, err := tournament.ReadManifest(filepath.Join(dir, filepath.FromSlash(m.Dir)))
	return err == nil && man.State == tournament.StateFinished
}
