package houserules

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The page whose package table the house keeps.
var architecturePage = filepath.Join("..", "..", "docs", "architecture.md")

// TestImportsFollowTheTable: every package of the module has a row in
// docs/architecture.md's package table, and imports (in its own files, for
// every system we build for) only what its row's "may import" names.
func TestImportsFollowTheTable(t *testing.T) {
	f, err := os.Open(architecturePage)
	require.NoError(t, err)
	defer f.Close()
	rules, err := ReadTable(f)
	require.NoError(t, err)

	module := strings.TrimSpace(goList(t, "", "-m", "-f", "{{.Path}}"))
	said := map[string]bool{} // each broken rule once, not once per system
	for _, goos := range []string{"linux", "windows", "darwin"} {
		out := goList(t, goos, "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			fields := strings.Fields(line)
			pkg, ok := strings.CutPrefix(fields[0], module+"/")
			if !ok {
				continue // the module's root holds no package
			}
			rule, ok := RuleFor(rules, pkg)
			if !ok {
				if !said[pkg] {
					t.Errorf("%s has no row in docs/architecture.md's package table: add one (its job, what it may import)", pkg)
				}
				said[pkg] = true
				continue
			}
			for _, imp := range fields[1:] {
				rel, ours := strings.CutPrefix(imp, module+"/")
				if !ours && !strings.Contains(strings.Split(imp, "/")[0], ".") {
					continue // the standard library
				}
				if !ours {
					rel = imp
				}
				if !rule.Allows(rules, rel, ours) && !said[pkg+" "+rel] {
					said[pkg+" "+rel] = true
					t.Errorf("%s imports %s (GOOS=%s), but docs/architecture.md, line %d, says %s may import: %s",
						pkg, rel, goos, rule.Line, strings.Join(rule.Packages, ", "), rule.Text)
				}
			}
		}
	}
}

func goList(t *testing.T, goos string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = os.Environ()
	if goos != "" {
		cmd.Env = append(cmd.Env, "GOOS="+goos)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list %v: %s", args, stderr.String())
	return string(out)
}

const sampleTable = "# Architecture\n\n" +
	"| package | its job | may import (besides the standard library) |\n" +
	"| --- | --- | --- |\n" +
	"| `protocol` | the wire | nothing |\n" +
	"| `scenario` | the world | `protocol` (percept types), `maps` |\n" +
	"| `replays/verify`, `replays/convert` | tools | `replays/…`, `scenario`, zerolog |\n" +
	"| `replays` | folders | `scenario`, klauspost/compress |\n" +
	"| `server` | the runtime | `scenario`, golang.org/x/sys |\n" +
	"| `server/monitor` | the monitor | `replays/…` |\n" +
	"| `cmd/massim` | the binary | everything |\n" +
	"\nText after the table.\n"

func TestRules_AllowWhatTheirRowNames(t *testing.T) {
	rules, err := ReadTable(strings.NewReader(sampleTable))
	require.NoError(t, err)
	tests := []struct {
		pkg, imp string
		ours     bool
		want     bool
	}{
		{"protocol", "scenario", true, false},
		{"scenario", "protocol", true, true},
		{"scenario", "server", true, false},
		{"scenario/normaudit", "scenario", true, true},           // within its own row
		{"scenario/normaudit", "protocol", true, true},           // its ancestor's row governs it
		{"replays/verify", "replays/codec", true, true},          // replays/… is a subtree
		{"replays/verify", "github.com/rs/zerolog", false, true}, // by a part of its path
		{"replays/codec", "github.com/rs/zerolog", false, false}, // governed by replays
		{"replays/codec", "github.com/klauspost/compress/zstd", false, true},
		{"replays", "replays/verify", true, false}, // a row of its own: not within replays'
		{"server", "server/monitor", true, false},
		{"server/teamcmd", "server", true, true},
		{"server", "golang.org/x/sys/unix", false, true},
		{"server", "golang.org/x/syscall", false, false},
		{"cmd/massim", "server/monitor", true, true},
	}
	for _, tc := range tests {
		rule, ok := RuleFor(rules, tc.pkg)
		require.True(t, ok, tc.pkg)
		assert.Equal(t, tc.want, rule.Allows(rules, tc.imp, tc.ours), "%s → %s", tc.pkg, tc.imp)
	}
	_, ok := RuleFor(rules, "league")
	assert.False(t, ok, "a package without a row")
}

func TestReadTable_RefusesWhatItCannotRead(t *testing.T) {
	tests := []struct{ name, table, want string }{
		{"NoTable", "# Nothing here\n", "no package table"},
		{"PackageNotInBackticks", "| package | job | may import |\n| --- | --- | --- |\n| protocol | wire | nothing |\n", "no package in backticks"},
		{"OursWithoutBackticks", "| package | job | may import |\n| --- | --- | --- |\n| `a` | job | the replays packages |\n", "write a package of ours in backticks"},
		{"ShortRow", "| package | job | may import |\n| --- | --- | --- |\n| `a` | job |\n", "fewer than 3 cells"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTable(strings.NewReader(tc.table))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
