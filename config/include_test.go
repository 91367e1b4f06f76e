package config

import (
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// expandFS parses root from files and expands its includes.
func expandFS(t *testing.T, files map[string]string, root string) (*node, error) {
	t.Helper()
	src := fsSource{mapFS(files)}
	data, err := src.readFile(root)
	require.NoError(t, err)
	tree, err := decodeTree(root, data)
	require.NoError(t, err)
	return newExpander(src).expandRoot(tree, root, src.identity(root), src.dir(root))
}

func TestIncludeExpansion(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  any
	}{
		{
			name: "nested three levels, each relative to the including file",
			files: map[string]string{
				"conf.json":                  "{\"match\": [\"$(sim/sim1.json)\"]}",
				"sim/sim1.json":              "{\"roles\": \"$(roles/standard.json)\"}",
				"sim/roles/standard.json":    "[{\"name\": \"default\", \"speed\": \"$(speeds/fast.json)\"}]",
				"sim/roles/speeds/fast.json": "[3, 0]",
			},
			want: [][2]any{{"match", []any{[][2]any{{"roles", []any{[][2]any{{"name", "default"}, {"speed", []any{"#3", "#0"}}}}}}}}},
		},
		{
			name: "a leading slash is still relative to the including file (as the Java server)",
			files: map[string]string{
				"conf.json":  `{"a": "$(/sub/x.json)"}`,
				"sub/x.json": `{"b": "$(/y.json)"}`,
				"sub/y.json": `true`,
			},
			want: [][2]any{{"a", [][2]any{{"b", true}}}},
		},
		{
			name: "array elements, strings and numbers",
			files: map[string]string{
				"conf.json": `{"list": [1, "$(n.json)", "$(s.json)"], "steps": "$(n.json)"}`,
				"n.json":    "400\n",
				"s.json":    `"hello"`,
			},
			want: [][2]any{{"list", []any{"#1", "#400", "hello"}}, {"steps", "#400"}},
		},
		{
			name: "dollar and backslash in included text are kept literally",
			files: map[string]string{
				"conf.json":   `{"password": "$(secret.json)"}`,
				"secret.json": `"p$1\\$0 \\\\ $$ \\1"`,
			},
			want: [][2]any{{"password", `p$1\$0 \\ $$ \1`}},
		},
		{
			name: "not includes: blanks, a '$' in the path, or only part of the string",
			files: map[string]string{
				"conf.json": `{"a": " $(x.json)", "b": "$(x$.json)", "c": "$(x.json) ", "d": "$(x.json"}`,
			},
			want: [][2]any{{"a", " $(x.json)"}, {"b", "$(x$.json)"}, {"c", "$(x.json) "}, {"d", "$(x.json"}},
		},
		{
			name: "the same file included twice (no false cycle)",
			files: map[string]string{
				"conf.json": `["$(a.json)", "$(a.json)", {"x": "$(b.json)"}]`,
				"a.json":    `"$(b.json)"`,
				"b.json":    `7`,
			},
			want: []any{"#7", "#7", [][2]any{{"x", "#7"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tree, err := expandFS(t, tt.files, "conf.json")
			require.NoError(t, err)
			assert.Equal(t, tt.want, plain(tree))
		})
	}
}

func TestIncludedNodesRememberTheirFile(t *testing.T) {
	tree, err := expandFS(t, map[string]string{
		"conf.json":      `{"match": ["$(sim/sim1.json)"], "x": 1}`,
		"sim/sim1.json":  `{"roles": "$(roles.json)", "steps": 5}`,
		"sim/roles.json": `[{"name": "default"}]`,
	}, "conf.json")
	require.NoError(t, err)
	sim := tree.get("match").elems[0]
	assert.Equal(t, "conf.json", tree.get("x").file)
	assert.Equal(t, "sim/sim1.json", sim.file)
	assert.Equal(t, "sim/sim1.json", sim.get("steps").file)
	assert.Equal(t, "sim/roles.json", sim.get("roles").elems[0].get("name").file)
}

func TestIncludeErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{
			name: "missing file names it and the including file",
			files: map[string]string{
				"conf.json":     `{"match": ["$(sim/sim1.json)"]}`,
				"sim/sim1.json": `{"roles": "$(roles/none.json)"}`,
			},
			want: `sim/sim1.json: match[0].roles: include "$(roles/none.json)": cannot read sim/roles/none.json: file does not exist`,
		},
		{
			name: "cycle through two files",
			files: map[string]string{
				"conf.json":  `{"x": "$(b.json)"}`,
				"b.json":     `{"y": "$(sub/c.json)"}`,
				"sub/c.json": `["$(../b.json)"]`,
			},
			want: `sub/c.json: x.y[0]: include cycle: b.json -> sub/c.json -> b.json`,
		},
		{
			name:  "a file including itself",
			files: map[string]string{"conf.json": `{"x": "$(conf.json)"}`},
			want:  `conf.json: x: include cycle: conf.json -> conf.json`,
		},
		{
			name: "syntax error inside an included file names that file",
			files: map[string]string{
				"conf.json":  `{"roles": "$(roles.json)"}`,
				"roles.json": "[\n  {\"name\": \"default\",}\n]",
			},
			want: `roles.json:2:22: invalid character '}' looking for beginning of object key string`,
		},
		{
			name:  "climbing out of the FS fails to read",
			files: map[string]string{"conf.json": `{"x": "$(../outside.json)"}`},
			want:  `conf.json: x: include "$(../outside.json)": cannot read ../outside.json: file does not exist`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := expandFS(t, tt.files, "conf.json")
			assert.EqualError(t, err, configErr(tt.want))
		})
	}
}

