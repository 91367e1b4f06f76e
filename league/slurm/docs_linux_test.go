//go:build linux

package slurm

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/massim-go/massim/internal/massimbin"
	"github.com/massim-go/massim/league/slurm/slurmtest"
	"github.com/stretchr/testify/require"
)

// docPage is the page whose "Slurm" section TestDocs_SlurmCommandsRun runs.
const docPage = "docs/leagues.md"

// TestDocs_SlurmCommandsRun runs the first command block of the docs'
// "Slurm" section, as a shell runs it, on the one-node Slurm (whose
// partition is named as in the page), with the page's shared folder in a
// temporary one and its config a small league, and waits for the league
// to be played and merged.
func TestDocs_SlurmCommandsRun(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(docPage)))
	require.NoError(t, err)
	section := string(page)[strings.Index(string(page), "## Slurm"):]
	block := section[strings.Index(section, "```sh\n")+len("```sh\n"):]
	block = block[:strings.Index(block, "```")]
	lines := strings.Split(strings.TrimSpace(block), "\n")
	require.Len(t, lines, 2)

	bin := massimbin.Path(t)
	c := slurmtest.Start(t)
	root := filepath.Join(c.Dir, "shared")
	dir := filepath.Join(root, "league")
	writeLeagueConfig(t, filepath.Join(root, "course.json"), bin, 3, 0)
	env := append(c.Env(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	var out []byte
	for _, line := range lines {
		require.True(t, strings.HasPrefix(line, "massim "), line)
		cmd := exec.Command("sh", "-c", strings.ReplaceAll(line, "/shared/leagues/course", dir))
		cmd.Dir, cmd.Env = root, env
		out, err = cmd.CombinedOutput()
		require.NoError(t, err, "%s:\n%s", line, out)
	}
	ids := regexp.MustCompile(`job array (\d+) \(3 tasks\), merge job (\d+)`).FindStringSubmatch(string(out))
	require.NotNil(t, ids, "the submitting line printed: %s", out)
	c.WaitFor("the league's jobs to end", 3*time.Minute, func() bool { return !queued(c, ids[1]) && !queued(c, ids[2]) })
	merged := addStandings(t, nil, filepath.Join(dir, "standings.json"))
	require.Len(t, merged, 3)
	for team, s := range merged {
		require.Equal(t, 4, s.Played, "team %s: two matches of two simulations", team)
	}
	require.Contains(t, c.Run("scontrol", "show", "job", ids[1]), "Partition=short")
}
