package publish

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/massim-go/massim/ladder/season"
	"github.com/massim-go/massim/league"
	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/tournament"
)

// Site is what the index page shows.
type Site struct {
	Title     string
	Standings []Standing
	Rated     bool // some team has a rating (a league's standings.json)
	Forfeits  bool // some team forfeited a simulation (the standings get a column)
	Matches   []Match
	Loose     []*Sim  // replays that no manifest names
	Replays   int     // replay files on the site
	Bytes     int64   // their size
	League    *League // a league folder's plan: team pages, cross table; nil otherwise

	results map[string]string // site path → result file it copies
}

// Standing is a line of the standings: tournament.Standing and, for a league,
// the team's rating.
type Standing struct {
	tournament.Standing
	Rating, RatingError float64
}

// Match is one match of a tournament folder: its simulations in order.
type Match struct {
	ID     string // anchor on the index page
	Folder string // the tournament folder, relative to the published folder
	Number int    // 1-based, within its folder; in a league its index in the plan
	Label  string // "Match 3", in a league "Match 37 · Builders vs Mine"
	Round  int    // a league's round of the match (1-based; 0 outside a league)
	Teams  []string
	Points []int // the teams' points over its simulations
	Winner string
	Sims   []*Sim
	Result string // site path of the match's result file ("" when there is none)
	// Pending: a league's match not (completely) played yet.
	Pending bool
	// Replaced lists the earlier plays of a league's match that were set
	// aside to play it again; they do not count.
	Replaced []Replaced
}

// Sim is one simulation and its replay.
type Sim struct {
	ID      string // anchor on the index page
	Name    string
	Number  int    // 1-based within its match (0: a replay no manifest names)
	Map     string // the map played, for people ("" when unknown)
	Teams   []string
	Scores  []int64
	Winner  string // "" for a draw
	Start   time.Time
	Steps   int // the simulation's steps
	Last    int // the replay's last step (-2: none)
	Status  string
	Problem string
	Replay  string // site path of the replay ("" when there is none)
	Size    int64
	// Forfeit and Absences are the manifest's: teams none of whose agents
	// connected, and every team with agents missing.
	Forfeit  []string
	Absences []tournament.Absence

	index int // the config's match entry of the simulation

	src    string // the replay as found (a file or an official folder)
	folder string // the tournament folder that holds it
	data   []byte // the compact replay
}

// tournamentFolder is a folder holding manifest.json.
type tournamentFolder struct {
	rel      string
	manifest *tournament.Manifest
}

