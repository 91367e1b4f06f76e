package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocs_PracticeCommandsUseRealFlags runs "-h" of every command line in
// docs/practice.md's shell blocks and of its flag table: each flag the page
// names is one the command has.
func TestDocs_PracticeCommandsUseRealFlags(t *testing.T) {
	page := readRepoFile(t, "docs/practice.md")
	var lines []string
	for _, block := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(page, -1) {
		lines = append(lines, strings.Split(strings.TrimSpace(block[1]), "\n")...)
	}
	var table []string
	for _, m := range regexp.MustCompile("(?m)^\\| `(-[a-z-]+)").FindAllStringSubmatch(page[strings.Index(page, "| flag |"):], -1) {
		table = append(table, m[1])
	}
	lines = append(lines, "massim practice "+strings.Join(table, " "))
	require.Greater(t, len(lines), 3)
	quoted := regexp.MustCompile(`"[^"]*"`)
	for _, line := range lines {
		words := strings.Fields(quoted.ReplaceAllString(line, "ARG")) // a team command's own flags are not practice's
		require.Equal(t, "massim", words[0], line)
		cmd := words[1:2]
		if words[1] == "replay" {
			cmd = words[1:3]
		}
		var out, errOut bytes.Buffer
		run(append(append([]string(nil), cmd...), "-h"), &out, &errOut)
		usage := errOut.String() + out.String()
		for _, w := range words[1:] {
			if strings.HasPrefix(w, "-") {
				assert.Regexp(t, "(?m)^  "+regexp.QuoteMeta(w)+"( |$)", usage, "%s: %s", line, w)
			}
		}
	}
}
