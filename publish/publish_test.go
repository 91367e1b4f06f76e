package publish

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/convert"
	"github.com/massim-go/massim/replays/matchtest"
	"github.com/massim-go/massim/tournament"
)

// matchFolder writes a folder as massim match leaves it: one simulation of
// steps steps, its replay under replays/ and the manifest naming it.
func matchFolder(t *testing.T, dir string, teams []string, steps int, seed int64) {
	t.Helper()
	cfg, err := matchtest.Config(2, 3, 20, steps)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "replays"), 0o755))
	rec, err := matchtest.Record(cfg, 0, matchtest.Options{Seed: seed, Players: uint64(seed)}, filepath.Join(dir, "replays"), 0)
	require.NoError(t, err)
	r, err := compact.Open(rec.Path)
	require.NoError(t, err)
	scores, err := r.Scores()
	require.NoError(t, err)
	sim := tournament.SimRecord{Name: r.Meta.Sim, MatchStart: r.Meta.MatchStart.UnixMilli()}
	for i := range r.Meta.Static.Teams {
		sim.Scores = append(sim.Scores, tournament.TeamResult{Team: teams[i], Score: scores[len(scores)-1][i]})
	}
	m := tournament.Manifest{Format: tournament.ManifestFormat, Mode: "match", Teams: teams, State: tournament.StateFinished,
		Simulations: []tournament.SimRecord{sim}, ResultFiles: []tournament.ResultFileRecord{{File: "result_2000-01-01-12-00-00.json", Simulations: 1}}}
	writeJSON(t, filepath.Join(dir, m.ResultFiles[0].File), map[string]any{"sim": sim.Name})
	writeJSON(t, filepath.Join(dir, tournament.ManifestFile), m)
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, data, 0o644))
}

