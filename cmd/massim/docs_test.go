package main

import (
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
	assert.Equal(t, "golang:"+goVersion[1]+"-bookworm", froms[0][1], "the build image is go.mod's Go release on a fixed Debian")
	assert.Equal(t, "scratch", froms[1][1])
	assert.Contains(t, docker, "cp -r config/examples /out/work/config-examples")
}

// TestDocs_DockerRunLinePlaysTheContestExampleUnattended: the README's
// docker run line names a config the image holds and a way to start
// without a terminal.
func TestDocs_DockerRunLinePlaysTheContestExampleUnattended(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	i := strings.Index(readme, "docker run ")
	require.GreaterOrEqual(t, i, 0)
	line := readme[i:]
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
