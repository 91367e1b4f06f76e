package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// kind is the JSON type of a node.
type kind uint8

const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

func (k kind) String() string {
	switch k {
	case kindBool:
		return "a boolean"
	case kindNumber:
		return "a number"
	case kindString:
		return "a string"
	case kindArray:
		return "an array"
	case kindObject:
		return "an object"
	default:
		return "null"
	}
}

// node is one JSON value of a config file. Unlike map[string]any it keeps
// the key order of objects (team order is file order, docs/config.md, "Teams and accounts"), keeps
// numbers as their literal text (no float64 rounding of int64 seeds) and
// remembers the file it was written in, so that after includes are expanded
// every error can still name the file holding the bad value. Nodes are
// never modified after decoding; expanded trees share them freely.
type node struct {
	kind    kind
	file    string
	text    string // string value, or the literal of a number
	boolean bool
	elems   []*node  // kindArray
	members []member // kindObject, in file order
}

// member is one key/value pair of an object node.
type member struct {
	key   string
	value *node
}

// get returns the value of key in an object node, or nil when the key is
// absent or null: this package treats an explicit null like a missing key.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kindObject {
		return nil
	}
	for _, m := range n.members {
		if m.key == key {
			if m.value.kind == kindNull {
				return nil
			}
			return m.value
		}
	}
	return nil
}

// decodeTree parses one config file into a tree. Syntax errors carry
// file:line:column.
func decodeTree(file string, data []byte) (*node, error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF")) // editors on Windows like a BOM
	// encoding/json's scanner reports the exact offset of a syntax error (and
	// limits nesting depth); the token stream below only sees valid input.
	var raw json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, syntaxError(file, data, err)
	}
	d := &treeDecoder{file: file, data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	d.dec.UseNumber()
	return d.value()
}

// syntaxError turns an encoding/json error into a SyntaxError with position.
func syntaxError(file string, data []byte, err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return &SyntaxError{File: file, Line: 1, Column: 1, Msg: err.Error()}
	}
	// Offset counts the offending byte itself; at end of input it is len(data).
	off := int(se.Offset)
	if off > 0 && se.Error() != "unexpected end of JSON input" {
		off--
	}
	line, col := position(data, off)
	return &SyntaxError{File: file, Line: line, Column: col, Msg: se.Error()}
}

// position converts a byte offset into a 1-based line and character column.
func position(data []byte, off int) (line, col int) {
	off = min(off, len(data))
	before := data[:off]
	line = 1 + bytes.Count(before, []byte("\n"))
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return line, 1 + utf8.RuneCount(before[lineStart:])
}

// treeDecoder builds nodes from the token stream of an already validated file.
type treeDecoder struct {
	file string
	data []byte
	dec  *json.Decoder
}

// tokenStart is the offset where the next token begins: the decoder stands
// at the end of the previous token, before blanks, commas and colons.
func (d *treeDecoder) tokenStart() int {
	off := int(d.dec.InputOffset())
	for off < len(d.data) {
		switch d.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

func (d *treeDecoder) value() (*node, error) {
	tok, err := d.dec.Token()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.file, err) // unreachable after validation
	}
	n := &node{file: d.file}
	switch t := tok.(type) {
	case nil:
		n.kind = kindNull
	case bool:
		n.kind, n.boolean = kindBool, t
	case json.Number:
		n.kind, n.text = kindNumber, string(t)
	case string:
		n.kind, n.text = kindString, t
	case json.Delim:
		if t == '[' {
			n.kind = kindArray
			return n, d.array(n)
		}
		n.kind = kindObject
		return n, d.object(n)
	}
	return n, nil
}

func (d *treeDecoder) array(n *node) error {
	for d.dec.More() {
		elem, err := d.value()
		if err != nil {
			return err
		}
		n.elems = append(n.elems, elem)
	}
	_, err := d.dec.Token() // ']'
	return err
}

func (d *treeDecoder) object(n *node) error {
	seen := map[string]bool{}
	for d.dec.More() {
		start := d.tokenStart()
		tok, err := d.dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		// A repeated key would silently drop a value (a team, a role list):
		// refuse it rather than guess which one was meant.
		if seen[key] {
			line, col := position(d.data, start)
			return &SyntaxError{File: d.file, Line: line, Column: col, Msg: fmt.Sprintf("duplicate key %q", key)}
		}
		seen[key] = true
		value, err := d.value()
		if err != nil {
			return err
		}
		n.members = append(n.members, member{key: key, value: value})
	}
	_, err := d.dec.Token() // '}'
	return err
}
