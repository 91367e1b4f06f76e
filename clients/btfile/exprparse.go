package btfile

// Expression grammar, loosest binding first:
//
//	or      = and { "||" and }
//	and     = compare { "&&" compare }
//	compare = unary [ ("==" | "!=" | "<" | "<=" | ">" | ">=") unary ]
//	unary   = "!" unary | primary
//	primary = number | string | "true" | "false" | name [ "(" [ or { "," or } ] ")" ] | "(" or ")"
//
// A name without parentheses is a symbol (a string), as in skill arguments.

func (p *parser) expr() (*Expr, error) { return p.or() }

// startsExpr reports whether the current token can begin an expression.
func (p *parser) startsExpr() bool {
	switch p.tok.kind {
	case tNumber, tString, tIdent:
		return true
	case tOp:
		return p.tok.text == "!"
	case tPunct:
		return p.tok.text == "("
	}
	return false
}

func (p *parser) binary(op string, operand func() (*Expr, error)) (*Expr, error) {
	l, err := operand()
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tOp && p.tok.text == op {
		at := p.tok.pos
		if err := p.advance(); err != nil {
			return nil, err
		}
		r, err := operand()
		if err != nil {
			return nil, err
		}
		l = &Expr{Pos: at, Op: op, Operands: []*Expr{l, r}}
	}
	return l, nil
}

func (p *parser) or() (*Expr, error)  { return p.binary("||", p.and) }
func (p *parser) and() (*Expr, error) { return p.binary("&&", p.compare) }

func (p *parser) compare() (*Expr, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tOp {
		return l, nil
	}
	switch op := p.tok.text; op {
	case "==", "!=", "<", "<=", ">", ">=":
		at := p.tok.pos
		if err := p.advance(); err != nil {
			return nil, err
		}
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		if p.tok.kind == tOp && isComparison(p.tok.text) {
			return nil, p.errorf(p.tok.pos, "comparisons do not chain: use && between %s and %s", op, p.tok.text)
		}
		return &Expr{Pos: at, Op: op, Operands: []*Expr{l, r}}, nil
	}
	return l, nil
}

func isComparison(op string) bool {
	switch op {
	case "==", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

func (p *parser) unary() (*Expr, error) {
	if p.tok.kind == tOp && p.tok.text == "!" {
		at := p.tok.pos
		if err := p.advance(); err != nil {
			return nil, err
		}
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &Expr{Pos: at, Op: "!", Operands: []*Expr{x}}, nil
	}
	return p.primary()
}

func (p *parser) primary() (*Expr, error) {
	t := p.tok
	switch {
	case t.kind == tNumber:
		return &Expr{Pos: t.pos, Op: "number", Num: t.num, Text: t.text}, p.advance()
	case t.kind == tString:
		return &Expr{Pos: t.pos, Op: "string", Text: t.text}, p.advance()
	case t.kind == tPunct && t.text == "(":
		if err := p.advance(); err != nil {
			return nil, err
		}
		x, err := p.or()
		if err != nil {
			return nil, err
		}
		return x, p.expectPunct(")", "the expression in parentheses")
	case t.kind == tIdent:
		if err := p.advance(); err != nil {
			return nil, err
		}
		if !p.isPunct("(") {
			switch keyword(t.text) {
			case "true", "false":
				return &Expr{Pos: t.pos, Op: "bool", Text: keyword(t.text)}, nil
			}
			return &Expr{Pos: t.pos, Op: "ident", Text: t.text}, nil
		}
		call := &Expr{Pos: t.pos, Op: "call", Text: t.text}
		if err := p.advance(); err != nil {
			return nil, err
		}
		for !p.isPunct(")") {
			if len(call.Operands) > 0 {
				if !p.isPunct(",") {
					return nil, p.expected("',' or ')'", "an argument of "+t.text+"(")
				}
				if err := p.advance(); err != nil {
					return nil, err
				}
			}
			a, err := p.or()
			if err != nil {
				return nil, err
			}
			call.Operands = append(call.Operands, a)
		}
		return call, p.advance()
	}
	return nil, p.expected("an expression", "")
}