// TestPublish_LeagueFolderHasEveryMatchAndTheRatings publishes a league:
// two match folders whose simulations have the same name (each its own
// replay on the site), the league's standings.json with ratings (shown
// beside the points), and a replay in the official layout lying next to
// them (converted to a compact file).
func TestPublish_LeagueFolderHasEveryMatchAndTheRatings(t *testing.T) {
	dir, out := t.TempDir(), filepath.Join(t.TempDir(), "site")
	matchFolder(t, filepath.Join(dir, "matches", "000-A-B"), []string{"A", "B"}, 30, 1)
	matchFolder(t, filepath.Join(dir, "matches", "001-B-A"), []string{"B", "A"}, 40, 2)
	writeJSON(t, filepath.Join(dir, tournament.StandingsName), map[string]any{"standings": []map[string]any{
		{"team": "A", "rating": 1523.4, "ratingError": 61.2}, {"team": "B", "rating": 1476.6, "ratingError": 61.2}}})
	official := filepath.Join(dir, "old", "2000-01-01-12-00-00-946728000000_Alpha_Beta")
	copyTree(t, "../replays/testdata/official/2000-01-01-12-00-00-946728000000_Alpha_Beta", official)

	rep, err := Publish(dir, out, Options{Title: "League"})
	require.NoError(t, err)
	site := rep.Site
	require.Len(t, site.Matches, 2)
	assert.Equal(t, "matches/000-A-B", site.Matches[0].Folder)
	assert.Equal(t, "replays/946728000000_sim.mreplay", site.Matches[0].Sims[0].Replay)
	assert.Equal(t, "replays/946728000000_sim-2.mreplay", site.Matches[1].Sims[0].Replay)
	assert.NotEqual(t, site.Matches[0].ID, site.Matches[1].ID)
	require.Len(t, site.Loose, 1)
	assert.Equal(t, "946728000000_Alpha_Beta", site.Loose[0].Name)
	assert.True(t, site.Rated)
	for _, s := range allSims(site) {
		data, err := os.ReadFile(filepath.Join(out, s.Replay))
		require.NoError(t, err, s.Replay)
		r, err := compact.Parse(data)
		require.NoError(t, err)
		assert.Equal(t, s.Name, r.Meta.Sim)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	require.NoError(t, err)
	for _, want := range []string{"<th class=\"num\">rating</th>", "1523 ± 61", `id="` + site.Matches[1].ID + `"`,
		`href="viewer/?src=../replays/946728000000_Alpha_Beta.mreplay"`, "Other replays",
		`href="results/matches-001-B-A/result_2000-01-01-12-00-00.json"`} {
		assert.Contains(t, string(page), want)
	}
	assert.FileExists(t, filepath.Join(out, "results", "matches-000-A-B", "result_2000-01-01-12-00-00.json"))
	viewer, err := os.ReadFile(filepath.Join(out, Viewer, "index.html"))
	require.NoError(t, err)
	assert.Contains(t, string(viewer), "<html lang=\"en\" data-static>")
	assert.FileExists(t, filepath.Join(out, Viewer, "js", "vendor", "fzstd.LICENSE"))
	var size int64
	for _, name := range []string{"index.html", "js/bundle.js", "style.css", "favicon.svg", "js/vendor/fzstd.LICENSE"} {
		fi, err := os.Stat(filepath.Join(out, Viewer, name))
		require.NoError(t, err)
		size += fi.Size()
	}
	assert.Less(t, size, int64(1<<20), "the viewer is at most 1 MB")

	converted := 0
	convertOfficial = func(src, dst string) (convert.Stats, error) {
		converted++
		return convert.ToCompact(src, dst)
	}
	t.Cleanup(func() { convertOfficial = convert.ToCompact })
	again, err := Publish(dir, out, Options{Title: "League"})
	require.NoError(t, err)
	assert.Empty(t, again.Written, "nothing changed, nothing written")
	assert.Zero(t, converted, "the conversion of the official replay is taken from the site")
	now := time.Now().Add(time.Minute) // the official folder changes after it was published
	require.NoError(t, os.Chtimes(filepath.Join(official, "5.json"), now, now))
	again, err = Publish(dir, out, Options{Title: "League"})
	require.NoError(t, err)
	assert.Equal(t, 1, converted, "converted again")
	assert.Empty(t, again.Written, "to the same bytes: nothing written")
}

// TestPublish_AFolderOfReplaysIsListedByTheirOwnScores: without a manifest
// the index lists the replays with what they say themselves.
func TestPublish_AFolderOfReplaysIsListedByTheirOwnScores(t *testing.T) {
	dir, out := t.TempDir(), filepath.Join(t.TempDir(), "site")
	cfg, err := matchtest.Config(2, 3, 20, 25)
	require.NoError(t, err)
	rec, err := matchtest.Record(cfg, 0, matchtest.Options{Seed: 4, Players: 4}, dir, 0)
	require.NoError(t, err)
	rep, err := Publish(dir, out, Options{})
	require.NoError(t, err)
	require.Empty(t, rep.Site.Matches)
	require.Len(t, rep.Site.Loose, 1)
	s := rep.Site.Loose[0]
	r, err := compact.Open(rec.Path)
	require.NoError(t, err)
	scores, err := r.Scores()
	require.NoError(t, err)
	assert.Equal(t, scores[len(scores)-1], s.Scores)
	assert.Equal(t, 25, s.Steps)
	assert.Equal(t, "complete", s.Status)
	assert.Equal(t, filepath.Base(dir), rep.Site.Title)
	assert.WithinDuration(t, time.Date(2000, 1, 1, 12, 0, 0, 0, time.UTC), s.Start, time.Second)
}

// TestPublish_NeverWritesIntoTheFolderItReads: OUT inside DIR is refused.
func TestPublish_NeverWritesIntoTheFolderItReads(t *testing.T) {
	dir := t.TempDir()
	for _, out := range []string{dir, filepath.Join(dir, "site")} {
		_, err := Publish(dir, out, Options{})
		require.Error(t, err)
		assert.True(t, strings.Contains(err.Error(), "only reads"), err.Error())
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries)
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	require.NoError(t, os.CopyFS(to, os.DirFS(from)))
}

// A league's match folder set aside to play the match again
// (matches/<folder>.replaced-<k>, docs/leagues.md) is not published: its
// results were replaced, and its replays would be found as loose ones.
func TestPublish_LeavesOutSetAsideMatchFolders(t *testing.T) {
	dir, out := t.TempDir(), filepath.Join(t.TempDir(), "site")
	matchFolder(t, filepath.Join(dir, "matches", "000-A-B"), []string{"A", "B"}, 30, 1)
	matchFolder(t, filepath.Join(dir, "matches", "000-A-B.replaced-1"), []string{"A", "B"}, 40, 2)
	matchFolder(t, filepath.Join(dir, "matches", "001-A-B.replaced-x"), []string{"A", "B"}, 20, 3)
	rep, err := Publish(dir, out, Options{Title: "League"})
	require.NoError(t, err)
	var folders []string
	for _, m := range rep.Site.Matches {
		folders = append(folders, m.Folder)
	}
	assert.Equal(t, []string{"matches/000-A-B", "matches/001-A-B.replaced-x"}, folders, "only the set-aside name is left out")
	assert.Empty(t, rep.Site.Loose)
	for _, s := range rep.Site.Standings {
		assert.Equal(t, 2, s.Played, s.Team)
	}
	for _, tt := range []struct {
		name string
		want bool
	}{{"000-A-B.replaced-1", true}, {"000-A-B.replaced-12", true}, {"000-A-B.replaced-0", false}, {"000-A-B.replaced-", false},
		{".replaced-1", false}, {"000-A-B", false}, {"000-A-B.replaced-1a", false}} {
		assert.Equal(t, tt.want, setAside(tt.name), tt.name)
	}
}
