package league

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// Open plans a new league in dir from the config conf (pl; a seed of 0
// takes the clock) and writes its plan or, with resume, reads the plan back
// and checks that the config (conf, or the one it was planned with) is
// still the one it was planned with. A resumed league given another config
// file that plays the same (a team's command fixed in a copy) records that
// file in the plan, so that its matches, wherever they run, use it.
func Open(dir, conf string, resume bool, pl Planning, now time.Time) (*Plan, error) {
	exists := HasPlan(dir)
	switch {
	case exists && !resume:
		return nil, fmt.Errorf("league: %s holds a league already: continue it with -resume, or use another folder (-dir)", dir)
	case exists:
		plan, err := ReadPlan(dir)
		if err != nil {
			return nil, err
		}
		if conf == "" {
			conf = plan.Config
		}
		cfg, err := config.Load(conf)
		if err != nil {
			return nil, err
		}
		if err := plan.CheckConfig(cfg); err != nil {
			return nil, withChangedKeys(err, dir, plan, cfg)
		}
		if pl.Matches != 0 && pl.Matches != len(plan.Matches) {
			return nil, fmt.Errorf("league: -matches %d: the league in %s was planned with %d matches", pl.Matches, dir, len(plan.Matches))
		}
		if pl.Rounds != 0 && pl.Rounds != max(plan.Rounds, 1) {
			return nil, fmt.Errorf("league: -rounds %d: the league in %s was planned with %d rounds", pl.Rounds, dir, max(plan.Rounds, 1))
		}
		if abs, err := filepath.Abs(conf); err == nil && abs != plan.Config {
			plan.Config = abs
			if err := plan.Write(dir); err != nil {
				return nil, err
			}
		}
		return plan, nil
	}
	if conf == "" {
		return nil, errors.New("league: need -conf FILE")
	}
	cfg, err := config.Load(conf)
	if err != nil {
		return nil, err
	}
	if _, err := sim.CheckMatches(cfg); err != nil {
		return nil, err
	}
	if pl.Seed == 0 {
		pl.Seed = now.UnixNano()
	}
	plan, err := NewPlan(cfg, conf, pl, now)
	if err != nil {
		return nil, err
	}
	return plan, plan.Write(dir)
}

// MatchOf reads match index of the league planned in dir; an empty index
// comes from the scheduler's environment, $SLURM_ARRAY_TASK_ID or
// $JOB_COMPLETION_INDEX (docs/leagues.md, "Slurm").
func MatchOf(dir, index string) (*Plan, Match, error) {
	if index == "" {
		index = cmp.Or(os.Getenv("SLURM_ARRAY_TASK_ID"), os.Getenv("JOB_COMPLETION_INDEX"))
	}
	if index == "" {
		return nil, Match{}, errors.New("league: -league needs -index I (or $SLURM_ARRAY_TASK_ID or $JOB_COMPLETION_INDEX)")
	}
	i, err := strconv.Atoi(index)
	if err != nil {
		return nil, Match{}, fmt.Errorf("league: -index %q: not a number", index)
	}
	plan, err := ReadPlan(dir)
	if err != nil {
		return nil, Match{}, err
	}
	m, err := plan.MatchAt(i)
	return plan, m, err
}

// withChangedKeys adds to a refused config what differs, as the manifest
// of a played match (its configParts) tells, so that a teacher who fixed a
// team's command sees what else was changed.
func withChangedKeys(err error, dir string, p *Plan, cfg *config.Config) error {
	now, perr := cfg.ChecksumParts()
	if perr != nil {
		return err
	}
	for _, m := range p.Matches {
		man, merr := tournament.ReadManifest(filepath.Join(dir, filepath.FromSlash(m.Dir)))
		if merr != nil || man.ConfigChecksum != p.ConfigChecksum || man.ConfigParts == nil {
			continue
		}
		keys := config.DifferingParts(man.ConfigParts, now)
		if len(keys) == 0 {
			return err
		}
		if len(keys) > 5 {
			keys = append(keys[:5], fmt.Sprintf("and %d more", len(keys)-5))
		}
		return fmt.Errorf("%w (these keys differ: %s; a team's command, dir, env and image may change)", err, strings.Join(keys, ", "))
	}
	return err
}
