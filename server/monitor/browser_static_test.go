package monitor_test

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/browsertest"
	"github.com/massim-go/massim/publish"
	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/tournament"
)

// The published site (massim publish, docs/publishing.md) in headless
// Chromium, served by a static file server that is not ours: Python's
// http.server (scripts/install/python.sh installs python3). No server
// code, no special headers, no range requests.

// staticServer serves root with python3 -m http.server on a free port
// until the test ends; it returns the address and the server's request
// log so far (one line a request).
func staticServer(t *testing.T, root string) (string, func() string) {
	t.Helper()
	py, err := exec.LookPath("python3")
	require.NoError(t, err, "python3 (scripts/install/python.sh installs it)")
	cmd := exec.Command(py, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root)
	var mu sync.Mutex
	var log bytes.Buffer
	cmd.Stderr = writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return log.Write(p)
	})
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // the one process this test started
		_ = cmd.Wait()
	})
	port := regexp.MustCompile(`port (\d+)`)
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if m := port.FindStringSubmatch(lines.Text()); m != nil {
			go func() { // drain it
				for lines.Scan() {
				}
			}()
			return "http://127.0.0.1:" + m[1], func() string {
				mu.Lock()
				defer mu.Unlock()
				return log.String()
			}
		}
	}
	t.Fatalf("python3 -m http.server did not say its port: %v", lines.Err())
	return "", nil
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// tournamentSim is a simulation of a test tournament: its match and replay.
type tournamentSim struct {
	match int
	simReplay
}

// writeTournament writes a tournament folder as massim match leaves it:
// the replays under replays/ and manifest.json naming every simulation
// with the scores its replay ends with.
func writeTournament(t *testing.T, dir string, sims []tournamentSim) {
	t.Helper()
	m := tournament.Manifest{Format: tournament.ManifestFormat, Mode: "round-robin", Teams: []string{"A", "B"},
		Started: time.Date(2000, 1, 1, 12, 0, 0, 0, time.UTC), State: tournament.StateFinished}
	for i, s := range sims {
		if s.opts == (compact.WriterOptions{}) {
			s.opts = compact.WriterOptions{NoSync: true}
		}
		path := filepath.Join(dir, "replays", replays.FolderName(s.start, s.name)+compact.Extension)
		if _, err := os.Stat(path); err != nil { // else written by an earlier call
			path = writeSimReplay(t, filepath.Join(dir, "replays"), s.simReplay)
		}
		r, err := compact.Open(path)
		require.NoError(t, err)
		scores, err := r.Scores()
		require.NoError(t, err)
		rec := tournament.SimRecord{Match: s.match, Index: i, Name: s.name, MatchStart: s.start.UnixMilli()}
		final := scores[len(scores)-1]
		for k, team := range m.Teams {
			rec.Scores = append(rec.Scores, tournament.TeamResult{Team: team, Score: final[k], Ranking: 1})
		}
		m.Simulations = append(m.Simulations, rec)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, tournament.ManifestFile), []byte(jsonOf(t, m)), 0o644))
}

// simAt is the simulation named name starting at minute min of 2000-01-01.
func simAt(name string, min, steps int, seed uint64) simReplay {
	return simReplay{name: name, start: time.Date(2000, 1, 1, 12, min, 0, 0, time.UTC), steps: steps, seed: seed}
}

// siteRow is a simulation's row of the index page as a person reads it.
type siteRow struct {
	Sim, Score, Steps, Watch, Final string
}

const siteRowsJS = `[...document.querySelectorAll('tr.sim')].map(r => ({
  sim: r.dataset.sim, score: r.querySelector('.score').textContent, steps: r.children[4].textContent,
  watch: r.querySelector('a.watch')?.href ?? '', final: r.querySelector('a.final')?.href ?? ''}))`

