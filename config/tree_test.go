package config

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeTreeKeepsKeyOrderNumbersAndFile(t *testing.T) {
	tree, err := decodeTree("f.json", []byte(`{"z": 1, "a": [true, null, "s"], "m": 9007199254740993}`))
	require.NoError(t, err)
	assert.Equal(t, [][2]any{
		{"z", "#1"},
		{"a", []any{true, nil, "s"}},
		{"m", "#9007199254740993"}, // beyond float64 precision, kept exactly
	}, plain(tree))
	assert.Equal(t, "f.json", tree.get("a").elems[2].file)
	assert.Nil(t, tree.get("missing"))
}

func TestDecodeTreeTreatsNullAsAbsent(t *testing.T) {
	tree, err := decodeTree("f.json", []byte(`{"logPath": null}`))
	require.NoError(t, err)
	assert.Nil(t, tree.get("logPath"))
}

func TestDecodeTreeSkipsByteOrderMark(t *testing.T) {
	tree, err := decodeTree("f.json", []byte("\uFEFF{\"a\": 1}"))
	require.NoError(t, err)
	assert.Equal(t, [][2]any{{"a", "#1"}}, plain(tree))
}

func TestDecodeTreeSyntaxErrorsHaveLineAndColumn(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"bad value", `{"a": x}`, "f.json:1:7: invalid character 'x' looking for beginning of value"},
		{"second line", "{\n  \"a\": 1\n  \"b\": 2}", "f.json:3:3: invalid character '\"' after object key:value pair"},
		{"trailing comma", "{\"a\": [1, 2,]}", "f.json:1:13: invalid character ']' looking for beginning of value"},
		{"unterminated", "{\n\"a\": [1", "f.json:2:8: unexpected end of JSON input"},
		{"empty file", "", "f.json:1:1: unexpected end of JSON input"},
		{"trailing data", "{}\n}", "f.json:2:1: invalid character '}' after top-level value"},
		{"column counts characters", `{"ä": ü}`, "f.json:1:7: invalid character 'Ã' looking for beginning of value"},
		{"single quotes (the Java server is lenient, we are not)", `{'a': 1}`, "f.json:1:2: invalid character '\\'' looking for beginning of object key string"},
		{"duplicate key", "{\"A\": 1,\n \"A\": 2}", `f.json:2:2: duplicate key "A"`},
		{"duplicate key nested", `{"teams": {"A": {}, "B": {}, "A": {}}}`, `f.json:1:30: duplicate key "A"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeTree("f.json", []byte(tt.text))
			var se *SyntaxError
			require.ErrorAs(t, err, &se)
			assert.EqualError(t, err, configErr(tt.want))
		})
	}
}

// configErr is an expected error text with the package prefix on every line
// (joined errors print one per line).
func configErr(want string) string {
	return "config: " + strings.ReplaceAll(want, "\n", "\nconfig: ")
}