func TestLoadIncludesFromDisk(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for name, f := range baseFiles(t) {
		files[name] = string(f.Data)
	}
	writeTree(t, dir, files)
	cfg, err := Load(filepath.Join(dir, "conf.json"))
	require.NoError(t, err)
	require.Len(t, cfg.Match, 1)
	assert.Equal(t, "scout", cfg.Match[0].Roles[2].Name)
	assert.Equal(t, filepath.Join(dir, "conf.json"), cfg.Path)
}

func TestLoadMissingIncludeFromDisk(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"conf.json": `{"match": ["$(/sim/nope.json)"]}`})
	root := filepath.Join(dir, "conf.json")
	_, err := Load(root)
	require.ErrorIs(t, err, fs.ErrNotExist)
	assert.EqualError(t, err, "config: "+root+`: match[0]: include "$(/sim/nope.json)": cannot read `+
		filepath.Join(dir, "sim", "nope.json")+": no such file or directory")
}

func TestLoadCycleOnDiskThroughDifferentSpellings(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"conf.json":  `{"match": ["$(sim/a.json)"]}`,
		"sim/a.json": `{"x": "$(./../sim/a.json)"}`,
	})
	_, err := Load(filepath.Join(dir, "conf.json"))
	assert.ErrorContains(t, err, "include cycle: "+filepath.Join(dir, "sim", "a.json")+" -> "+filepath.Join(dir, "sim", "a.json"))
}

func TestLoadMissingRootFile(t *testing.T) {
	_, err := Load(filepath.Join("testdata", "nope.json"))
	require.ErrorIs(t, err, fs.ErrNotExist)
	assert.EqualError(t, err, "config: "+filepath.Join("testdata", "nope.json")+": cannot read config: no such file or directory")
}

func TestParseResolvesIncludesAgainstTheWorkingDirectory(t *testing.T) {
	// Tests run in the package directory, so testdata/base/... is reachable.
	text := `{"match": ["$(testdata/base/sim/sim.json)"], "teams": {"A": {"prefix": "a", "password": "p"}, "B": {"prefix": "a", "password": "p"}}}`
	cfg, err := Parse("-confString", []byte(text))
	require.NoError(t, err)
	assert.Equal(t, "", cfg.Path)
	assert.Equal(t, 100, cfg.Match[0].Steps)
	assert.Equal(t, "worker", cfg.Match[0].Roles[1].Name) // sim.json's own include, relative to its folder

	_, err = Parse("-confString", []byte(`{"match": x}`))
	assert.EqualError(t, err, "config: -confString:1:11: invalid character 'x' looking for beginning of value")
}
