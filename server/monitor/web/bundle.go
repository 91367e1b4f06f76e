package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"
)

// The page's modules reach the browser as one script, js/bundle.js, that
// the server puts together from the embedded modules when it is first asked
// for: 19 module requests before the first frame cost more than everything
// else a replay's first frame needs (a browser opens 6 connections to a
// server, so the replay's index and first segment waited behind them).
// The modules stay as they are, and are served one by one too (status.html
// imports js/status.js): there is still no build step.
//
// Each module becomes a function scope that returns its exports, in the
// order the browser would evaluate them (imports first, depth first), so
// their top-level names stay private as in modules. The bundler knows only
// the forms the page uses and refuses anything else:
//
//	import { a, b } from './x.js';          (one line, at the start of a line;
//	                                         ./vendor/x.js for a vendored module)
//	export function|async function|class|const|let|var name …
//
// An import that closes a cycle (x.js imports y.js, which imports x.js) is
// bound when it is called, not when y.js runs; it must name a function.

// bundleEntry is the module index.html loads.
const bundleEntry = "js/main.js"

var (
	importLine = regexp.MustCompile(`^import\s*\{([^}]*)\}\s*from\s*['"]\./((?:vendor/)?[\w.-]+\.js)['"];?\s*$`)
	exportLine = regexp.MustCompile(`^export\s+(async\s+function\*?|function\*?|class|const|let|var)\s+([\w$]+)`)
	moduleName = regexp.MustCompile(`[^\w$]`)
	identifier = regexp.MustCompile(`^[\w$]+$`)
)

// module is one parsed module of the bundle.
type module struct {
	file    string
	lines   []string
	imports []moduleImport
	exports map[string]bool // name → is a function declaration
	order   []string        // export names in source order
}

type moduleImport struct {
	line  int
	names []string
	from  string // file, e.g. js/panel.js
}

// Bundle builds the script of entry and every module it imports from
// fsys (see the package comment on bundle.go).
func Bundle(fsys fs.FS, entry string) ([]byte, error) {
	mods := map[string]*module{}
	state := map[string]int{} // 1: being visited, 2: done
	var order []*module
	back := map[string]map[string]bool{} // file → imports closing a cycle, by target file
	var visit func(file string) error
	visit = func(file string) error {
		m, err := parseModule(fsys, file)
		if err != nil {
			return err
		}
		mods[file] = m
		state[file] = 1
		for _, imp := range m.imports {
			switch state[imp.from] {
			case 1:
				if back[file] == nil {
					back[file] = map[string]bool{}
				}
				back[file][imp.from] = true
			case 0:
				if err := visit(imp.from); err != nil {
					return err
				}
			}
		}
		state[file] = 2
		order = append(order, m)
		return nil
	}
	if err := visit(entry); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.WriteString("// The monitor page's modules as one script, put together by the server (server/monitor/web/bundle.go).\n")
	for _, m := range order {
		fmt.Fprintf(&out, "\n// ---- %s\nconst %s = (() => {\n", m.file, varOf(m.file))
		at := map[int]moduleImport{}
		for _, imp := range m.imports {
			at[imp.line] = imp
		}
		for i, line := range m.lines {
			imp, isImport := at[i]
			if !isImport {
				out.WriteString(strings.TrimPrefix(line, "export ") + "\n")
				continue
			}
			from := mods[imp.from]
			for _, n := range imp.names {
				fn, ok := from.exports[n]
				if !ok {
					return nil, fmt.Errorf("web: bundle: %s imports %s, which %s does not export", m.file, n, imp.from)
				}
				if back[m.file][imp.from] && !fn {
					return nil, fmt.Errorf("web: bundle: %s imports %s from %s in a cycle of imports: only functions can be", m.file, n, imp.from)
				}
			}
			if back[m.file][imp.from] {
				for _, n := range imp.names {
					fmt.Fprintf(&out, "function %s(...args) { return %s.%s(...args); }\n", n, varOf(imp.from), n)
				}
				continue
			}
			fmt.Fprintf(&out, "const { %s } = %s;\n", strings.Join(imp.names, ", "), varOf(imp.from))
		}
		fmt.Fprintf(&out, "return { %s };\n})();\n", strings.Join(m.order, ", "))
	}
	return out.Bytes(), nil
}

// parseModule reads file's imports and exports.
func parseModule(fsys fs.FS, file string) (*module, error) {
	src, err := fs.ReadFile(fsys, file)
	if err != nil {
		return nil, fmt.Errorf("web: bundle: %w", err)
	}
	m := &module{file: file, lines: strings.Split(strings.TrimRight(string(src), "\n"), "\n"), exports: map[string]bool{}}
	for i, line := range m.lines {
		switch {
		case strings.HasPrefix(line, "import"):
			g := importLine.FindStringSubmatch(line)
			if g == nil {
				return nil, fmt.Errorf("web: bundle: %s:%d: only `import { a, b } from './x.js';` on one line is supported", file, i+1)
			}
			imp := moduleImport{line: i, from: path.Join(path.Dir(file), g[2])}
			for n := range strings.SplitSeq(g[1], ",") {
				n = strings.TrimSpace(n)
				if n == "" {
					continue
				}
				if !identifier.MatchString(n) {
					return nil, fmt.Errorf("web: bundle: %s:%d: renaming imports (%q) is not supported", file, i+1, n)
				}
				imp.names = append(imp.names, n)
			}
			m.imports = append(m.imports, imp)
		case strings.HasPrefix(line, "export"):
			g := exportLine.FindStringSubmatch(line)
			if g == nil {
				return nil, fmt.Errorf("web: bundle: %s:%d: only `export function|class|const|let|var name` is supported", file, i+1)
			}
			if _, dup := m.exports[g[2]]; dup {
				return nil, fmt.Errorf("web: bundle: %s:%d: %s exported twice", file, i+1, g[2])
			}
			m.exports[g[2]] = strings.Contains(g[1], "function")
			m.order = append(m.order, g[2])
		}
	}
	return m, nil
}

// varOf is the bundle's name for the exports of file.
func varOf(file string) string {
	return "__" + moduleName.ReplaceAllString(strings.TrimSuffix(path.Base(file), ".js"), "_")
}

// bundled is the page's bundle and its ETag, built once.
var bundled = sync.OnceValues(func() (bundleFile, error) {
	b, err := Bundle(FS, bundleEntry)
	sum := sha256.Sum256(b)
	return bundleFile{b, `"` + hex.EncodeToString(sum[:8]) + `"`}, err
})

type bundleFile struct {
	body []byte
	etag string
}

// ServeBundle answers GET js/bundle.js: the page's modules as one script.
func ServeBundle(w http.ResponseWriter, r *http.Request) {
	b, err := bundled()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("ETag", b.etag)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	http.ServeContent(w, r, "bundle.js", time.Time{}, bytes.NewReader(b.body))
}
