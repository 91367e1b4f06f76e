package houserules

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// zerologDur is a duration logged with zerolog's Dur, whose field name
// carries no unit (it writes milliseconds as a float, by a global setting).
var zerologDur = regexp.MustCompile(`\.Durs?\("`)

// numberOfDuration is a duration logged as a number: its field name must end
// with the unit of the conversion.
var numberOfDuration = regexp.MustCompile(`\.(?:Int|Int64|Float64)\("([A-Za-z_]+)",[^\n"]*?\.(Milliseconds|Seconds|Microseconds|Nanoseconds)\(\)`)

var unitSuffix = map[string]string{"Milliseconds": "_ms", "Seconds": "_s", "Microseconds": "_us", "Nanoseconds": "_ns"}

// TestLogs_DurationsCarryTheirUnit: every duration in a log line says its
// unit in its field name (took_ms, waited_ms; the guide's rule), so a
// reader of a JSON log need not know zerolog's defaults.
func TestLogs_DurationsCarryTheirUnit(t *testing.T) {
	root := filepath.Join("..", "..")
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for i, line := range strings.Split(string(data), "\n") {
			if zerologDur.MatchString(line) {
				t.Errorf("%s:%d: a duration logged with Dur has no unit in its name: log it as Int64(\"name_ms\", d.Milliseconds())", path, i+1)
			}
			for _, m := range numberOfDuration.FindAllStringSubmatch(line, -1) {
				if want := unitSuffix[m[2]]; !strings.HasSuffix(m[1], want) {
					t.Errorf("%s:%d: field %q holds %s: name it %s%s", path, i+1, m[1], m[2], m[1], want)
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, checked, 100, "the module's sources were read")
}