// collect reads dir: its tournament folders, their replays and the
// replays no manifest names. Replays are read into memory (converted when
// official, unless out holds the conversion already); they are compact
// files of a few hundred KB.
func collect(dir, out string) (*Site, error) {
	var tours []tournamentFolder
	var found []string // replay files and official replay folders
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.IsDir() && path != dir && setAside(d.Name()):
			return filepath.SkipDir
		case d.IsDir() && path != dir && isOfficial(path):
			found = append(found, path)
			return filepath.SkipDir
		case d.IsDir():
			return nil
		case d.Name() == tournament.ManifestFile:
			m, err := tournament.ReadManifest(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, filepath.Dir(path))
			tours = append(tours, tournamentFolder{rel: filepath.ToSlash(rel), manifest: m})
		case strings.HasSuffix(d.Name(), compact.Extension):
			found = append(found, path)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	site := &Site{Title: filepath.Base(filepath.Clean(dir)), results: map[string]string{}}
	if abs, err := filepath.Abs(dir); err == nil {
		site.Title = filepath.Base(abs)
	}
	var allSims []tournament.SimRecord
	var teams []string
	var aside map[string]bool // a league's plays set aside: not on the site
	if league.HasPlan(dir) {
		plan, err := league.ReadPlan(dir)
		if err != nil {
			return nil, fmt.Errorf("publish: %w", err)
		}
		allSims, aside = site.leagueMatches(dir, plan, tours)
		teams = plan.Teams
	} else {
		for _, t := range tours {
			site.Matches = append(site.Matches, site.folderMatches(dir, t)...)
			allSims = append(allSims, t.manifest.Simulations...)
			for _, name := range t.manifest.Teams {
				if !slices.Contains(teams, name) {
					teams = append(teams, name)
				}
			}
		}
	}
	byKey := map[string]*Sim{} // folder + "\x00" + sim name
	for _, m := range site.Matches {
		for _, s := range m.Sims {
			byKey[m.Folder+"\x00"+s.Name] = s
		}
	}
	used := map[string]bool{}
	for _, path := range found {
		owner := ownerOf(dir, path, tours)
		if aside[owner] {
			continue
		}
		r, data, name, err := readReplay(path, out, used)
		if err != nil {
			return nil, err
		}
		s := byKey[owner+"\x00"+r.Meta.Sim]
		if s == nil || s.data != nil {
			s = &Sim{Name: r.Meta.Sim, Teams: r.Meta.Static.Teams, Start: r.Meta.MatchStart}
			site.Loose = append(site.Loose, s)
		}
		s.src, s.folder, s.data = path, owner, data
		if err := s.describe(r); err != nil {
			return nil, fmt.Errorf("publish: %s: %w", path, err)
		}
		s.Replay = siteReplay(name)
		s.Size = int64(len(data))
		site.Replays++
		site.Bytes += s.Size
	}
	slices.SortStableFunc(site.Loose, func(a, b *Sim) int { return cmp.Or(a.Start.Compare(b.Start), cmp.Compare(a.Name, b.Name)) })
	for _, s := range site.Loose {
		s.ID = "sim-" + slug(s.Name)
	}
	site.Standings, site.Rated = standings(dir, teams, allSims)
	site.Forfeits = slices.ContainsFunc(site.Standings, func(s Standing) bool { return s.Forfeits > 0 })
	return site, nil
}

// folderMatches are the matches of tournament folder t, with their result
// files.
func (site *Site) folderMatches(dir string, t tournamentFolder) []Match {
	ms := matchesOf(t)
	for i := range ms {
		m := &ms[i]
		for _, rf := range t.manifest.ResultFiles {
			src := filepath.Join(dir, filepath.FromSlash(t.rel), rf.File)
			if _, err := os.Stat(src); err != nil || rf.Match+1 != m.Number || rf.File != filepath.Base(rf.File) {
				continue // a result file gone from the folder is left out, not an error
			}
			m.Result = path.Join("results", slug(t.rel), rf.File)
			site.results[m.Result] = src
		}
	}
	return ms
}

// matchesOf groups a tournament's simulations by match.
func matchesOf(t tournamentFolder) []Match {
	var out []Match
	for _, rec := range t.manifest.Simulations {
		if len(out) == 0 || out[len(out)-1].Number != rec.Match+1 {
			id := "match-" + strings.Trim(slug(t.rel)+"-"+fmt.Sprint(rec.Match+1), "-")
			out = append(out, Match{ID: id, Folder: t.rel, Number: rec.Match + 1, Label: fmt.Sprintf("Match %d", rec.Match+1),
				Teams: rec.Teams()})
		}
		m := &out[len(out)-1]
		s := &Sim{ID: "sim-" + slug(rec.Name), Name: rec.Name, Number: len(m.Sims) + 1, Teams: rec.Teams(),
			Start: time.UnixMilli(rec.MatchStart).UTC(), Last: -2, Status: "no replay",
			Forfeit: rec.Forfeit, Absences: rec.Absences, index: rec.Index}
		for _, r := range rec.Scores {
			s.Scores = append(s.Scores, r.Score)
		}
		s.Winner = winnerOf(s.Teams, s.Scores)
		m.Sims = append(m.Sims, s)
	}
	for i := range out {
		m := &out[i]
		var recs []tournament.SimRecord
		for _, rec := range t.manifest.Simulations {
			if rec.Match+1 == m.Number {
				recs = append(recs, rec)
			}
		}
		rows := tournament.ComputeStandings(m.Teams, recs)
		m.Points = make([]int, len(m.Teams))
		for _, r := range rows {
			m.Points[slices.Index(m.Teams, r.Team)] = r.Points
		}
		if len(rows) > 1 && rows[0].Rank == 1 && rows[1].Rank != 1 {
			m.Winner = rows[0].Team
		}
	}
	return out
}