// assertShowsStepAsAPersonSees checks the step the page shows against the
// Go decoder: the snapshot (every entity's position, …), the step line
// and the scores as the side panel writes them.
func assertShowsStepAsAPersonSees(t *testing.T, page *browsertest.Page, r *compact.Replay, step int) {
	t.Helper()
	page.Eval(fmt.Sprintf(seekJS, step), nil)
	assertShowsStep(t, page, r, step, "codec.js on the file the page read itself")
	assert.Equal(t, fmt.Sprintf("%d / %d", step, r.Meta.Static.Steps-1), page.Text(`document.getElementById('t-step').textContent`))
	want, err := r.Step(step)
	require.NoError(t, err)
	var shown, scores []string
	page.Eval(`[...document.querySelectorAll('#scores .score')].map(r => r.dataset.team + ' ' + r.querySelector('b').textContent)`, &shown)
	for _, s := range want.Snapshot.Scores {
		scores = append(scores, fmt.Sprintf("%s %d", s.Team, s.Score))
	}
	assert.ElementsMatch(t, scores, shown, "step %d: the scores shown", step)
}

// TestStatic_SiteListsTheTournamentAndEveryReplayOpensAtExactSteps
// publishes a tournament of two matches into a subfolder of a static
// site: the index lists every simulation of the manifest with its scores,
// every replay opens from its link and seeks to exact steps, the final
// step's link opens that step, and the page asks the static server only
// for files that exist.
func TestStatic_SiteListsTheTournamentAndEveryReplayOpensAtExactSteps(t *testing.T) {
	page := openBrowser(t)
	dir, root := t.TempDir(), t.TempDir()
	sims := []tournamentSim{
		{0, simAt("946728000000_A_B", 0, 230, 5)},
		{0, simAt("946728060000_A_B", 1, 120, 7)},
		{1, simAt("946728120000_A_B", 2, 60, 9)},
	}
	writeTournament(t, dir, sims)
	out := filepath.Join(root, "club", "contest")
	rep, err := publish.Publish(dir, out, publish.Options{Title: "Test cup"})
	require.NoError(t, err)
	require.Len(t, rep.Site.Matches, 2)
	url, requests := staticServer(t, root)

	page.Navigate(url + "/club/contest/")
	assert.Equal(t, "Test cup", page.Text(`document.querySelector('h1').textContent`))
	var rows []siteRow
	page.Eval(siteRowsJS, &rows)
	require.Len(t, rows, len(sims))
	for i, s := range sims {
		assert.Equal(t, s.name, rows[i].Sim)
		assert.Equal(t, "A 0 : B 0", rows[i].Score)
		assert.Equal(t, fmt.Sprint(s.steps), rows[i].Steps)
		assert.Equal(t, url+"/club/contest/viewer/?src=../replays/"+s.name+".mreplay", rows[i].Watch)
	}
	assert.Equal(t, []string{"1 A 3 0 3 0 3 0", "1 B 3 0 3 0 3 0"}, standingRows(t, page))

	for i, s := range sims {
		r, err := compact.Open(filepath.Join(out, "replays", s.name+".mreplay"))
		require.NoError(t, err)
		page.Navigate(rows[i].Watch)
		page.Wait(`window.massim && massim.loaded && massim.step === -1`)
		assert.Equal(t, "replay", page.Text(`document.getElementById('conn').textContent`))
		for _, step := range []int{s.steps - 1, 0, s.steps / 2, 99, 100, -1, 57} {
			if step < s.steps {
				assertShowsStepAsAPersonSees(t, page, r, step)
			}
		}
		page.Navigate(rows[i].Final)
		page.Wait(fmt.Sprintf(`window.massim && massim.loaded && massim.step === %d`, s.steps-1))
		assertShowsStep(t, page, r, s.steps-1, "the final step's link")
	}
	assert.Equal(t, url+"/club/contest/", page.Text(`document.getElementById('lnk-replays').href`), "the viewer links back to the results")
	assert.Empty(t, page.Errors(), "JavaScript errors")
	log := requests()
	assert.NotContains(t, log, "info.json", "a published page asks for no endpoint of our server")
	assert.NotContains(t, log, " 404 ", "every request names a file of the site:\n%s", log)
	assert.NotContains(t, log, "live/")
}

