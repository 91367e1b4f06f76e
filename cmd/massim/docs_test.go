package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", name))
	require.NoError(t, err)
	return string(data)
}

// TestDocs_GoVersionAndDockerAgreeWithGoMod: the README asks for the Go of
// go.mod and the Dockerfile builds with exactly that release; no base
// image floats.
func TestDocs_GoVersionAndDockerAgreeWithGoMod(t *testing.T) {
	goVersion := regexp.MustCompile(`(?m)^go (\S+)$`).FindStringSubmatch(readRepoFile(t, "go.mod"))
	require.NotNil(t, goVersion)
	assert.Contains(t, readRepoFile(t, "README.md"), "with Go (≥ "+goVersion[1]+")")

	docker := readRepoFile(t, "Dockerfile")
	froms := regexp.MustCompile(`(?m)^FROM (\S+)`).FindAllStringSubmatch(docker, -1)
	require.Len(t, froms, 2)
	assert.Equal(t, "${GO_IMAGE}", froms[0][1], "the build stage's base is a build argument")
	assert.Contains(t, docker, "ARG GO_IMAGE=golang:"+goVersion[1]+"-bookworm\n", "by default go.mod's Go release on a fixed Debian")
	assert.Equal(t, "scratch", froms[1][1])
	assert.Contains(t, docker, "cp -r config/examples /out/root/work/config-examples")
}

// TestDocs_DockerRunLinePlaysTheContestExampleUnattended: the docker run
// line of docs/operations.md names a config the image holds and a way to
// start without a terminal.
func TestDocs_DockerRunLinePlaysTheContestExampleUnattended(t *testing.T) {
	ops := strings.ReplaceAll(readRepoFile(t, "docs/operations.md"), "\\\n", " ")
	i := strings.Index(ops, "docker run ")
	require.GreaterOrEqual(t, i, 0)
	line := ops[i:]
	line = line[:strings.Index(line, "\n```")]
	m := regexp.MustCompile(`serve -conf config-examples/(\S+)`).FindStringSubmatch(line)
	require.NotNil(t, m, line)
	assert.FileExists(t, filepath.Join("..", "..", "config", "examples", m[1]), "the image copies config/examples to config-examples")
	assert.Regexp(t, `-wait-agents \S+|-launch \S+`, line, "no terminal in a container: the run must start by itself")
	assert.Contains(t, line, "-dir /results")

	ignored := strings.Fields(readRepoFile(t, ".dockerignore"))
	for _, p := range []string{".git", "results", "logs", "/massim", "**/*.test", "**/*.prof", "replays/*.mreplay"} {
		assert.Contains(t, ignored, p, ".dockerignore")
	}
}

// TestDocs_NothingPointsOutsideTheRepository: users read docs/, so no file
// may cite the specification we started from (its file names or its
// section signs) or a folder next to the repository.
func TestDocs_NothingPointsOutsideTheRepository(t *testing.T) {
	var outside []string
	for _, name := range []string{"SCENARIO", "PROTOCOL", "CONFIG", "REPLAY", "BEHAVIOUR", "DESIGN"} {
		outside = append(outside, name+".md")
	}
	outside = append(outside, "../"+"shared", "shared/"+"spec", "\u00a7")
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "artifacts", "node_modules", "results", "logs", "tmp":
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".js", ".html", ".css", ".json", ".sh", ".bt", ".txt", ".yml", ".yaml":
		default:
			if d.Name() != "Dockerfile" && d.Name() != "run" {
				return nil
			}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, ref := range outside {
				if strings.Contains(line, ref) {
					t.Errorf("%s:%d points outside the repository (%q): cite docs/ instead", path, i+1, ref)
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
}

// commandPages are the pages whose massim commands TestDocs_CommandsExist
// checks: the README and the pages its text moved to.
var commandPages = []string{"README.md", "docs/tournaments.md", "docs/operations.md", "docs/performance.md", "docs/evaluating-teams.md", "docs/practice.md", "docs/leagues.md", "docs/publishing.md"}

// shellCommands returns the massim command lines of a page's sh blocks
// (continuation lines joined; comments, pipes and redirections cut off;
// environment assignments and a leading "mkdir … &&" dropped; a quoted
// argument, such as a team command with flags of its own, is one word).
var quotedArg = regexp.MustCompile(`"[^"]*"`)

func shellCommands(text string) [][]string {
	var out [][]string
	inSh := false
	for _, line := range strings.Split(strings.ReplaceAll(text, "\\\n", " "), "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			inSh = true
			continue
		case strings.HasPrefix(line, "```"):
			inSh = false
			continue
		case !inSh:
			continue
		}
		if i := strings.Index(line, "&&"); i >= 0 {
			line = line[i+2:]
		}
		words := strings.Fields(quotedArg.ReplaceAllString(line, "ARG"))
		for len(words) > 0 && strings.Contains(words[0], "=") {
			words = words[1:]
		}
		if len(words) == 0 || (words[0] != "./massim" && words[0] != "massim") {
			continue
		}
		var cmd []string
		for _, w := range words[1:] {
			if w == "#" || w == "|" || w == ">" || strings.HasPrefix(w, ">") || w == "&&" {
				break
			}
			cmd = append(cmd, w)
		}
		out = append(out, cmd)
	}
	return out
}

// TestDocs_CommandsExist: every massim command line in the README and the
// pages it points to names a subcommand, only flags that subcommand has,
// and example configs that exist.
func TestDocs_CommandsExist(t *testing.T) {
	checked := 0
	for _, page := range commandPages {
		for _, cmd := range shellCommands(readRepoFile(t, page)) {
			require.NotEmpty(t, cmd, page)
			sub := cmd[:1]
			if sub[0] == "replay" && len(cmd) > 1 && (cmd[1] == "verify" || cmd[1] == "convert" || cmd[1] == "percept") {
				sub = cmd[:2]
			}
			var stdout, stderr bytes.Buffer
			code := run(append(append([]string{}, sub...), "-h"), &stdout, &stderr)
			help := stdout.String() + stderr.String()
			require.NotContains(t, help, "unknown command", "%s: massim %s", page, strings.Join(cmd, " "))
			assert.Contains(t, []int{0, 2}, code, "%s: massim %s -h", page, strings.Join(sub, " "))
			for _, w := range cmd[len(sub):] {
				switch {
				case strings.HasPrefix(w, "-"):
					name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
					assert.Regexp(t, "\n  -"+regexp.QuoteMeta(name)+"[ \n]", help, "%s: massim %s: no flag %s", page, strings.Join(cmd, " "), w)
				case strings.HasPrefix(w, "config/"):
					assert.FileExists(t, filepath.Join("..", "..", w), "%s: massim %s", page, strings.Join(cmd, " "))
				}
			}
			checked++
		}
	}
	assert.Greater(t, checked, 15, "the pages hold massim commands")
}
