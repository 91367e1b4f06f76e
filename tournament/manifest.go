package tournament

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/massim-go/massim/internal/atomicfile"
	"github.com/massim-go/massim/sim"
)

// File names inside a tournament directory.
const (
	ManifestFile  = "manifest.json"
	StandingsName = "standings.json"
)

// ManifestFormat tags manifest files.
const ManifestFormat = "massim-go tournament 1"

// Tournament states in the manifest.
const (
	StateRunning  = "running"  // being played, or the process died (crash, kill)
	StateStopped  = "stopped"  // ended early by the stop command or a signal
	StateFinished = "finished" // every match of the schedule was played
)

// Manifest is the record of a tournament in its directory: what config it
// plays, when it started, and every completed simulation with its scores.
// It is rewritten atomically after every simulation, before anything else
// is done with the result, so that after a crash a resumed tournament knows
// exactly what was played: a simulation is either in the manifest (and is
// never played or counted again) or it is played again from its start. The
// standings are always recomputed from it. It is also the machine-readable
// summary that "massim standings" merges.
type Manifest struct {
	Format         string `json:"format"`
	ConfigChecksum string `json:"configChecksum"`
	// ConfigParts are digests of the parts of the config by key path
	// (config.ChecksumParts), so that a refused resume names what changed;
	// absent in manifests of older versions.
	ConfigParts map[string]string `json:"configParts,omitempty"`
	Mode        string            `json:"mode"`  // round-robin, manual, random or match
	Teams       []string          `json:"teams"` // the teams in the standings, config order
	RandomSeed  *int64            `json:"randomSeed,omitempty"`
	Started     time.Time         `json:"started"`
	Updated     time.Time         `json:"updated"`
	State       string            `json:"state"`
	// Simulations lists the completed simulations in the order played.
	Simulations []SimRecord `json:"simulations"`
	// ResultFiles lists the result file of each match (docs/config.md, "Result files"), by
	// name inside the directory.
	ResultFiles []ResultFileRecord `json:"resultFiles"`
}

// SimRecord is one completed simulation.
type SimRecord struct {
	Match      int          `json:"match"` // 0-based match number in the schedule
	Index      int          `json:"index"` // index into the config's match array
	Name       string       `json:"name"`  // <startMillis>_<team1>_<team2>…
	MatchStart int64        `json:"matchStart"`
	Scores     []TeamResult `json:"scores"` // match order
	// Forfeit lists the teams none of whose agents connected during the
	// simulation (docs/leagues.md, "Forfeits"): a loss for each of them and
	// a win for a team that was there; when every team forfeits, the
	// simulation is not played and counts for nobody. Ratings leave
	// forfeited simulations out.
	Forfeit []string `json:"forfeit,omitempty"`
	// Absences says, for every team with an agent missing, how many of its
	// agents connected and why the others did not; a team with some agents
	// connected (partial absence) played the simulation.
	Absences []Absence `json:"absences,omitempty"`
}

// Absence is one team's missing agents in a simulation: Team, Connected
// (agents that connected during the simulation), Agents (agents the team
// plays with) and Reason (for people: what went wrong, e.g. the command's
// first error).
type Absence = sim.Absence

// TeamResult is one team's result in a simulation.
type TeamResult struct {
	Team    string `json:"team"`
	Score   int64  `json:"score"`
	Ranking int    `json:"ranking"`
	// Note says what went wrong with the team's command, if anything
	// (docs/config.md, "Team commands"); the result file repeats it.
	Note string `json:"note,omitempty"`
}

// ResultFileRecord names the result file written for a match.
type ResultFileRecord struct {
	Match       int    `json:"match"`
	File        string `json:"file"`
	Simulations int    `json:"simulations"` // fewer than the match array when the match was cut short
}

// Teams lists the teams of the simulation in match order.
func (r SimRecord) Teams() []string {
	names := make([]string, len(r.Scores))
	for i, s := range r.Scores {
		names[i] = s.Team
	}
	return names
}

// ReadManifest reads the manifest of a tournament directory (or a manifest
// file given directly). A missing file is reported with fs.ErrNotExist.
func ReadManifest(path string) (*Manifest, error) {
	var m Manifest
	if err := readFolderFile(path, ManifestFile, "tournament manifest", &m); err != nil {
		return nil, err
	}
	if m.Format != ManifestFormat {
		return nil, fmt.Errorf("tournament: read tournament manifest %s: format %q, want %q", path, m.Format, ManifestFormat)
	}
	return &m, nil
}

// WriteManifest writes m atomically and durably to path: a reader, and a
// process started after a crash, sees the old or the new manifest, never
// a part of one.
func WriteManifest(path string, m Manifest) error { return writeJSONAtomic(path, m) }

// readFolderFile decodes the JSON file name of a tournament folder, or
// path itself when it is a file, into v; what names it in errors. A
// missing file is reported with fs.ErrNotExist.
func readFolderFile(path, name, what string, v any) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, name)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("tournament: read %s: %w", what, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("tournament: read %s %s: %w", what, path, err)
	}
	return nil
}

// writeJSONAtomic writes v as indented JSON to path so that readers (and a
// process started after a crash) see either the old or the new content.
func writeJSONAtomic(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("tournament: encode %s: %w", path, err)
	}
	if err := atomicfile.Write(path, append(data, '\n'), atomicfile.Options{Durable: true}); err != nil {
		return fmt.Errorf("tournament: %w", err)
	}
	return nil
}

// RemoveIfExists removes the file at path; a file that is not there is no
// error.
func RemoveIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("tournament: remove %s: %w", path, err)
	}
	return nil
}
