// Package web holds the monitor page: plain HTML, CSS and JavaScript
// modules embedded into the binary, no build step. index.html loads the
// modules as one script, js/bundle.js, that the server puts together from
// them (bundle.go).
package web

import "embed"

// FS is the page: index.html (map, timeline, panels), status.html (the
// status feed as a table) and their modules and styles.
//
//go:embed index.html status.html style.css favicon.svg js/*.js js/vendor
var FS embed.FS
