package sim

import (
	"bytes"
	"fmt"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/maps"
	"github.com/massim-go/massim/scenario"
)

// FileReader reads the files a match entry names (grid.file, setup);
// *config.Config is one, a replay's match record another.
type FileReader interface {
	ReadFile(path string) ([]byte, error)
}

// WorldParams turns a config match entry into the parameters of a pure
// world, loading the files it names. Without a configured seed the seed is
// the simulation's start time in ms (docs/config.md, "Simulation keys").
func WorldParams(cfg FileReader, m config.Match, start time.Time) (scenario.Params, error) {
	p, err := worldParams(cfg, m, start)
	if err != nil {
		return p, fmt.Errorf("sim: %w", err)
	}
	return p, nil
}

// worldParams is WorldParams with errors not yet naming the package.
func worldParams(cfg FileReader, m config.Match, start time.Time) (scenario.Params, error) {
	seed := start.UnixMilli()
	if m.HasRandomSeed {
		seed = m.RandomSeed
	}
	p := scenario.Params{
		Steps:               m.Steps,
		Seed:                seed,
		RandomFail:          m.RandomFail,
		TeamSize:            m.TeamSize,
		ClusterBounds:       bounds(m.ClusterBounds),
		ClearEnergyCost:     m.ClearEnergyCost,
		DeactivatedDuration: m.DeactivatedDuration,
		MaxEnergy:           m.MaxEnergy,
		RefreshEnergy:       m.RefreshEnergy,
		StepRecharge:        m.StepRecharge,
		ClearDamage:         m.ClearDamage,
		AttachLimit:         m.AttachLimit,
		BlockTypes:          bounds(m.BlockTypes),
		Dispensers:          bounds(m.Dispensers),
		AbsolutePosition:    m.AbsolutePosition,
		Grid: scenario.GridParams{
			Width:     m.Grid.Width,
			Height:    m.Grid.Height,
			Goals:     zones(m.Grid.Goals),
			RoleZones: zones(m.Grid.RoleZones),
			Connected: m.Grid.Connected,
		},
		Tasks: scenario.TaskParams{
			Size: bounds(m.Tasks.Size), Concurrent: m.Tasks.Concurrent,
			Iterations: bounds(m.Tasks.Iterations), MaxDuration: bounds(m.Tasks.MaxDuration),
		},
		Events: scenario.EventParams{
			Chance: m.Events.Chance, Radius: bounds(m.Events.Radius), Warning: m.Events.Warning,
			Create: bounds(m.Events.Create), Perimeter: m.Events.Perimeter,
		},
		Regulation: scenario.RegulationParams{Simultaneous: m.Regulation.Simultaneous, Chance: m.Regulation.Chance},
	}
	for _, r := range m.Roles {
		p.Roles = append(p.Roles, scenario.Role{
			Name: r.Name, Vision: r.Vision, Actions: r.Actions, Speed: r.Speed,
			ClearChance: r.ClearChance, ClearMaxDistance: r.ClearMaxDistance,
		})
	}
	for _, in := range m.Grid.Instructions {
		p.Grid.Instructions = append(p.Grid.Instructions, maps.Instruction{Name: in.Name, Args: in.Args})
	}
	for _, s := range m.Regulation.Subjects {
		p.Regulation.Subjects = append(p.Regulation.Subjects, scenario.NormSubject{
			Name: s.Name, Announcement: bounds(s.Announcement), Duration: bounds(s.Duration),
			Punishment: bounds(s.Punishment), Weight: s.Weight, Quantity: bounds(s.Quantity), Playing: s.Playing,
		})
	}
	if m.Grid.File != "" {
		data, err := cfg.ReadFile(m.Grid.File)
		if err != nil {
			return p, fmt.Errorf("grid.file: %w", err)
		}
		bm, err := maps.DecodeBitmap(bytes.NewReader(data))
		if err != nil {
			return p, fmt.Errorf("grid.file %s: %w", m.Grid.File, err)
		}
		p.Grid.Bitmap = bm
	}
	if m.Setup != "" {
		data, err := cfg.ReadFile(m.Setup)
		if err != nil {
			return p, fmt.Errorf("setup: %w", err)
		}
		// Lines that are no command are kept as skips: the world reports
		// them with the lines it cannot apply (World.SetupWarnings).
		p.Setup, _ = scenario.ParseSetup(m.Setup, data)
	}
	return p, nil
}

// CheckMatches builds every match entry's world once, before the server
// starts, so that a broken bitmap fails at start-up instead of in the
// middle of a tournament, and the setup lines the worlds skip (a line that
// is no command, an occupied or off-grid cell, an unknown agent or block
// type…) are known at once. It returns those lines as warnings,
// "match[i]: file:line: reason (line skipped)"; -strict-setup refuses to
// start when there are any. The trial world plays the first teamsPerMatch
// teams of the config (the first round-robin match) with the configured
// seed, or seed 0, so a simulation with another line-up or seed may skip
// other lines: it logs them when it starts.
func CheckMatches(cfg *config.Config) (warnings []string, err error) {
	n := min(max(cfg.Server.TeamsPerMatch, 1), len(cfg.Teams))
	teams := make([]scenario.Team, n)
	for i, t := range cfg.Teams[:n] {
		teams[i] = scenario.Team{Name: t.Name, Prefix: t.Prefix}
	}
	for i, m := range cfg.Match {
		p, err := worldParams(cfg, m, time.UnixMilli(0))
		if err != nil {
			return warnings, fmt.Errorf("sim: match[%d]: %w", i, err)
		}
		w, err := scenario.New(p, teams)
		if err != nil {
			return warnings, fmt.Errorf("sim: match[%d]: %w", i, err)
		}
		for _, sw := range w.SetupWarnings() {
			warnings = append(warnings, fmt.Sprintf("match[%d]: setup %s", i, sw))
		}
	}
	return warnings, nil
}

func bounds(b config.Bounds) scenario.Bounds { return scenario.Bounds{Min: b.Min, Max: b.Max} }

func zones(z config.Zones) scenario.ZoneParams {
	return scenario.ZoneParams{Number: z.Number, Size: bounds(z.Size), MoveProbability: z.MoveProbability}
}
