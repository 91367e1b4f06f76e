package config

import (
	"embed"
	"io/fs"
)

// examples holds the demo config, embedded so that the demo command runs
// without any file on disk. embed.FS is read-only.
//
//go:embed examples/demo
var examples embed.FS

// DemoFile is the root file of the demo config inside DemoFS.
const DemoFile = "demo.json"

// DemoFS is the embedded demo config folder (config/examples/demo).
func DemoFS() fs.FS { return embedded(examples, "examples/demo") }

// embedded is the folder dir of an embedded file system.
func embedded(fsys embed.FS, dir string) fs.FS {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		panic("config: embedded " + dir + " missing: " + err.Error()) // a build defect, not a runtime condition
	}
	return sub
}

// Demo loads the embedded demo config: two teams of ten agents on a 40×40
// cave map, 200 steps, with events and norms.
func Demo() (*Config, error) {
	return LoadFS(DemoFS(), DemoFile)
}
