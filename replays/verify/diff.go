package verify

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/massim-go/massim/scenario"
)

// maxDifferences bounds what a mismatch lists.
const maxDifferences = 12

// differences compares two snapshots key by key. Array elements are named
// by their "name" or "id" where they have one, so that a reader sees
// which agent or thing differs.
func differences(stored, simulated *scenario.Snapshot) []string {
	var out []string
	diff(&out, "", tree(stored), tree(simulated))
	if len(out) == 0 { // equal worlds, different bytes: the answers differ
		out = append(out, "the recorded answers do not match the actions the simulated world shows")
	}
	return out
}

func tree(s *scenario.Snapshot) any {
	b, err := json.Marshal(s)
	if err != nil {
		return err.Error()
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err.Error()
	}
	return v
}

func diff(out *[]string, path string, a, b any) {
	if len(*out) >= maxDifferences {
		return
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(x)+len(y))
		for k := range x {
			keys = append(keys, k)
		}
		for k := range y {
			if _, dup := x[k]; !dup {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			diff(out, join(path, k), x[k], y[k])
		}
		return
	case []any:
		y, ok := b.([]any)
		if !ok {
			break
		}
		if len(x) != len(y) {
			*out = append(*out, fmt.Sprintf("%s: %d in the replay, %d simulated", path, len(x), len(y)))
		}
		for i := range min(len(x), len(y)) {
			diff(out, fmt.Sprintf("%s[%d]%s", path, i, label(x[i])), x[i], y[i])
		}
		return
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		*out = append(*out, fmt.Sprintf("%s: replay %s, simulated %s", path, show(ja), show(jb)))
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// label names an array element by its name or id.
func label(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	if n, ok := m["name"].(string); ok {
		return " (" + n + ")"
	}
	if id, ok := m["id"].(float64); ok {
		return fmt.Sprintf(" (id %d)", int(id))
	}
	return ""
}

func show(b []byte) string {
	if len(b) == 0 || string(b) == "null" {
		return "absent"
	}
	s := string(b)
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return strings.ReplaceAll(s, "\n", " ")
}
