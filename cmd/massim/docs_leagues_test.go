//go:build unix

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docBlock is a fenced block of a docs page with the heading it is under.
type docBlock struct {
	heading, lang string
	lines         []string
}

// docBlocks returns the fenced blocks of a markdown page.
func docBlocks(page string) []docBlock {
	var out []docBlock
	heading := ""
	var cur *docBlock
	for _, line := range strings.Split(page, "\n") {
		switch {
		case cur != nil && strings.HasPrefix(line, "```"):
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, line)
		case strings.HasPrefix(line, "```"):
			cur = &docBlock{heading: heading, lang: strings.TrimPrefix(line, "```")}
		case strings.HasPrefix(line, "#"):
			heading = line
		}
	}
	return out
}

// leaguesPageBlocks says what TestDocs_LeaguesCommandsRun does with each
// sh block of docs/leagues.md, by its heading: run it, or why not. A new
// block under another heading fails the test until it is listed here.
var leaguesPageBlocks = map[string]string{
	"## One machine":                       "run",
	"### Checking the teams":               "run",
	"### Watching":                         "binds the fixed port 8000 (taken, perhaps, on a shared test machine) and paces every step at 1 s; TestLeague_WatchingAShowcaseMatchFromTheLeaguePage runs -monitor and -showcase on a free port",
	"## Playing matches again":             "run",
	"## Rounds and sides":                  "run",
	"## Slurm":                             "needs a Slurm cluster: the first block is run by TestDocs_SlurmCommandsRun on the real one-node Slurm (league/slurm), the resubmission with sbatch --array by TestLeagueOnSlurm",
	"### Leagues larger than MaxArraySize": "needs a Slurm cluster and /shared: TestSplitLeagueOnSlurm (league/slurm) plays a split league on the real one-node Slurm and resubmits a part as the block does",
	"## Kubernetes":                        "needs a Kubernetes cluster (kubectl); not run",
}

// TestDocs_LeaguesCommandsRun runs the examples of docs/leagues.md as
// written: the teams of its first JSON block (our sample agents as
// {massim} commands, and copies of them) are the teams of course.json
// (with a small simulation of the test's), and the sh blocks of the
// sections that run on one machine are run in the page's order by sh, in a folder that holds the
// massim binary as go build -o massim leaves it there. "massim" is that
// binary (a shell function), not a program on the PATH: {massim} must
// find it, and a sandboxed team must see it in the working folder, which
// its sandbox hides otherwise.
func TestDocs_LeaguesCommandsRun(t *testing.T) {
	page := readRepoFile(t, "docs/leagues.md")
	blocks := docBlocks(page)

	root := t.TempDir()
	require.NoError(t, os.Chmod(root, 0o755)) // a sandboxed team runs massim from here
	data, err := os.ReadFile(buildMassim(t))
	require.NoError(t, err)
	bin := filepath.Join(root, "massim")
	require.NoError(t, os.WriteFile(bin, data, 0o755))

	var teams map[string]any
	for _, b := range blocks {
		if b.lang == "json" && strings.HasPrefix(strings.TrimSpace(b.lines[0]), `"teams"`) {
			require.NoError(t, json.Unmarshal([]byte("{"+strings.Join(b.lines, "\n")+"}"), &teams))
			break
		}
	}
	require.NotNil(t, teams, "the page's example teams")
	conf := leagueConfig(t, root, []string{"A", "B"}, 5, 0)
	data, err = os.ReadFile(conf)
	require.NoError(t, err)
	var cfg map[string]any
	require.NoError(t, json.Unmarshal(data, &cfg))
	// The page's teams, and copies of them as C and D: the page's commands
	// name matches 1, 3 and 4, which a league of two teams does not have.
	pageTeams := teams["teams"].(map[string]any)
	require.Contains(t, pageTeams, "A")
	require.Contains(t, pageTeams, "B")
	pageTeams["C"], pageTeams["D"] = pageTeams["A"], pageTeams["B"]
	cfg["teams"] = pageTeams
	data, err = json.Marshal(cfg)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(root, "course.json"), data, 0o644))

	ran := 0
	for _, b := range blocks {
		if b.lang != "sh" {
			continue
		}
		what, listed := leaguesPageBlocks[b.heading]
		require.True(t, listed, "docs/leagues.md: a sh block under %q that the test neither runs nor says why not:\n%s", b.heading, strings.Join(b.lines, "\n"))
		if what != "run" {
			t.Logf("not run: %s: %s", b.heading, what)
			continue
		}
		for _, line := range b.lines {
			if strings.TrimSpace(line) == "" {
				continue
			}
			require.True(t, strings.HasPrefix(line, "massim "), line)
			cmd := exec.Command("sh", "-c", `massim() { "$MASSIM_TEST_BIN" "$@"; }; `+line)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "MASSIM_TEST_BIN="+bin, "PATH="+pathWithoutMassim())
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s:\n%s", line, out)
			ran++
		}
	}
	assert.GreaterOrEqual(t, ran, 6)
	assertLeagueComplete(t, filepath.Join(root, "results", "league"))
}

// pathWithoutMassim is the PATH without the folders that hold a massim
// program, so that the page's team commands show that they need none.
func pathWithoutMassim() string {
	var keep []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "massim")); err != nil {
			keep = append(keep, dir)
		}
	}
	return strings.Join(keep, string(os.PathListSeparator))
}
