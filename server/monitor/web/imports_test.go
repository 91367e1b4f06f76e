package web

import (
	"io/fs"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// pageModules are the page itself: main.js, which starts it, and the
// sections it is built of (docs/architecture.md, "The monitor page").
// They share the page's state (app.js); every other module is a part they
// draw or fetch with.
var pageModules = []string{
	"js/main.js", "js/app.js", "js/frames.js", "js/render.js", "js/probe.js",
	"js/timeline.js", "js/selection.js", "js/views.js", "js/between.js", "js/controls.js",
}

// moduleImports reads the imports of every module of the page: file → the
// files it imports.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
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
		imports[f] = nil
		for _, imp := range m.imports {
			imports[f] = append(imports[f], imp.from)
		}
	}
	return imports
}

// TestModulesImportNoCycle keeps the page's modules free of import cycles
// (panel.js and pov.js once imported each other for one helper, which now
// lives in widgets.js): a cycle makes the evaluation order depend on which
// module is loaded first.
func TestModulesImportNoCycle(t *testing.T) {
	imports := moduleImports(t)
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
	for _, f := range slices.Sorted(maps.Keys(imports)) {
		if state[f] == 0 {
			visit(f)
		}
	}
}

// TestPartsImportNoneOfThePage keeps the parts (map.js, panel.js, stats.js,
// …) free of the page's state and sections: a part gets what it shows as
// arguments, so it works on any page (status.html uses status.js alone)
// and the page's state has one set of owners.
func TestPartsImportNoneOfThePage(t *testing.T) {
	for f, list := range moduleImports(t) {
		if slices.Contains(pageModules, f) {
			continue
		}
		for _, to := range list {
			if slices.Contains(pageModules, to) {
				t.Errorf("%s imports %s, a module of the page itself: a part gets what it shows as arguments (or, if %s is a section of the page, add it to pageModules and to docs/architecture.md, \"The monitor page\")", f, to, f)
			}
		}
	}
}

// TestEveryModuleIsUsed finds modules that neither page loads: index.html
// loads main.js (bundled) and status.html imports its module itself.
func TestEveryModuleIsUsed(t *testing.T) {
	imports := moduleImports(t)
	status, err := fs.ReadFile(FS, "status.html")
	if err != nil {
		t.Fatal(err)
	}
	entries := []string{bundleEntry}
	for _, m := range regexp.MustCompile(`from '\./(js/[\w.-]+\.js)'`).FindAllStringSubmatch(string(status), -1) {
		entries = append(entries, m[1])
	}
	if len(entries) < 2 {
		t.Fatal("status.html imports no module (the test looks for `from './js/….js'`)")
	}
	used := map[string]bool{}
	var visit func(f string)
	visit = func(f string) {
		if used[f] {
			return
		}
		used[f] = true
		for _, to := range imports[f] {
			visit(to)
		}
	}
	for _, e := range entries {
		visit(e)
	}
	for f := range imports {
		if !used[f] {
			t.Errorf("%s: neither index.html (main.js and its imports) nor status.html loads it", f)
		}
	}
	for _, f := range pageModules {
		if _, ok := imports[f]; !ok {
			t.Errorf("pageModules lists %s, which does not exist", f)
		}
	}
}

// TestModulesSpellColourOneWay keeps one spelling in the modules' names
// and comments, colour (as the code mostly had it), besides the names the
// browser gives (a style's color, backgroundColor, …).
func TestModulesSpellColourOneWay(t *testing.T) {
	files, err := fs.Glob(FS, "js/*.js")
	if err != nil {
		t.Fatal(err)
	}
	cssName := regexp.MustCompile(`\.style\.\w*[cC]olor\b|['"][\w-]*color['"]`)
	color := regexp.MustCompile(`[cC]olor`)
	for _, f := range files {
		src, err := fs.ReadFile(FS, f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if color.MatchString(cssName.ReplaceAllString(line, "")) {
				t.Errorf("%s:%d: spell it colour (the browser's own names, such as style.color, are fine): %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}
