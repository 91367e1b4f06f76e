package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// resolver finds the files a config names by path (grid.file, setup). These
// are not includes: the Java server opens them relative to the working
// directory (the samples say "conf/maps/…"); we try the working directory
// first, then the directory of the root config file (docs/config.md,
// "Loading and includes"). For LoadFS
// the FS root plays the working directory.
type resolver struct {
	src     source
	rootDir string
}

// candidates lists where p may be, in the order they are tried.
func (res resolver) candidates(p string) []string {
	alt := res.src.join(res.rootDir, p)
	if alt == p || res.rootDir == "." {
		return []string{p}
	}
	return []string{p, alt}
}

// resolve returns the first candidate that exists.
func (res resolver) resolve(p string) (string, bool) {
	for _, c := range res.candidates(p) {
		if res.src.exists(c) {
			return c, true
		}
	}
	return "", false
}

// readPath reads a required file path setting and resolves it.
func (res resolver) readPath(r *report, n *node, path string) (string, bool) {
	p, ok := r.stringValue(n, path)
	if !ok {
		return "", false
	}
	if p == "" {
		r.fail(n.file, path, "must not be empty")
		return "", false
	}
	resolved, ok := res.resolve(p)
	if !ok {
		r.fail(n.file, path, "file not found (tried %s)", strings.Join(res.candidates(p), ", "))
		return "", false
	}
	return resolved, true
}

// resolver returns how this config resolves paths; a Config built by hand
// resolves on the OS relative to the directory of Path.
func (c *Config) resolver() resolver {
	if c.res.src != nil {
		return c.res
	}
	dir := "."
	if c.Path != "" {
		dir = filepath.Dir(c.Path)
	}
	return resolver{src: osSource{}, rootDir: dir}
}

// ResolvePath finds a file named in the config the way grid.file and setup
// are found: the working directory (the FS root for LoadFS) first, then the
// directory of the root config file. It returns p unchanged when neither
// exists. Grid.File and Match.Setup are already resolved at load.
func (c *Config) ResolvePath(p string) string {
	if resolved, ok := c.resolver().resolve(p); ok {
		return resolved
	}
	return p
}

// ReadFile reads a resolved path (Grid.File, Match.Setup) from where the
// config was loaded: the OS, or the fs.FS given to LoadFS.
func (c *Config) ReadFile(p string) ([]byte, error) {
	var data []byte
	var err error
	if c.res.src != nil {
		data, err = c.res.src.readFile(p)
	} else {
		data, err = os.ReadFile(p)
	}
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return data, nil
}
