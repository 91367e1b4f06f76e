package web

import (
	"io/fs"
	"strings"
	"testing"
)

// TestEveryModuleIsPreloaded keeps index.html's modulepreload list
// complete: a module missing from it is fetched only after the module
// that imports it has loaded, one more round trip before the first frame.
func TestEveryModuleIsPreloaded(t *testing.T) {
	html, err := fs.ReadFile(FS, "index.html")
	if err != nil {
		t.Fatal(err)
	}
	modules, err := fs.Glob(FS, "js/*.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range modules {
		if m == "js/main.js" {
			continue // the page's own script
		}
		if !strings.Contains(string(html), `<link rel="modulepreload" href="`+m+`">`) {
			t.Errorf("index.html does not preload %s", m)
		}
	}
}
