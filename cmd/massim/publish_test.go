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

	"github.com/massim-go/massim/replays/matchtest"
)

// TestDocs_PublishingCommandsRun runs the massim publish commands of
// docs/publishing.md on a folder of replays where the page names the
// tournament folder: the site they write has the index, the viewer and the
// replays, at the links the page describes; run again, they write nothing.
func TestDocs_PublishingCommandsRun(t *testing.T) {
	doc := readRepoFile(t, "docs/publishing.md")
	var commands [][]string
	for _, block := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(doc, -1) {
		for line := range strings.SplitSeq(block[1], "\n") {
			if strings.HasPrefix(line, "massim publish ") {
				commands = append(commands, strings.Fields(line)[1:])
			}
		}
	}
	require.NotEmpty(t, commands, "docs/publishing.md shows massim publish")
	t.Chdir(t.TempDir())
	for _, args := range commands {
		dir, out := args[len(args)-2], args[len(args)-1]
		require.NoError(t, os.MkdirAll(dir, 0o755))
		cfg, err := matchtest.Config(2, 3, 20, 20)
		require.NoError(t, err)
		rec, err := matchtest.Record(cfg, 0, matchtest.Options{Seed: 1, Players: 1}, dir, 0)
		require.NoError(t, err)
		for round, want := range []string{"7 files written, 0 unchanged", "0 files written, 7 unchanged"} {
			var stdout, stderr bytes.Buffer
			require.Equal(t, 0, run(args, &stdout, &stderr), "massim %s (round %d): %s", strings.Join(args, " "), round, stderr.String())
			assert.Contains(t, stdout.String(), want)
		}
		for _, f := range []string{"index.html", "viewer/index.html", "viewer/js/bundle.js", "replays/" + rec.Info.Name + ".mreplay"} {
			assert.FileExists(t, filepath.Join(out, f))
		}
		index, err := os.ReadFile(filepath.Join(out, "index.html"))
		require.NoError(t, err)
		assert.Contains(t, string(index), `href="viewer/?src=../replays/`+rec.Info.Name+`.mreplay"`, "the link form the page describes")
		assert.Contains(t, doc, "viewer/?src=../replays/")
	}
}
