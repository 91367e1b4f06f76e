package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// anchor is the fragment GitHub gives a heading: lower case, letters,
// digits, "-" and "_" kept, spaces turned into "-", the rest dropped.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchorsOf lists the anchors of a Markdown file's headings (code blocks
// skipped).
func anchorsOf(text string) map[string]bool {
	out := map[string]bool{}
	inCode := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		}
		if !inCode && strings.HasPrefix(line, "#") {
			out[anchor(strings.TrimLeft(line, "#"))] = true
		}
	}
	return out
}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocs_LinksPointAtFilesAndHeadingsThatExist: every relative link of
// the README and docs/ names a file of the repository and, with a
// fragment, one of its headings; pages moved out of the README stay
// reachable.
func TestDocs_LinksPointAtFilesAndHeadingsThatExist(t *testing.T) {
	root := filepath.Join("..", "..")
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	pages = append(pages, filepath.Join(root, "README.md"))
	for _, page := range pages {
		data, err := os.ReadFile(page)
		require.NoError(t, err)
		for _, m := range mdLink.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
			}
			if !assert.FileExists(t, path, "%s links to %s", page, target) || frag == "" || !strings.HasSuffix(path, ".md") {
				continue
			}
			text, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.True(t, anchorsOf(string(text))[frag], "%s links to %s: no such heading", page, target)
		}
	}
}

// TestDocs_ProtocolSaysWhenEachActionSucceeds: a team writing a client
// from docs/protocol.md alone finds, for every action, when it succeeds
// and a link to its rule in docs/rules.md.
func TestDocs_ProtocolSaysWhenEachActionSucceeds(t *testing.T) {
	protocol := readRepoFile(t, "docs/protocol.md")
	for _, action := range []string{"skip", "move", "attach", "detach", "rotate", "connect", "disconnect", "request", "submit", "clear", "adopt", "survey"} {
		row := regexp.MustCompile("(?m)^\\| `" + action + "`.*$").FindString(protocol)
		require.NotEmpty(t, row, action)
		assert.Contains(t, row, "(rules.md#", "the %s row links to its rule", action)
	}
	assert.Contains(t, protocol, "`partial_success` of `move` says only")
	assert.Contains(t, protocol, "should stop")
}
