package sim

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
)

// keysOutsideTheWorld are the config.Match fields that WorldParams does
// not copy, with the reason. Every other field must reach scenario.Params.
var keysOutsideTheWorld = map[string]string{
	"ID":        "names the entry in messages only",
	"Grid.File": "a file name: WorldParams loads the bitmap (tested with real files)",
	"Setup":     "a file name: WorldParams parses the setup file (tested with real files)",
}

// TestWorldParams_EveryMatchKeyReachesTheWorld changes one field of a
// config.Match at a time and requires scenario.Params to change with it,
// so that a key added to the config but forgotten in the hand-written
// mapping of WorldParams fails here instead of being dropped silently.
func TestWorldParams_EveryMatchKeyReachesTheWorld(t *testing.T) {
	base := config.Match{}
	fill(reflect.ValueOf(&base).Elem(), new(int))
	base.Grid.File, base.Setup = "", "" // no files to load
	cfg := &config.Config{}
	start := time.UnixMilli(0)
	before, err := WorldParams(cfg, base, start)
	require.NoError(t, err)

	leaves := leafPaths(reflect.TypeOf(base), "")
	require.Greater(t, len(leaves), 40, "the walk sees the whole match entry")
	for _, path := range leaves {
		if _, skip := keysOutsideTheWorld[path]; skip {
			continue
		}
		t.Run(path, func(t *testing.T) {
			changed := deepCopyMatch(base)
			perturb(fieldAt(reflect.ValueOf(&changed).Elem(), path))
			after, err := WorldParams(cfg, changed, start)
			require.NoError(t, err)
			assert.False(t, reflect.DeepEqual(before, after), "config.Match.%s does not reach scenario.Params (sim/worldparams.go)", path)
		})
	}
}

// fill gives every leaf a distinct non-zero value and every slice one element.
func fill(v reflect.Value, next *int) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), next)
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0), next)
	case reflect.Int, reflect.Int64:
		*next++
		v.SetInt(int64(*next))
	case reflect.Float64:
		*next++
		v.SetFloat(float64(*next) / 1000)
	case reflect.String:
		*next++
		v.SetString(fmt.Sprintf("s%d", *next))
	case reflect.Bool:
		v.SetBool(true)
	default:
		panic("fill: unhandled kind " + v.Kind().String())
	}
}

// leafPaths lists the leaves of a type as Go selectors, slices by their
// first element: "Roles[0].Vision".
func leafPaths(t reflect.Type, prefix string) []string {
	switch t.Kind() {
	case reflect.Struct:
		var out []string
		for i := range t.NumField() {
			name := t.Field(i).Name
			if prefix != "" {
				name = prefix + "." + name
			}
			out = append(out, leafPaths(t.Field(i).Type, name)...)
		}
		return out
	case reflect.Slice:
		return append([]string{prefix + "[]"}, leafPaths(t.Elem(), prefix+"[0]")...)
	default:
		return []string{prefix}
	}
}

// fieldAt resolves a path of leafPaths; "X[]" is the slice X itself.
func fieldAt(v reflect.Value, path string) reflect.Value {
	for path != "" {
		var part string
		part, path = cutSelector(path)
		switch {
		case part == "[]":
			return v
		case part == "[0]":
			v = v.Index(0)
		default:
			v = v.FieldByName(part)
		}
	}
	return v
}

func cutSelector(path string) (part, rest string) {
	if path[0] == '[' {
		end := 1
		for path[end] != ']' {
			end++
		}
		part, rest = path[:end+1], path[end+1:]
	} else {
		end := 0
		for end < len(path) && path[end] != '.' && path[end] != '[' {
			end++
		}
		part, rest = path[:end], path[end:]
	}
	if len(rest) > 0 && rest[0] == '.' {
		rest = rest[1:]
	}
	return part, rest
}

// perturb changes a leaf, or gives a slice a second element.
func perturb(v reflect.Value) {
	switch v.Kind() {
	case reflect.Slice:
		grown := reflect.Append(v, v.Index(0))
		v.Set(grown)
	case reflect.Int, reflect.Int64:
		v.SetInt(v.Int() + 1000)
	case reflect.Float64:
		v.SetFloat(v.Float() + 0.5)
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	default:
		panic("perturb: unhandled kind " + v.Kind().String())
	}
}

// deepCopyMatch copies m with slices of its own, so a perturbation does
// not reach the base.
func deepCopyMatch(m config.Match) config.Match {
	var out config.Match
	copyValue(reflect.ValueOf(&out).Elem(), reflect.ValueOf(m))
	return out
}

func copyValue(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Struct:
		for i := range src.NumField() {
			copyValue(dst.Field(i), src.Field(i))
		}
	case reflect.Slice:
		dst.Set(reflect.MakeSlice(src.Type(), src.Len(), src.Len()))
		for i := range src.Len() {
			copyValue(dst.Index(i), src.Index(i))
		}
	default:
		dst.Set(src)
	}
}
