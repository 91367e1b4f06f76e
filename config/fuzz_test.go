package config

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

// FuzzParse feeds arbitrary root texts through Parse and through LoadFS next
// to the base fixture's files (so includes resolve and validation runs deep).
// Loading must never panic; a loaded config must be complete.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"examples", "testdata"} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(p) != ".json" {
				return err
			}
			data, err := os.ReadFile(p)
			if err == nil {
				f.Add(data)
			}
			return err
		})
		require.NoError(f, err)
	}
	f.Add([]byte(`{"match": ["$(sim/sim.json)", "$(conf.json)"], "teams": {"a.b": {"prefix": "", "password": ""}}}`))
	base := baseFiles(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse("fuzz.json", data)
		checkLoaded(t, cfg, err)
		files := fstest.MapFS{"conf.json": &fstest.MapFile{Data: data}}
		for name, file := range base {
			if name != "conf.json" {
				files[name] = file
			}
		}
		cfg, err = LoadFS(files, "conf.json")
		checkLoaded(t, cfg, err)
	})
}

func checkLoaded(t *testing.T, cfg *Config, err error) {
	if err != nil {
		if cfg != nil {
			t.Fatalf("config and error both returned: %v", err)
		}
		return
	}
	if len(cfg.Match) == 0 || len(cfg.Teams) == 0 || cfg.MaxTeamSize() < 1 {
		t.Fatalf("incomplete config loaded: %+v", cfg)
	}
	for _, m := range cfg.Match {
		if len(m.Roles) == 0 || len(m.ClearDamage) == 0 || m.Grid.Width < 1 || m.Grid.Height < 1 {
			t.Fatalf("incomplete match loaded: %+v", m)
		}
	}
}
