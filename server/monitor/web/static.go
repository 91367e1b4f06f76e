package web

import (
	"bytes"
	"fmt"
	"io/fs"
)

// staticMarker is what a published copy of the page carries on its html
// element: js/open.js reads it and then asks for no endpoint of a server
// (no live feed, admin API, replay library), only for replay files.
const staticMarker = `<html lang="en" data-static>`

// StaticFiles is the page as files for a static web host (massim
// publish; docs/publishing.md): index.html marked as a published copy, its
// script (the modules bundled as the server serves them), styles and icon,
// by their path relative to the page's folder.
func StaticFiles() (map[string][]byte, error) {
	page, err := fs.ReadFile(FS, "index.html")
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	head := []byte(`<html lang="en">`)
	if !bytes.Contains(page, head) {
		return nil, fmt.Errorf("web: index.html has no %s to mark", head)
	}
	files := map[string][]byte{"index.html": bytes.Replace(page, head, []byte(staticMarker), 1)}
	b, err := bundled()
	if err != nil {
		return nil, err
	}
	files["js/bundle.js"] = b.body
	// The vendored decoder's licence travels with the bundle holding it.
	for _, name := range []string{"style.css", "favicon.svg", "js/vendor/fzstd.LICENSE"} {
		if files[name], err = fs.ReadFile(FS, name); err != nil {
			return nil, fmt.Errorf("web: %w", err)
		}
	}
	return files, nil
}
