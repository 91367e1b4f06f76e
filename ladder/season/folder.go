package season

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/massim-go/massim/internal/atomicfile"
)

// Names inside a season folder (docs/seasons.md, "The season folder").
const (
	SeasonFile   = "season.json"
	TeamsFile    = "teams.json"
	RequestsFile = "requests.json"
	MatchesDir   = "matches"
	MatchFile    = "match.json" // in each match folder, beside the manifest
	// StandingsFile has the league's format (tournament.StandingsFile
	// with ratings), so that massim publish shows the ratings.
	StandingsFile = "standings.json"
	StandingsText = "standings.txt"
)

// Format tags of the season's own files.
const (
	SeasonFormat   = "massim-go season 1"
	TeamsFormat    = "massim-go season teams 1"
	RequestsFormat = "massim-go season requests 1"
	MatchFormat    = "massim-go season match 1"
)

// Season is the season file: written once, when the season starts.
type Season struct {
	Format  string    `json:"format"`
	Seed    int64     `json:"seed"`
	Started time.Time `json:"started"`
	Config  string    `json:"config"` // the config file it was started with
}

// Exists reports whether dir holds a season.
func Exists(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, SeasonFile))
	return err == nil
}

// Create starts a season in dir (made when missing); it refuses a folder
// that holds one already.
func Create(dir string, s Season) error {
	if err := os.MkdirAll(filepath.Join(dir, MatchesDir), 0o755); err != nil {
		return fmt.Errorf("season: %w", err)
	}
	s.Format = SeasonFormat
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("season: %w", err)
	}
	err = atomicfile.Create(filepath.Join(dir, SeasonFile), append(data, '\n'), atomicfile.Options{Durable: true})
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("season: %s holds a season already: continue it with -resume, or use another folder", dir)
	}
	if err != nil {
		return fmt.Errorf("season: %w", err)
	}
	return nil
}

// Read reads the season file of dir.
func Read(dir string) (Season, error) {
	var s Season
	if err := readJSON(filepath.Join(dir, SeasonFile), SeasonFormat, &s, &s.Format); err != nil {
		return s, err
	}
	return s, nil
}

// readJSON decodes path into v and checks its format tag (read into
// format); a missing file is reported with fs.ErrNotExist.
func readJSON(path, want string, v any, format *string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("season: %w", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("season: read %s: %w", path, err)
	}
	if *format != want {
		return fmt.Errorf("season: read %s: format %q, want %q", path, *format, want)
	}
	return nil
}

// writeJSON writes v to path atomically and durably.
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("season: encode %s: %w", path, err)
	}
	if err := atomicfile.Write(path, append(data, '\n'), atomicfile.Options{Durable: true}); err != nil {
		return fmt.Errorf("season: %w", err)
	}
	return nil
}
