package web

import (
	"io/fs"
	"strings"
	"testing"
)

// TestModulesImportNoCycle keeps the page's modules free of import cycles
// (panel.js and pov.js once imported each other for one helper, which now
// lives in widgets.js): a cycle makes the evaluation order depend on which
// module is loaded first.
func TestModulesImportNoCycle(t *testing.T) {
	files, err := fs.Glob(FS, "js/*.js")
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string][]string{}
	for _, f := range files {
		m, err := parseModule(FS, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range m.imports {
			imports[f] = append(imports[f], imp.from)
		}
	}
	state := map[string]int{} // 1: on the path, 2: done
	var path []string
	var visit func(f string)
	visit = func(f string) {
		state[f] = 1
		path = append(path, f)
		for _, to := range imports[f] {
			switch state[to] {
			case 1:
				t.Errorf("import cycle: %s → %s", strings.Join(path, " → "), to)
			case 0:
				visit(to)
			}
		}
		path = path[:len(path)-1]
		state[f] = 2
	}
	for _, f := range files {
		if state[f] == 0 {
			visit(f)
		}
	}
}