// standingRows reads the standings table: its cells of each row, joined.
func standingRows(t *testing.T, page *browsertest.Page) []string {
	t.Helper()
	var rows []string
	page.Eval(`[...document.querySelectorAll('table.standings tr')].slice(1).map(r => [...r.children].map(c => c.textContent).join(' '))`, &rows)
	return rows
}

// TestStatic_AChosenADroppedAndASrcFileOpen opens the published viewer
// without a replay: it offers the file picker; a file chosen there opens,
// a file dropped onto the page replaces it, and a replay given by an
// absolute URL (?src=) opens at the step of the address. With ?embed=1 the
// page is the map and the timeline only.
func TestStatic_AChosenADroppedAndASrcFileOpen(t *testing.T) {
	page := openBrowser(t)
	dir, root := t.TempDir(), t.TempDir()
	writeTournament(t, dir, []tournamentSim{{0, simAt("946728000000_A_B", 0, 150, 5)}})
	_, err := publish.Publish(dir, filepath.Join(root, "site"), publish.Options{})
	require.NoError(t, err)
	others := t.TempDir()
	chosen := writeSimReplay(t, others, simReplay{name: "946728300000_A_B", start: time.Date(2000, 1, 1, 12, 5, 0, 0, time.UTC),
		steps: 80, seed: 11, opts: compact.WriterOptions{NoSync: true}})
	dropped := writeSimReplay(t, filepath.Join(root, "elsewhere"), simReplay{name: "946728360000_A_B",
		start: time.Date(2000, 1, 1, 12, 6, 0, 0, time.UTC), steps: 130, seed: 13, opts: compact.WriterOptions{NoSync: true}})
	url, _ := staticServer(t, root)

	page.Navigate(url + "/site/viewer/")
	page.Wait(`document.getElementById('open-file') !== null`)
	assertDisplayed(t, page, map[string]bool{"#open-file": true, "#library": true, "#timeline": false, "#side": false})
	page.ChooseFiles("#open-file", chosen)
	page.Wait(`window.massim && massim.sim === '946728300000_A_B' && massim.loaded`)
	r, err := compact.Open(chosen)
	require.NoError(t, err)
	assertShowsStepAsAPersonSees(t, page, r, 79)
	assertShowsStepAsAPersonSees(t, page, r, 3)

	rel, err := filepath.Rel(root, dropped)
	require.NoError(t, err)
	page.Eval(fmt.Sprintf(`fetch(%s).then(r => r.arrayBuffer()).then(b => {
  const dt = new DataTransfer();
  dt.items.add(new File([b], 'match.mreplay'));
  document.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  return true;
})`, browsertest.JSString("/"+filepath.ToSlash(rel))), nil)
	page.Wait(`window.massim && massim.sim === '946728360000_A_B' && massim.loaded`)
	page.Wait(`massim.decodedAhead`) // the second file is decoded ahead for seeks too
	r, err = compact.Open(dropped)
	require.NoError(t, err)
	assertShowsStepAsAPersonSees(t, page, r, 129)
	assertShowsStepAsAPersonSees(t, page, r, 64)

	page.Navigate(url + "/site/viewer/?src=" + url + "/" + filepath.ToSlash(rel) + "#77")
	page.Wait(`window.massim && massim.sim === '946728360000_A_B' && massim.loaded && massim.step === 77`)
	assertShowsStep(t, page, r, 77, "?src= with an absolute URL and a step")
	assertDisplayed(t, page, map[string]bool{"#topbar": true, "#side": true, "#timeline": true})

	page.Navigate(url + "/site/viewer/?src=" + url + "/" + filepath.ToSlash(rel) + "&embed=1#12")
	page.Wait(`window.massim && massim.loaded && massim.step === 12`)
	assertDisplayed(t, page, map[string]bool{"#topbar": false, "#side": false, "#legend": false, "#map": true, "#timeline": true})
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

// TestStatic_DamagedReplayShowsItsGapAndTheRestStaysReachable publishes a
// tournament whose replay has a damaged chunk: the index says so, the page
// names the damage where it is, with the Go reader's words, and the steps
// before and after it are shown exactly.
func TestStatic_DamagedReplayShowsItsGapAndTheRestStaysReachable(t *testing.T) {
	page := openBrowser(t)
	dir, root := t.TempDir(), t.TempDir()
	writeTournament(t, dir, []tournamentSim{{0, simAt("946728000000_A_B", 0, 250, 5)}})
	matches, err := filepath.Glob(filepath.Join(dir, "replays", "*.mreplay"))
	require.NoError(t, err)
	require.Len(t, matches, 1)
	path := matches[0]
	damageChunk(t, path, 120)
	r, err := compact.Open(path)
	require.NoError(t, err)
	require.Len(t, r.Gaps, 1)
	gap := r.Gaps[0]
	_, err = publish.Publish(dir, filepath.Join(root, "site"), publish.Options{})
	require.NoError(t, err)
	url, _ := staticServer(t, root)

	page.Navigate(url + "/site/")
	assert.Contains(t, page.Text(`document.querySelector('tr.sim').textContent`), "damaged")
	page.Navigate(url + "/site/viewer/?src=../replays/946728000000_A_B.mreplay#125")
	page.Wait(`window.massim && massim.step === 125 && massim.gap !== null`)
	assert.Equal(t, gap.Err, page.Text(`massim.gap`), "the Go reader's reason")
	assert.Equal(t, fmt.Sprintf("Steps %d–%d cannot be shown: %s", gap.From, gap.To, gap.Err),
		page.Text(`document.getElementById('gap').textContent`))
	assertDisplayed(t, page, map[string]bool{"#gap": true})
	for _, step := range []int{gap.To + 1, 249, gap.From - 1, 0} {
		assertShowsStepAsAPersonSees(t, page, r, step)
	}
	assertDisplayed(t, page, map[string]bool{"#gap": false})
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

// TestStatic_PublishingAgainAddsTheNewMatchAndTouchesNothingElse plays
// one more match into the tournament folder and publishes again: the new
// replay and the index are written, every other file keeps its bytes and
// its mtime, and the index lists the new simulation.
func TestStatic_PublishingAgainAddsTheNewMatchAndTouchesNothingElse(t *testing.T) {
	page := openBrowser(t)
	dir, root := t.TempDir(), t.TempDir()
	out := filepath.Join(root, "site")
	first := []tournamentSim{{0, simAt("946728000000_A_B", 0, 90, 5)}}
	writeTournament(t, dir, first)
	_, err := publish.Publish(dir, out, publish.Options{})
	require.NoError(t, err)
	before := siteFiles(t, out)
	old := time.Now().Add(-time.Hour) // mtimes a rewrite would change
	for name := range before {
		require.NoError(t, os.Chtimes(filepath.Join(out, name), old, old))
	}

	writeTournament(t, dir, append(first, tournamentSim{1, simAt("946728600000_A_B", 10, 70, 17)}))
	rep, err := publish.Publish(dir, out, publish.Options{})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"index.html", "replays/946728600000_A_B.mreplay"}, rep.Written)
	after := siteFiles(t, out)
	for name, data := range before {
		if name == "index.html" {
			continue
		}
		assert.Equal(t, data, after[name], name)
		fi, err := os.Stat(filepath.Join(out, name))
		require.NoError(t, err)
		assert.True(t, fi.ModTime().Equal(old), "%s keeps its mtime", name)
	}

	url, _ := staticServer(t, root)
	page.Navigate(url + "/site/")
	var rows []siteRow
	page.Eval(siteRowsJS, &rows)
	require.Len(t, rows, 2)
	assert.Equal(t, "946728600000_A_B", rows[1].Sim)
	page.Navigate(rows[1].Watch + "#69")
	page.Wait(`window.massim && massim.loaded && massim.step === 69`)
	assert.Empty(t, page.Errors(), "JavaScript errors")
}

