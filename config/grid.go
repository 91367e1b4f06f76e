package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// readGrid reads match[i].grid.
func readGrid(r *report, g *object, res resolver) layer {
	l := layer{}
	width, wOK := g.int("width", atLeast(1))
	height, hOK := g.int("height", atLeast(1))
	if wOK && hOK && int64(width)*int64(height) > maxGridCells {
		r.fail(g.file(), g.path, "width × height = %d cells, at most %d", int64(width)*int64(height), maxGridCells)
	} else {
		if wOK {
			l["width"] = width
		}
		if hOK {
			l["height"] = height
		}
	}
	if n := g.opt("file"); n != nil {
		if p, ok := res.readPath(r, n, g.keyPath("file")); ok {
			l["file"] = p
		}
	}
	if n, ok := g.req("instructions"); ok {
		if list, ok := readInstructions(r, n, g.keyPath("instructions")); ok {
			l["instructions"] = list
		}
	}
	if goals, ok := g.child("goals"); ok {
		l["goals"] = readZones(goals, true)
	}
	if zones, ok := g.child("roleZones"); ok {
		l["roleZones"] = readZones(zones, false)
	}
	if n := g.opt("connected"); n != nil {
		if b, ok := r.boolValue(n, g.keyPath("connected")); ok {
			l["connected"] = b
		}
	}
	g.finish()
	return l
}

// readZones reads grid.goals or grid.roleZones; only goal zones move.
func readZones(z *object, moving bool) layer {
	l := layer{"moveProbability": 0.0}
	set := into{z, l}
	set.int("number", atLeast(0))
	set.bounds("size", atLeast(0))
	if moving {
		set.number("moveProbability", probability)
	}
	z.finish()
	return l
}

// Limits shared with package maps (Instruction.Validate, the grid size
// check of Generate), which config may not import: a config that loads must
// also generate, so the failure names file and key at load time instead of
// surfacing when the simulation starts. server/worldparams_test.go checks
// that both sides agree. 2^24 cells is a 4096×4096 map; a cave reaches its
// fixed point long before 1000 rounds; a border wider than the map is
// clipped, so 100000 is no real limit.
const (
	maxGridCells      = 1 << 24
	maxCaveIterations = 1000
	maxBorderWidth    = 100000
)

// instructionParam describes one parameter of a terrain instruction.
type instructionParam struct {
	name    string
	integer bool
	min     float64
	max     float64
}

// instructionParams are the known instructions (docs/config.md, "Terrain").
func instructionParams(name string) ([]instructionParam, bool) {
	switch name {
	case "cave":
		return []instructionParam{
			{"chance", false, 0, 1},
			{"iterations", true, 0, maxCaveIterations},
			{"createLimit", true, 0, 8},
			{"survivalLimit", true, 0, 8},
		}, true
	case "line-border", "ragged-border":
		return []instructionParam{{"width", true, 0, maxBorderWidth}}, true
	}
	return nil, false
}

// readInstructions reads grid.instructions. Like the Java server, entries that are not
// arrays and unknown names are skipped (with a warning); a known name with
// wrong parameters is an error, as it would build another map than meant.
func readInstructions(r *report, n *node, path string) ([]Instruction, bool) {
	entries, ok := r.arrayValue(n, path)
	if !ok {
		return nil, false
	}
	list := []Instruction{}
	good := true
	for j, entry := range entries {
		p := indexPath(path, j)
		if entry.kind != kindArray {
			r.warn(entry.file, p, "not an array, instruction ignored")
			continue
		}
		if len(entry.elems) == 0 || entry.elems[0].kind != kindString {
			r.warn(entry.file, p, "no instruction name, instruction ignored")
			continue
		}
		name := entry.elems[0].text
		params, known := instructionParams(name)
		if !known {
			r.warn(entry.file, p, "unknown instruction %q ignored", name)
			continue
		}
		args, ok := instructionArgs(r, entry, p, name, params)
		if !ok {
			good = false
			continue
		}
		list = append(list, Instruction{Name: name, Args: args})
	}
	return list, good
}

func instructionArgs(r *report, entry *node, path, name string, params []instructionParam) ([]float64, bool) {
	given := entry.elems[1:]
	if len(given) != len(params) {
		names := make([]string, len(params))
		for i, p := range params {
			names[i] = p.name
		}
		r.fail(entry.file, path, "%s takes %d parameter(s) [%s], not %d",
			name, len(params), strings.Join(names, ", "), len(given))
		return nil, false
	}
	args := make([]float64, len(params))
	for i, p := range params {
		v, ok := instructionArg(given[i], p)
		if !ok {
			r.fail(entry.file, path, "%s: %s must be %s", name, p.name, p.describe())
			return nil, false
		}
		args[i] = v
	}
	return args, true
}

func instructionArg(n *node, p instructionParam) (float64, bool) {
	if n.kind != kindNumber {
		return 0, false
	}
	var v float64
	if p.integer {
		i, ok := parseInteger(n.text)
		if !ok {
			return 0, false
		}
		v = float64(i)
	} else {
		var err error
		if v, err = strconv.ParseFloat(n.text, 64); err != nil {
			return 0, false
		}
	}
	return v, v >= p.min && v <= p.max
}

func (p instructionParam) describe() string {
	kind := "a number"
	if p.integer {
		kind = "an integer"
	}
	if p.max == math.MaxInt32 {
		return fmt.Sprintf("%s >= %g", kind, p.min)
	}
	return fmt.Sprintf("%s between %g and %g", kind, p.min, p.max)
}
