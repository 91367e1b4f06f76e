package config

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// Includes (docs/config.md, "Loading and includes") are expanded on the parsed tree rather than on the
// text as the Java server does: a string value "$(PATH)" is replaced by the parsed and
// expanded content of PATH. Any included file that is one valid JSON value
// behaves exactly as with textual insertion, and the text of included files
// is never reinterpreted (the Java server's regex replacement corrupts '$' and '\').
// Working on the tree also lets every node keep the file it came from.

// includePath returns PATH when s is exactly "$(PATH)" with no '$' in PATH.
func includePath(s string) (string, bool) {
	if len(s) < 3 || !strings.HasPrefix(s, "$(") || !strings.HasSuffix(s, ")") {
		return "", false
	}
	p := s[2 : len(s)-1]
	if strings.Contains(p, "$") {
		return "", false
	}
	return p, true
}

// expander replaces includes by the expanded trees of the named files.
type expander struct {
	src  source
	done map[string]*node // fully expanded files by identity; trees are immutable, so shared
	// The chain of files being expanded, outermost first, for cycle detection.
	chainNames []string
	chainIDs   []string
	// The key path of the node being expanded, as segments: the path string
	// is only built for an error, so deep nesting costs no quadratic copying.
	segments []segment
}

// segment is one step of a key path: an object key or an array index.
type segment struct {
	key   string
	index int // -1 for a key
}

// path renders the current key path, e.g. match[0].roles.
func (e *expander) path() string {
	p := ""
	for _, s := range e.segments {
		if s.index >= 0 {
			p = indexPath(p, s.index)
		} else {
			p = keyPath(p, s.key)
		}
	}
	return p
}

func newExpander(src source) *expander {
	return &expander{src: src, done: map[string]*node{}}
}

// files lists the root file (its identity, "" for inline text: left out)
// and every file included, sorted.
func (e *expander) files(rootID string) []string {
	var out []string
	if rootID != "" {
		out = append(out, rootID)
	}
	for id := range e.done {
		out = append(out, id)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// expandRoot expands the includes of a root tree whose includes resolve
// relative to dir. rootID identifies the root file ("" for inline text).
func (e *expander) expandRoot(root *node, name, rootID, dir string) (*node, error) {
	e.chainNames = append(e.chainNames[:0], name)
	e.chainIDs = append(e.chainIDs[:0], rootID)
	e.segments = e.segments[:0]
	return e.expand(root, dir)
}

// expand returns n with every include below it replaced. Unchanged subtrees
// are returned as they are; changed objects and arrays are copied.
func (e *expander) expand(n *node, dir string) (*node, error) {
	switch n.kind {
	case kindString:
		if rel, ok := includePath(n.text); ok {
			return e.include(n.file, dir, rel)
		}
	case kindArray:
		var elems []*node
		for i, el := range n.elems {
			e.segments = append(e.segments, segment{index: i})
			x, err := e.expand(el, dir)
			e.segments = e.segments[:len(e.segments)-1]
			if err != nil {
				return nil, err
			}
			if x != el && elems == nil {
				elems = append(make([]*node, 0, len(n.elems)), n.elems[:i]...)
			}
			if elems != nil {
				elems = append(elems, x)
			}
		}
		if elems != nil {
			return &node{kind: kindArray, file: n.file, elems: elems}, nil
		}
	case kindObject:
		var members []member
		for i, m := range n.members {
			e.segments = append(e.segments, segment{key: m.key, index: -1})
			x, err := e.expand(m.value, dir)
			e.segments = e.segments[:len(e.segments)-1]
			if err != nil {
				return nil, err
			}
			if x != m.value && members == nil {
				members = append(make([]member, 0, len(n.members)), n.members[:i]...)
			}
			if members != nil {
				members = append(members, member{key: m.key, value: x})
			}
		}
		if members != nil {
			return &node{kind: kindObject, file: n.file, members: members}, nil
		}
	}
	return n, nil
}

// include reads, parses and expands the file rel, named in file from (whose
// directory is dir) at the current key path.
func (e *expander) include(from, dir, rel string) (*node, error) {
	name := e.src.join(dir, rel)
	id := e.src.identity(name)
	if tree, ok := e.done[id]; ok {
		return tree, nil
	}
	for i, chainID := range e.chainIDs {
		if chainID == id {
			cycle := append(append([]string{}, e.chainNames[i:]...), name)
			return nil, &FieldError{File: from, Path: e.path(),
				Reason: "include cycle: " + strings.Join(cycle, " -> ")}
		}
	}
	data, err := e.src.readFile(name)
	if err != nil {
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			err = pathErr.Err // the path is in the reason already
		}
		return nil, &FieldError{File: from, Path: e.path(),
			Reason: fmt.Sprintf("include %q: cannot read %s", "$("+rel+")", name), Err: err}
	}
	tree, err := decodeTree(name, data)
	if err != nil {
		return nil, err
	}
	e.chainNames = append(e.chainNames, name)
	e.chainIDs = append(e.chainIDs, id)
	tree, err = e.expand(tree, e.src.dir(name))
	e.chainNames = e.chainNames[:len(e.chainNames)-1]
	e.chainIDs = e.chainIDs[:len(e.chainIDs)-1]
	if err != nil {
		return nil, err
	}
	e.done[id] = tree
	return tree, nil
}
