package config

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

// baseFiles is a small valid config in the official layout (testdata/base):
// conf.json includes sim/sim.json, which includes roles.json and norms.json
// relative to sim/.
func baseFiles(t testing.TB) fstest.MapFS {
	t.Helper()
	files := fstest.MapFS{}
	root := filepath.Join("testdata", "base")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data}
		return nil
	})
	require.NoError(t, err)
	return files
}

// edit replaces text old by new in one file of a fixture.
type edit struct{ file, old, new string }

// edited returns the base fixture with the edits applied; each old text must
// occur exactly once, so a test cannot silently edit nothing.
func edited(t testing.TB, edits ...edit) fstest.MapFS {
	t.Helper()
	files := baseFiles(t)
	for _, e := range edits {
		f, ok := files[e.file]
		require.True(t, ok, "fixture file %s", e.file)
		f.Data = []byte(replaceOnce(t, string(f.Data), e.old, e.new))
	}
	return files
}

// replaceOnce replaces old, which must occur exactly once, by new.
func replaceOnce(t testing.TB, text, old, new string) string {
	t.Helper()
	require.Equal(t, 1, strings.Count(text, old), "%q in %q", old, text)
	return strings.Replace(text, old, new, 1)
}

// loadEdited loads the base fixture after edits.
func loadEdited(t testing.TB, edits ...edit) (*Config, error) {
	t.Helper()
	return LoadFS(edited(t, edits...), "conf.json")
}

// writeTree writes files (slash paths relative to dir) to disk.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
}

// mapFS builds an in-memory FS from file texts.
func mapFS(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	for name, text := range files {
		m[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return m
}

// plain converts a tree into ordinary Go values for comparisons: objects
// become ordered [][2]any lists, numbers their literal text.
func plain(n *node) any {
	switch n.kind {
	case kindObject:
		out := [][2]any{}
		for _, m := range n.members {
			out = append(out, [2]any{m.key, plain(m.value)})
		}
		return out
	case kindArray:
		out := []any{}
		for _, el := range n.elems {
			out = append(out, plain(el))
		}
		return out
	case kindNumber:
		return "#" + n.text
	case kindString:
		return n.text
	case kindBool:
		return n.boolean
	default:
		return nil
	}
}
