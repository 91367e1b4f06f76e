package config

import (
	"errors"
	"io/fs"
	"path"
)

// Load reads the config file at path from disk. Includes resolve relative to
// the including file; grid.file and setup paths relative to the working
// directory, then to the directory of path.
func Load(path string) (*Config, error) {
	src := osSource{}
	return load(src, path, src.dir(path))
}

// LoadFS reads the config file name from fsys (e.g. the embedded demo).
// Includes, grid.file and setup resolve inside fsys; read those files with
// Config.ReadFile.
func LoadFS(fsys fs.FS, name string) (*Config, error) {
	return load(fsSource{fsys}, name, path.Dir(name))
}

// Parse reads a config given as text (the -confString option). name labels
// it in error messages; includes, grid.file and setup resolve relative to
// the working directory.
func Parse(name string, data []byte) (*Config, error) {
	if name == "" {
		name = "<inline config>"
	}
	// The inline root has no file identity ("") so no include can form a
	// cycle through it.
	cfg, err := parse(osSource{}, name, "", ".", data)
	if err != nil {
		return nil, err
	}
	cfg.Path = ""
	return cfg, nil
}

func load(src source, name, dir string) (*Config, error) {
	data, err := src.readFile(name)
	if err != nil {
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			err = pathErr.Err
		}
		return nil, &FieldError{File: name, Reason: "cannot read config", Err: err}
	}
	return parse(src, name, src.identity(name), dir, data)
}

// parse decodes the root text, expands its includes and builds the Config.
func parse(src source, name, id, dir string, data []byte) (*Config, error) {
	tree, err := decodeTree(name, data)
	if err != nil {
		return nil, err
	}
	e := newExpander(src)
	tree, err = e.expandRoot(tree, name, id, dir)
	if err != nil {
		return nil, err
	}
	cfg, err := build(tree, name, resolver{src: src, rootDir: dir})
	if err != nil {
		return nil, err
	}
	cfg.Path = name
	if _, onOS := src.(osSource); onOS {
		cfg.Files = e.files(id)
	}
	cfg.digest, cfg.parts = treeDigest(tree), treeParts(tree)
	return cfg, nil
}

// build validates the expanded tree into a Config. All problems found are
// returned together (errors.Join), each as "file: key path: reason".
func build(tree *node, file string, res resolver) (*Config, error) {
	r := &report{}
	root, ok := r.object(tree, "", file)
	if !ok {
		return nil, &FieldError{File: file, Reason: "the configuration must be a JSON object, not " + tree.kind.String()}
	}
	server, serverOK := readServer(r, root)
	matches := readMatches(r, root, res)
	teams, teamsOK := readTeams(r, root, res)
	ladder := readLadder(r, root)
	cfg := &Config{Server: server, Match: matches, Teams: teams, Ladder: ladder, res: res}
	if serverOK && teamsOK {
		checkTeamsPerMatch(r, root, server, teams)
		cfg.ManualMode = readManualMode(r, root, server, teams)
		checkAccountClashes(r, root, teams, cfg.MaxTeamSize())
	} else {
		root.opt("manual-mode") // known key, checked once server and teams are
	}
	root.finish()
	if len(r.errs) > 0 {
		return nil, errors.Join(r.errs...)
	}
	cfg.Warnings = r.warnings
	cfg.UnknownKeys = r.unknown
	return cfg, nil
}
