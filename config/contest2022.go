package config

import (
	"embed"
	"io/fs"
)

// contest2022 holds the three simulations of the 2022 contest, embedded so
// that massim practice -sim N runs without any file on disk.
//
//go:embed examples/contest2022
var contest2022 embed.FS

// Contest2022File is the root file of the 2022 contest config inside
// Contest2022FS.
const Contest2022File = "contest2022.json"

// Contest2022FS is the embedded 2022 contest config folder
// (config/examples/contest2022).
func Contest2022FS() fs.FS { return embedded(contest2022, "examples/contest2022") }

// Contest2022 loads the embedded 2022 contest config: its match array holds
// the official simulations 1, 2 and 3 in order.
func Contest2022() (*Config, error) {
	return LoadFS(Contest2022FS(), Contest2022File)
}
