package web

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// TestPageLoadsTheBundle keeps index.html on the one script: a module
// loaded on its own is one more request before the first frame.
func TestPageLoadsTheBundle(t *testing.T) {
	html, err := fs.ReadFile(FS, "index.html")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(html), "<script type=\"module\""); got != 1 ||
		!strings.Contains(string(html), `<script type="module" src="js/bundle.js"></script>`) {
		t.Errorf("index.html should load js/bundle.js as its only module script (%d module scripts)", got)
	}
}

// TestBundleHoldsEveryModuleOnce builds the page's bundle: every module
// under js/ is in it once, after the modules it imports.
func TestBundleHoldsEveryModuleOnce(t *testing.T) {
	b, err := Bundle(FS, bundleEntry)
	if err != nil {
		t.Fatal(err)
	}
	modules, err := fs.Glob(FS, "js/*.js")
	if err != nil {
		t.Fatal(err)
	}
	at := map[string]int{}
	for _, m := range modules {
		head := "// ---- " + m + "\n"
		if n := strings.Count(string(b), head); n != 1 {
			t.Errorf("%s is in the bundle %d times", m, n)
		}
		at[m] = strings.Index(string(b), head)
	}
	for _, m := range modules {
		p, err := parseModule(FS, m)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range p.imports {
			if at[imp.from] > at[m] && !importsBack(t, imp.from, m) {
				t.Errorf("%s comes after %s, which imports it", imp.from, m)
			}
		}
	}
	// A syntax check, where node is installed (the browser tests run the
	// bundle in Chromium anyway).
	if node, err := exec.LookPath("node"); err == nil {
		f := filepath.Join(t.TempDir(), "bundle.mjs")
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(node, "--check", f).CombinedOutput(); err != nil {
			t.Errorf("node --check of the bundle: %v\n%s", err, out)
		}
	}
}

// importsBack tells whether from imports m (directly): the two form a
// cycle, and one of them must come first.
func importsBack(t *testing.T, from, m string) bool {
	p, err := parseModule(FS, from)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range p.imports {
		if imp.from == m {
			return true
		}
	}
	return false
}

func TestBundle_ModulesKeepTheirNamesAndCyclesCallLate(t *testing.T) {
	fsys := fstest.MapFS{
		"js/main.js": {Data: []byte("import { a } from './a.js';\nimport { b, shared } from './b.js';\nconst KEY = 1;\nexport const out = a() + b() + shared;\n")},
		"js/a.js":    {Data: []byte("import { b } from './b.js';\nconst KEY = 'a';\nexport function a() { return KEY + b(); }\n")},
		"js/b.js":    {Data: []byte("import { a } from './a.js';\nexport function b() { return 'b'; }\nexport const shared = 's';\nexport function viaA() { return a(); }\n")},
	}
	got, err := Bundle(fsys, "js/main.js")
	if err != nil {
		t.Fatal(err)
	}
	want := `// The monitor page's modules as one script, put together by the server (server/monitor/web/bundle.go).

// ---- js/b.js
const __b = (() => {
function a(...args) { return __a.a(...args); }
function b() { return 'b'; }
const shared = 's';
function viaA() { return a(); }
return { b, shared, viaA };
})();

// ---- js/a.js
const __a = (() => {
const { b } = __b;
const KEY = 'a';
function a() { return KEY + b(); }
return { a };
})();

// ---- js/main.js
const __main = (() => {
const { a } = __a;
const { b, shared } = __b;
const KEY = 1;
const out = a() + b() + shared;
return { out };
})();
`
	if string(got) != want {
		t.Errorf("bundle:\n%s\nwant:\n%s", got, want)
	}
}

func TestBundle_RefusesWhatItDoesNotKnow(t *testing.T) {
	for name, src := range map[string]string{
		"default export":  "export default 1;\n",
		"renamed import":  "import { a as b } from './a.js';\n",
		"namespace":       "import * as a from './a.js';\n",
		"missing export":  "import { nope } from './a.js';\n",
		"missing module":  "import { a } from './gone.js';\n",
		"export list":     "const a = 1;\nexport { a };\n",
		"cycle non-func":  "import { c } from './c.js';\nexport const x = 1;\n",
		"multi-line from": "import {\n  a,\n} from './a.js';\n",
	} {
		t.Run(name, func(t *testing.T) {
			fsys := fstest.MapFS{
				"js/main.js": {Data: []byte(src)},
				"js/a.js":    {Data: []byte("export function a() {}\n")},
				"js/c.js":    {Data: []byte("import { x } from './main.js';\nexport function c() { return x; }\n")},
			}
			if b, err := Bundle(fsys, "js/main.js"); err == nil {
				t.Errorf("no error; bundle:\n%s", b)
			} else if !strings.HasPrefix(err.Error(), "web: bundle: ") {
				t.Errorf("error %q does not say where it comes from", err)
			}
		})
	}
}

func TestServeBundle(t *testing.T) {
	rec := httptest.NewRecorder()
	ServeBundle(rec, httptest.NewRequest(http.MethodGet, "/js/bundle.js", nil))
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/javascript") {
		t.Fatalf("status %d, type %q: %s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	again := httptest.NewRequest(http.MethodGet, "/js/bundle.js", nil)
	again.Header.Set("If-None-Match", rec.Header().Get("ETag"))
	rec2 := httptest.NewRecorder()
	ServeBundle(rec2, again)
	if rec2.Code != http.StatusNotModified {
		t.Errorf("a reload with the same ETag: status %d, want 304", rec2.Code)
	}
}
