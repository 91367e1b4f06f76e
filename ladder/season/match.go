package season

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"
)

// Kinds of matches.
const (
	KindRanked   = "ranked"   // paired by the ladder or a ranked scrimmage: rated
	KindUnranked = "unranked" // an unranked scrimmage: recorded, not rated
	KindHouse    = "house"    // against the house team: recorded, not rated
)

// States of a match.
const (
	StateRunning  = "running"  // being played (or the ladder died meanwhile)
	StateFinished = "finished" // every simulation was played and recorded
	StateCut      = "cut"      // ended early (a stop, or a crash); never counted
	StateFailed   = "failed"   // could not be played (its server did not start)
)

// MatchRecord is the ladder's own file of a match folder (match.json),
// beside what the server writes there (manifest, results, stats,
// replays). It is written before the match starts and again when it ends.
type MatchRecord struct {
	Format  string   `json:"format"`
	Number  int      `json:"number"` // 1, 2, … in the order matches started
	Teams   []string `json:"teams"`  // in match order
	Kind    string   `json:"kind"`
	Request int      `json:"request,omitempty"` // the scrimmage request it plays
	House   string   `json:"house,omitempty"`   // the house team, for a house match
	// Ready is when the later of its teams became ready, Started when the
	// match was set up, SimStart when its first simulation started; the
	// time from Ready to SimStart is what a team waits once paired.
	Ready    time.Time `json:"ready"`
	Started  time.Time `json:"started"`
	SimStart time.Time `json:"simStart,omitzero"`
	Ended    time.Time `json:"ended,omitzero"`
	// Waits are how long each team (match order) had been ready when the
	// match was set up, in milliseconds.
	Waits []int64 `json:"waits,omitempty"`
	State string  `json:"state"`
	Note  string  `json:"note,omitempty"` // why it was cut or failed
	// After holds the ratings of its teams once it is counted (rated
	// matches only), for the rating history.
	After []RatingPoint `json:"after,omitempty"`
}

// RatingPoint is a team's rating after a match.
type RatingPoint struct {
	Team   string  `json:"team"`
	Rating float64 `json:"rating"`
	Error  float64 `json:"ratingError"`
	Games  int     `json:"games"` // rated matches counted so far
}

// Rated reports whether the match counts for ratings and points.
func (m MatchRecord) Rated() bool { return m.Kind == KindRanked && m.State == StateFinished }

// Name is the match's folder name and id: its number, zero-padded.
func Name(number int) string { return fmt.Sprintf("%04d", number) }

// MatchDir is the folder of match number in the season folder dir.
func MatchDir(dir string, number int) string {
	return filepath.Join(dir, MatchesDir, Name(number))
}

// WriteMatch writes the match record into its folder (made when missing).
func WriteMatch(dir string, m MatchRecord) error {
	folder := MatchDir(dir, m.Number)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return fmt.Errorf("season: %w", err)
	}
	m.Format = MatchFormat
	return writeJSON(filepath.Join(folder, MatchFile), m)
}

// ReadMatch reads the record of match number.
func ReadMatch(dir string, number int) (MatchRecord, error) {
	var m MatchRecord
	err := readJSON(filepath.Join(MatchDir(dir, number), MatchFile), MatchFormat, &m, &m.Format)
	return m, err
}

// MatchNumbers lists the matches of the season folder dir, in order: the
// folders of matches/ whose name is a number and that hold a match.json.
func MatchNumbers(dir string) ([]int, error) {
	entries, err := os.ReadDir(filepath.Join(dir, MatchesDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("season: %w", err)
	}
	var out []int
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil || !e.IsDir() || n <= 0 {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, MatchesDir, e.Name(), MatchFile)); err == nil {
			out = append(out, n)
		}
	}
	sort.Ints(out)
	return out, nil
}
