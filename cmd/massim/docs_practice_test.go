package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocs_PracticeFlagTableNamesRealFlags: every flag of docs/practice.md's
// flag table is a flag of massim practice (its command lines are checked by
// TestDocs_CommandsExist).
func TestDocs_PracticeFlagTableNamesRealFlags(t *testing.T) {
	page := readRepoFile(t, "docs/practice.md")
	table := page[strings.Index(page, "| flag |"):]
	table = table[:strings.Index(table, "\n\n")]
	flags := regexp.MustCompile("`(-[a-z-]+)").FindAllStringSubmatch(table, -1)
	require.Greater(t, len(flags), 12)
	var stdout, stderr bytes.Buffer
	run([]string{"practice", "-h"}, &stdout, &stderr)
	help := stdout.String() + stderr.String()
	for _, f := range flags {
		assert.Regexp(t, "\n  "+regexp.QuoteMeta(f[1])+"[ \n]", help, "docs/practice.md names %s", f[1])
	}
}
