package btfile

import (
	"fmt"
	"math"
	"strings"
)

// Keywords, lower case; the parser compares them case-insensitively.
// aliases maps alternative spellings to the canonical keyword.
var (
	composites = map[string]bool{
		"sequence": true, "reactive-sequence": true, "selector": true, "fallback": true,
		"parallel": true, "choose": true, "choose-each": true, "weighted-choice": true,
	}
	decorators = map[string]bool{
		"invert": true, "always": true, "never": true, "repeat": true,
		"until-success": true, "cooldown": true, "randomly": true, "timeout": true,
	}
	aliases = map[string]string{
		"behaviour": "behavior", "loop": "repeat", "timer": "cooldown", "selector-p": "randomly",
		"not": "invert",
	}
)

// keyword returns the canonical lower-case keyword of an identifier.
func keyword(ident string) string {
	k := strings.ToLower(ident)
	if a, ok := aliases[k]; ok {
		return a
	}
	return k
}

// Parse reads one behaviour file. name is used in error positions.
func Parse(name string, src []byte) (*File, error) {
	p := &parser{lex: newLexer(name, src)}
	if err := p.advance(); err != nil {
		return nil, err
	}
	f := &File{Name: name}
	for p.tok.kind != tEOF {
		if err := p.topItem(f); err != nil {
			return nil, err
		}
	}
	return f, nil
}

type parser struct {
	lex *lexer
	tok token
	// ahead holds a token read for two-token lookahead.
	ahead *token
}

func (p *parser) advance() error {
	if p.ahead != nil {
		p.tok, p.ahead = *p.ahead, nil
		return nil
	}
	t, err := p.lex.next()
	if err != nil {
		return err
	}
	p.tok = t
	return nil
}

// peek returns the token after the current one.
func (p *parser) peek() (token, error) {
	if p.ahead == nil {
		t, err := p.lex.next()
		if err != nil {
			return token{}, err
		}
		p.ahead = &t
	}
	return *p.ahead, nil
}

func (p *parser) errorf(at Pos, format string, args ...any) error {
	return &Error{Pos: at, Msg: fmt.Sprintf(format, args...)}
}

// expected reports the current token as not what was wanted.
func (p *parser) expected(what, after string) error {
	msg := "expected " + what
	if after != "" {
		msg += " after " + after
	}
	return p.errorf(p.tok.pos, "%s, found %s", msg, p.tok.describe())
}

func (p *parser) isPunct(s string) bool { return p.tok.kind == tPunct && p.tok.text == s }

func (p *parser) expectPunct(s, after string) error {
	if !p.isPunct(s) {
		return p.expected("'"+s+"'", after)
	}
	return p.advance()
}

func (p *parser) ident(what, after string) (token, error) {
	if p.tok.kind != tIdent {
		return token{}, p.expected(what, after)
	}
	t := p.tok
	return t, p.advance()
}

func (p *parser) topItem(f *File) error {
	if p.tok.kind != tIdent {
		return p.expected("'behavior', 'team' or 'include'", "")
	}
	start := p.tok
	switch keyword(start.text) {
	case "include":
		if err := p.advance(); err != nil {
			return err
		}
		if p.tok.kind != tString {
			return p.expected("a file name in double quotes", "'include'")
		}
		f.Includes = append(f.Includes, Include{Pos: start.pos, Path: p.tok.text})
		return p.advance()
	case "behavior":
		b, err := p.behaviour()
		if err != nil {
			return err
		}
		f.Behaviours = append(f.Behaviours, b)
		return nil
	case "team":
		t, err := p.team()
		if err != nil {
			return err
		}
		f.Teams = append(f.Teams, t)
		return nil
	}
	return p.errorf(start.pos, "expected 'behavior', 'team' or 'include', found %s", start.describe())
}