// describe fills in what the replay says: length, state, and for a replay
// no manifest names, its teams' final scores.
func (s *Sim) describe(r *compact.Replay) error {
	s.Steps, s.Last, s.Problem = r.Meta.Static.Steps, r.Last, r.Problem
	if s.Map == "" && r.Meta.Record != nil {
		s.Map = replayMap(r.Meta.Record.Match)
	}
	switch {
	case r.Damaged:
		s.Status = "damaged"
	case !r.Complete:
		s.Status = "incomplete"
	default:
		s.Status = "complete"
	}
	if len(r.Gaps) > 0 && s.Problem == "" {
		s.Problem = fmt.Sprintf("steps %d–%d: %s", r.Gaps[0].From, r.Gaps[0].To, r.Gaps[0].Err)
	}
	if s.Scores != nil {
		return nil
	}
	scores, err := r.Scores()
	if err != nil {
		return err
	}
	for i := len(scores) - 1; i >= 0; i-- {
		if scores[i] != nil {
			s.Scores = scores[i]
			break
		}
	}
	s.Winner = winnerOf(s.Teams, s.Scores)
	return nil
}

// winnerOf is the team with the highest score, "" for a tie or no scores.
func winnerOf(teams []string, scores []int64) string {
	best, winner := int64(0), ""
	for i, v := range scores {
		switch {
		case i >= len(teams):
		case winner == "" && i == 0 || v > best:
			best, winner = v, teams[i]
		case v == best:
			winner = "\x00"
		}
	}
	if winner == "\x00" {
		return ""
	}
	return winner
}

// ownerOf is the tournament folder (relative) that holds path: the
// deepest one above it, "" when none does.
func ownerOf(dir, path string, tours []tournamentFolder) string {
	rel, _ := filepath.Rel(dir, path)
	rel = filepath.ToSlash(rel)
	owner, depth := "", -1
	for _, t := range tours {
		if (t.rel == "." || strings.HasPrefix(rel, t.rel+"/")) && len(t.rel) > depth {
			owner, depth = t.rel, len(t.rel)
		}
	}
	return owner
}

// siteReplay is the site path of the replay named name.
func siteReplay(name string) string { return "replays/" + name + compact.Extension }

// readReplay reads the compact replay at path, or the official replay
// folder at path converted, and gives it its name on the site. A
// conversion that out holds from an earlier publish, newer than every file
// of the folder, is taken as it is: converting is deterministic, and an
// official replay of a few hundred MB takes seconds to convert.
func readReplay(path, out string, used map[string]bool) (*compact.Replay, []byte, string, error) {
	var data []byte
	var name string
	fi, err := os.Stat(path)
	if err == nil && !fi.IsDir() {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, nil, "", fmt.Errorf("publish: %w", err)
	}
	if fi.IsDir() {
		o, err := replays.Open(path)
		if err != nil {
			return nil, nil, "", fmt.Errorf("publish: %w", err)
		}
		name = uniqueName(used, o.Static.Sim)
		if data, err = officialBytes(path, o.Static.Sim, filepath.Join(out, filepath.FromSlash(siteReplay(name)))); err != nil {
			return nil, nil, "", err
		}
	}
	r, err := compact.Parse(data)
	if err != nil {
		return nil, nil, "", fmt.Errorf("publish: %s: %w", path, err)
	}
	if name == "" {
		name = uniqueName(used, r.Meta.Sim)
	}
	return r, data, name, nil
}

