package tournament

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/massim-go/massim/sim"
)

// StatsFile is the name of the stats file in a tournament folder.
const StatsFile = "stats.json"

// StatsFormat tags stats files.
const StatsFormat = "massim-go stats 1"

// Stats is the stats file: per simulation, how each agent took part
// (answers in time, timeouts, late, stale and malformed messages,
// disconnects). It is rewritten after every simulation, after the
// manifest, and lists the simulations the manifest records.
type Stats struct {
	Format      string     `json:"format"`
	Simulations []SimStats `json:"simulations"`
}

// SimStats are the AgentStats of one simulation.
type SimStats struct {
	Name   string           `json:"name"`
	Match  int              `json:"match"`
	Index  int              `json:"index"`
	Teams  []string         `json:"teams"`
	Steps  int              `json:"steps"`
	Agents []sim.AgentStats `json:"agents"`
	// Commands say how the team commands fared (teams without a command
	// are not listed).
	Commands []sim.CommandStats `json:"commands,omitempty"`
}

// ReadStats reads the stats file of a tournament folder (or a stats file
// given directly). A missing file is reported with fs.ErrNotExist.
func ReadStats(path string) (*Stats, error) {
	var st Stats
	if err := readFolderFile(path, StatsFile, "stats", &st); err != nil {
		return nil, err
	}
	if st.Format != StatsFormat {
		return nil, fmt.Errorf("tournament: read stats %s: format %q, want %q", path, st.Format, StatsFormat)
	}
	return &st, nil
}

// WriteStats writes the stats file atomically to path.
func WriteStats(path string, st Stats) error { return writeJSONAtomic(path, st) }

// ResumedStats are the stats of the recorded simulations of a resumed
// tournament: those of a simulation that is played again are dropped. A
// missing or unreadable stats file starts empty (the stats are a report,
// the manifest is the record).
func ResumedStats(dir string, m *Manifest) ([]SimStats, error) {
	old, err := ReadStats(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(old.Simulations, func(s SimStats) bool {
		return !slices.ContainsFunc(m.Simulations, func(r SimRecord) bool { return r.Name == s.Name })
	}), nil
}