func (p *parser) behaviour() (*Behaviour, error) {
	b := &Behaviour{Pos: p.tok.pos}
	if err := p.advance(); err != nil {
		return nil, err
	}
	name, err := p.ident("a behaviour name", "'behavior'")
	if err != nil {
		return nil, err
	}
	b.Name = name.text
	if err := p.expectPunct("{", "behavior "+b.Name); err != nil {
		return nil, err
	}
	if p.isPunct("}") {
		return nil, p.expected("a node", "'{'")
	}
	if b.Root, err = p.node(); err != nil {
		return nil, err
	}
	if !p.isPunct("}") {
		return nil, p.expected("'}' closing behavior "+b.Name, "its root node (wrap several nodes in a sequence or selector)")
	}
	return b, p.advance()
}

func (p *parser) team() (*Team, error) {
	t := &Team{Pos: p.tok.pos}
	if err := p.advance(); err != nil {
		return nil, err
	}
	name, err := p.ident("a team name", "'team'")
	if err != nil {
		return nil, err
	}
	t.Name = name.text
	braced := p.isPunct("{")
	if braced {
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	for {
		if braced && p.isPunct("}") {
			return t, p.advance()
		}
		if p.tok.kind != tIdent {
			if braced {
				return nil, p.expected("'behaviour: count' or '}'", "")
			}
			return t, nil
		}
		next, err := p.peek()
		if err != nil {
			return nil, err
		}
		if next.kind != tPunct || next.text != ":" {
			if braced {
				return nil, p.errorf(next.pos, "expected ':' after %s, found %s", p.tok.describe(), next.describe())
			}
			return t, nil // the next top-level item
		}
		e, err := p.teamEntry()
		if err != nil {
			return nil, err
		}
		t.Entries = append(t.Entries, e)
	}
}

func (p *parser) teamEntry() (TeamEntry, error) {
	e := TeamEntry{Pos: p.tok.pos, Behaviour: p.tok.text}
	if err := p.advance(); err != nil { // name
		return e, err
	}
	if err := p.advance(); err != nil { // ':'
		return e, err
	}
	after := "'" + e.Behaviour + ":'"
	switch {
	case p.tok.kind == tIdent && keyword(p.tok.text) == "rest":
		e.Kind = SelectRest
		if err := p.advance(); err != nil {
			return e, err
		}
	case p.tok.kind == tNumber:
		n := p.tok.num
		if n < 0 || n != math.Trunc(n) || n > 1e6 {
			return e, p.errorf(p.tok.pos, "expected a whole number of agents, found %s", p.tok.text)
		}
		e.N = int(n)
		if err := p.advance(); err != nil {
			return e, err
		}
		if p.isPunct("%") {
			e.Kind = SelectPercent
			if e.N > 100 {
				return e, p.errorf(p.tok.pos, "a percentage cannot exceed 100, found %d%%", e.N)
			}
			if err := p.advance(); err != nil {
				return e, err
			}
		}
	default:
		return e, p.expected("a count, a percentage or 'rest'", after)
	}
	if p.tok.kind == tIdent && keyword(p.tok.text) == "required" {
		next, err := p.peek()
		if err != nil {
			return e, err
		}
		if next.kind != tPunct || next.text != ":" { // not the next entry named "required"
			e.Required = true
			return e, p.advance()
		}
	}
	return e, nil
}

// node parses one tree node.
func (p *parser) node() (*Node, error) {
	if p.tok.kind != tIdent {
		return nil, p.expected("a node (a composite, a decorator, 'condition', 'action' or 'behavior')", "")
	}
	start := p.tok
	kw := keyword(start.text)
	n := &Node{Pos: start.pos, Kind: kw}
	if err := p.advance(); err != nil {
		return nil, err
	}
	switch {
	case kw == "action":
		return n, p.action(n)
	case kw == "condition":
		return n, p.condition(n)
	case kw == "behavior":
		name, err := p.ident("a behaviour name", "'behavior'")
		if err != nil {
			return nil, err
		}
		n.Name = name.text
		return n, nil
	case composites[kw]:
		return n, p.composite(n)
	case decorators[kw]:
		return n, p.decorator(n)
	}
	return nil, p.errorf(start.pos, "unknown node %s: expected a composite, a decorator, 'condition', 'action' or 'behavior'", start.describe())
}

func (p *parser) action(n *Node) error {
	name, err := p.ident("a skill name", "'action'")
	if err != nil {
		return err
	}
	n.Name = name.text
	if p.isPunct("(") {
		n.Args, err = p.args("action " + n.Name)
	}
	return err
}

// args parses "( [arg {, arg}] )".
func (p *parser) args(after string) ([]Arg, error) {
	if err := p.advance(); err != nil { // '('
		return nil, err
	}
	var out []Arg
	for !p.isPunct(")") {
		if len(out) > 0 {
			if err := p.expectPunct(",", "an argument of "+after); err != nil {
				return nil, p.expected("',' or ')'", "an argument of "+after)
			}
		}
		a := Arg{Pos: p.tok.pos, Text: p.tok.text}
		switch p.tok.kind {
		case tNumber:
			a.Kind, a.Num = ArgNumber, p.tok.num
		case tString:
			a.Kind = ArgString
		case tIdent:
			a.Kind = ArgIdent
		case tRef:
			a.Kind = ArgRef
		default:
			return nil, p.expected("a number, a string, a name or a $key", "'(' of "+after)
		}
		out = append(out, a)
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	return out, p.advance()
}

func (p *parser) condition(n *Node) error {
	if !p.startsExpr() {
		return p.expected("an expression", "'condition'")
	}
	var err error
	if n.Cond, err = p.expr(); err != nil {
		return err
	}
	if p.isPunct("{") {
		child, err := p.block("condition", 1, 1)
		if err != nil {
			return err
		}
		n.Children = child
	}
	return nil
}

func (p *parser) composite(n *Node) error {
	var err error
	if p.isPunct("(") {
		if n.Args, err = p.args(n.Kind); err != nil {
			return err
		}
	} else if n.Kind == "choose-each" && p.tok.kind == tIdent && keyword(p.tok.text) == "repeat" {
		next, err := p.peek()
		if err != nil {
			return err
		}
		if next.kind == tPunct && next.text == "{" {
			n.Args = []Arg{{Pos: p.tok.pos, Kind: ArgIdent, Text: "repeat"}}
			if err := p.advance(); err != nil {
				return err
			}
		}
	}
	n.Children, err = p.block(n.Kind, 1, -1)
	return err
}

func (p *parser) decorator(n *Node) error {
	var err error
	switch {
	case p.isPunct("("):
		n.Args, err = p.args(n.Kind)
	case p.tok.kind == tNumber:
		n.Args = []Arg{{Pos: p.tok.pos, Kind: ArgNumber, Num: p.tok.num, Text: p.tok.text}}
		err = p.advance()
	case p.tok.kind == tRef:
		n.Args = []Arg{{Pos: p.tok.pos, Kind: ArgRef, Text: p.tok.text}}
		err = p.advance()
	}
	if err != nil {
		return err
	}
	most := 1
	if n.Kind == "randomly" {
		most = 2
	}
	n.Children, err = p.block(n.Kind, 1, most)
	return err
}

// block parses "{ node ... }" with between least and most children
// (most < 0: any number).
func (p *parser) block(owner string, least, most int) ([]*Node, error) {
	if !p.isPunct("{") {
		return nil, p.expected("'{'", owner)
	}
	open := p.tok.pos
	if err := p.advance(); err != nil {
		return nil, err
	}
	var kids []*Node
	for !p.isPunct("}") {
		if p.tok.kind == tEOF {
			return nil, p.errorf(p.tok.pos, "expected '}' closing the '{' of %s at %d:%d, found end of file", owner, open.Line, open.Col)
		}
		if most >= 0 && len(kids) == most {
			return nil, p.errorf(p.tok.pos, "expected '}': %s takes %s, found %s", owner, children(most), p.tok.describe())
		}
		k, err := p.node()
		if err != nil {
			return nil, err
		}
		kids = append(kids, k)
	}
	if len(kids) < least {
		return nil, p.errorf(p.tok.pos, "expected a node: %s needs at least %s", owner, children(least))
	}
	return kids, p.advance()
}

func children(n int) string {
	if n == 1 {
		return "one child"
	}
	return fmt.Sprintf("%d children", n)
}
