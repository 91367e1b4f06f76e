package btfile

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pos is a place in a behaviour file; lines and columns count from 1,
// columns in characters.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// Error is a load error at a place in a file.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return "btfile: " + e.Pos.String() + ": " + e.Msg }

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tNumber
	tString
	tPunct // { } ( ) , : %
	tOp    // == != < <= > >= && || !
	tRef   // $name: a value read from the blackboard
)

type token struct {
	kind tokKind
	text string  // source text (identifier, punctuation, operator); the value of a string
	num  float64 // value of a number
	pos  Pos
}

// describe names a token for error messages.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tIdent:
		return "'" + t.text + "'"
	case tNumber:
		return "number " + t.text
	case tString:
		return "string " + strconv.Quote(t.text)
	case tRef:
		return "'$" + t.text + "'"
	}
	return "'" + t.text + "'"
}

// lexer turns source text into tokens, skipping whitespace and comments.
type lexer struct {
	src       string
	file      string
	off       int
	line, col int
}

func newLexer(file string, src []byte) *lexer {
	return &lexer{src: string(src), file: file, line: 1, col: 1}
}

func (l *lexer) pos() Pos { return Pos{l.file, l.line, l.col} }

func (l *lexer) peekRune(ahead int) rune {
	off := l.off
	for range ahead {
		if off >= len(l.src) {
			return 0
		}
		_, n := utf8.DecodeRuneInString(l.src[off:])
		off += n
	}
	if off >= len(l.src) {
		return 0
	}
	r, _ := utf8.DecodeRuneInString(l.src[off:])
	return r
}

func (l *lexer) advance() rune {
	r, n := utf8.DecodeRuneInString(l.src[l.off:])
	l.off += n
	if r == '\n' {
		l.line, l.col = l.line+1, 1
	} else {
		l.col++
	}
	return r
}

func (l *lexer) errorf(p Pos, format string, args ...any) error {
	return &Error{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

// skipSpace skips whitespace and comments.
func (l *lexer) skipSpace() error {
	for l.off < len(l.src) {
		r := l.peekRune(0)
		switch {
		case unicode.IsSpace(r):
			l.advance()
		case r == '/' && l.peekRune(1) == '/':
			for l.off < len(l.src) && l.peekRune(0) != '\n' {
				l.advance()
			}
		case r == '/' && l.peekRune(1) == '*':
			start := l.pos()
			l.advance()
			l.advance()
			for {
				if l.off >= len(l.src) {
					return l.errorf(start, "comment not terminated: expected '*/'")
				}
				if l.peekRune(0) == '*' && l.peekRune(1) == '/' {
					l.advance()
					l.advance()
					break
				}
				l.advance()
			}
		default:
			return nil
		}
	}
	return nil
}

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isIdentPart(r rune) bool {
	return r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// next returns the next token.
func (l *lexer) next() (token, error) {
	if err := l.skipSpace(); err != nil {
		return token{}, err
	}
	p := l.pos()
	if l.off >= len(l.src) {
		return token{kind: tEOF, pos: p}, nil
	}
	r := l.peekRune(0)
	switch {
	case isIdentStart(r):
		start := l.off
		for l.off < len(l.src) && isIdentPart(l.peekRune(0)) {
			l.advance()
		}
		return token{kind: tIdent, text: l.src[start:l.off], pos: p}, nil
	case isDigit(r) || ((r == '-' || r == '+' || r == '.') && (isDigit(l.peekRune(1)) || l.peekRune(1) == '.')):
		return l.number(p)
	case r == '"':
		return l.str(p)
	case r == '$':
		l.advance()
		if l.off >= len(l.src) || !isIdentStart(l.peekRune(0)) {
			return token{}, l.errorf(p, "expected a blackboard key after '$', e.g. $target")
		}
		start := l.off
		for l.off < len(l.src) && isIdentPart(l.peekRune(0)) {
			l.advance()
		}
		return token{kind: tRef, text: l.src[start:l.off], pos: p}, nil
	case strings.ContainsRune("{}(),:%", r):
		l.advance()
		return token{kind: tPunct, text: string(r), pos: p}, nil
	}
	two := string(r) + string(l.peekRune(1))
	switch two {
	case "==", "!=", "<=", ">=", "&&", "||":
		l.advance()
		l.advance()
		return token{kind: tOp, text: two, pos: p}, nil
	}
	switch r {
	case '<', '>', '!':
		l.advance()
		return token{kind: tOp, text: string(r), pos: p}, nil
	case '=':
		return token{}, l.errorf(p, "unexpected '='; comparisons are written '=='")
	case '&':
		return token{}, l.errorf(p, "unexpected '&'; 'and' is written '&&'")
	case '|':
		return token{}, l.errorf(p, "unexpected '|'; 'or' is written '||'")
	}
	return token{}, l.errorf(p, "unexpected character %q", r)
}

func (l *lexer) number(p Pos) (token, error) {
	start := l.off
	if r := l.peekRune(0); r == '-' || r == '+' {
		l.advance()
	}
	for l.off < len(l.src) && (isDigit(l.peekRune(0)) || l.peekRune(0) == '.') {
		l.advance()
	}
	text := l.src[start:l.off]
	if isIdentStart(l.peekRune(0)) {
		return token{}, l.errorf(p, "malformed number %q: a name cannot start with a digit", text+string(l.peekRune(0)))
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return token{}, l.errorf(p, "malformed number %q", text)
	}
	return token{kind: tNumber, text: text, num: f, pos: p}, nil
}

func (l *lexer) str(p Pos) (token, error) {
	l.advance() // opening quote
	var b strings.Builder
	for {
		if l.off >= len(l.src) || l.peekRune(0) == '\n' {
			return token{}, l.errorf(p, "string not terminated: expected '\"'")
		}
		r := l.advance()
		switch r {
		case '"':
			return token{kind: tString, text: b.String(), pos: p}, nil
		case '\\':
			escPos := l.pos()
			if l.off >= len(l.src) {
				return token{}, l.errorf(p, "string not terminated: expected '\"'")
			}
			switch e := l.advance(); e {
			case '"', '\\':
				b.WriteRune(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				return token{}, l.errorf(Pos{p.File, escPos.Line, escPos.Col - 1}, "unknown escape '\\%c' in string", e)
			}
		default:
			b.WriteRune(r)
		}
	}
}