// siteFiles reads every file of a site by its slash path.
func siteFiles(t *testing.T, out string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	require.NoError(t, filepath.WalkDir(out, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(out, path)
		files[filepath.ToSlash(rel)] = data
		return err
	}))
	require.NotNil(t, files["viewer/index.html"])
	return files
}

// TestStatic_BrokenFilesReadAsTheGoReaderReadsThem opens replay files
// broken in the ways a crash or a bad disk breaks them: what the page
// reads (last step, gaps, why the replay ends early) is what the Go
// reader reads, with the same words, and the steps it can show are shown
// exactly.
func TestStatic_BrokenFilesReadAsTheGoReaderReadsThem(t *testing.T) {
	page := openBrowser(t)
	root := t.TempDir()
	path := writeSimReplay(t, t.TempDir(), simAt("946728000000_A_B", 0, 250, 5))
	intact, err := compact.Open(path)
	require.NoError(t, err)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	chunkAt := func(step int) int { // the offset of the chunk holding step
		for _, c := range intact.Chunks {
			if c.First <= step && step < c.First+c.Count {
				return int(c.Offset)
			}
		}
		t.Fatalf("no chunk holds step %d", step)
		return 0
	}
	broken := map[string][]byte{
		"cut.mreplay":      slices.Clone(data[:chunkAt(170)+100]), // the server died while writing
		"header.mreplay":   slices.Clone(data),                    // a chunk header's checksum fails: no footer either
		"payload.mreplay":  slices.Clone(data),                    // a payload's checksum fails, the index holds
		"noindex.mreplay":  slices.Clone(data[:chunkAt(240)]),     // cut between chunks
		"twoholes.mreplay": slices.Clone(data[:len(data)-20]),     // a broken footer and …
	}
	broken["header.mreplay"][chunkAt(60)+9] ^= 0x40
	broken["header.mreplay"] = broken["header.mreplay"][:len(data)-3]
	broken["payload.mreplay"][chunkAt(130)+50] ^= 0xff
	broken["twoholes.mreplay"][chunkAt(30)+40] ^= 0xff // … two damaged segments
	broken["twoholes.mreplay"][chunkAt(200)+3] = 'X'
	for name, b := range broken {
		require.NoError(t, os.WriteFile(filepath.Join(root, name), b, 0o644))
	}
	_, err = publish.Publish(t.TempDir(), filepath.Join(root, "site"), publish.Options{}) // the viewer alone
	require.NoError(t, err)
	url, _ := staticServer(t, root)
	type gap struct {
		From, To int
		Error    string
	}
	for _, name := range slices.Sorted(maps.Keys(broken)) {
		r, err := compact.Open(filepath.Join(root, name))
		require.NoError(t, err, name)
		require.True(t, len(r.Gaps) > 0 || r.Problem != "", "%s is broken", name)
		page.Navigate(url + "/site/viewer/?src=../../" + name)
		page.Wait(`window.massim && massim.loaded`)
		want := []gap{}
		for _, g := range r.Gaps {
			want = append(want, gap{g.From, g.To, g.Err})
		}
		var got []gap
		page.Eval(`massim.gaps`, &got)
		assert.Equal(t, want, append([]gap{}, got...), "%s: the gaps", name)
		assert.Equal(t, r.Problem, page.Text(`massim.problem`), "%s: why it ends early", name)
		assert.Equal(t, r.Last, page.Int(`massim.last`), "%s: the last step", name)
		for _, step := range []int{r.Last, 0, 199} {
			if r.Has(step) {
				assertShowsStepAsAPersonSees(t, page, r, step)
			}
		}
	}
	assert.Empty(t, page.Errors(), "JavaScript errors")
}