// officialBytes is the official replay folder src of simulation sim as a
// compact replay: the file done when it is that simulation's and newer
// than every file of src; else converted.
func officialBytes(src, sim, done string) ([]byte, error) {
	if fi, err := os.Stat(done); err == nil && newerThanFiles(fi.ModTime(), src) {
		if data, err := os.ReadFile(done); err == nil {
			if r, err := compact.Parse(data); err == nil && r.Meta.Sim == sim {
				return data, nil
			}
		}
	}
	tmp, err := os.MkdirTemp("", "massim-publish-")
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	defer os.RemoveAll(tmp)
	dst := filepath.Join(tmp, "replay"+compact.Extension)
	if _, err := convertOfficial(src, dst); err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	data, err := os.ReadFile(dst)
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	return data, nil
}

// newerThanFiles tells whether t is after the modification time of every
// file in dir.
func newerThanFiles(t time.Time, dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil || !fi.ModTime().Before(t) {
			return false
		}
	}
	return true
}

// setAside tells whether a folder is a league's match folder set aside to
// play the match again, <folder>.replaced-<k> (docs/leagues.md, "Playing
// matches again"): the league's plan names it under the match's
// "replaced", and its results count no more.
func setAside(name string) bool {
	i := strings.LastIndex(name, ".replaced-")
	if i <= 0 {
		return false
	}
	k := name[i+len(".replaced-"):]
	return k != "" && k[0] != '0' && strings.Trim(k, "0123456789") == ""
}

// isOfficial tells whether dir is a replay folder in the official layout.
func isOfficial(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, replays.StaticFile))
	return err == nil
}

// standings are the standings of every simulation of the published
// tournaments, with the ratings of dir/standings.json where it has them
// (a league's merged standings; docs/publishing.md).
func standings(dir string, teams []string, sims []tournament.SimRecord) ([]Standing, bool) {
	var rated struct {
		Standings []struct {
			Team        string  `json:"team"`
			Rating      float64 `json:"rating"`
			RatingError float64 `json:"ratingError"`
		} `json:"standings"`
	}
	data, err := os.ReadFile(filepath.Join(dir, tournament.StandingsName))
	if err != nil && !errors.Is(err, fs.ErrNotExist) || err == nil && json.Unmarshal(data, &rated) != nil {
		rated.Standings = nil // unreadable: the table goes without ratings
	}
	if season.Exists(dir) && err == nil {
		// A season's table counts its rated matches only (docs/seasons.md,
		// "Standings and ratings"): its standings file is the table.
		if rows, ok := seasonStandings(data); ok {
			return rows, true
		}
	}
	var out []Standing
	any := false
	for _, row := range tournament.ComputeStandings(teams, sims) {
		s := Standing{Standing: row}
		for _, r := range rated.Standings {
			if r.Team == row.Team && r.Rating != 0 {
				s.Rating, s.RatingError, any = r.Rating, r.RatingError, true
			}
		}
		out = append(out, s)
	}
	return out, any
}

// uniqueName is name, or name-2, name-3, … when a replay took it already.
func uniqueName(used map[string]bool, name string) string {
	name = slug(name)
	out := name
	for n := 2; used[out]; n++ {
		out = fmt.Sprintf("%s-%d", name, n)
	}
	used[out] = true
	return out
}

// slug keeps letters, digits, '.', '_' and '-' of s (for file names and
// anchors), '-' for the rest.
func slug(s string) string {
	if s == "." {
		return ""
	}
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '-'
		}
	}
	return string(b)
}

// seasonStandings reads the rows of a season's standings file.
func seasonStandings(data []byte) ([]Standing, bool) {
	var file tournament.StandingsFile
	if json.Unmarshal(data, &file) != nil || file.Format != tournament.StandingsFormat {
		return nil, false
	}
	var out []Standing
	for _, row := range file.Standings {
		out = append(out, Standing{Standing: row, Rating: row.Rating, RatingError: row.RatingError})
	}
	return out, true
}
