package bt

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Kind is the type of a value in conditions and skill arguments.
type Kind uint8

// Value kinds. KindAny is only used to declare parameters and results
// that accept or produce more than one kind.
const (
	KindAny Kind = iota
	KindNumber
	KindString
	KindBool
)

func (k Kind) String() string {
	switch k {
	case KindNumber:
		return "number"
	case KindString:
		return "string"
	case KindBool:
		return "boolean"
	}
	return "value"
}

// Value is a number, a string or a boolean.
type Value struct {
	Kind Kind
	Num  float64
	Str  string
	Bool bool
}

// Number, String and Bool make values.
func Number(f float64) Value { return Value{Kind: KindNumber, Num: f} }

// String makes a string value.
func String(s string) Value { return Value{Kind: KindString, Str: s} }

// Bool makes a boolean value.
func Bool(b bool) Value { return Value{Kind: KindBool, Bool: b} }

// String renders the value as text: strings as they are, numbers in their
// shortest form.
func (v Value) String() string {
	switch v.Kind {
	case KindNumber:
		return strconv.FormatFloat(v.Num, 'g', -1, 64)
	case KindBool:
		return strconv.FormatBool(v.Bool)
	}
	return v.Str
}

// Literal renders the value as it would be written in a behaviour file.
func (v Value) Literal() string {
	if v.Kind == KindString {
		return strconv.Quote(v.Str)
	}
	return v.String()
}

// Expr is a compiled condition expression. Its kind is known when it is
// built, so type errors are found at load time.
type Expr interface {
	Kind() Kind
	Eval(c *Context) Value
	String() string
}

// evalBool evaluates a boolean expression; anything else counts as false
// (the constructors make sure conditions are boolean).
func evalBool(c *Context, e Expr) bool {
	v := e.Eval(c)
	return v.Kind == KindBool && v.Bool
}

type constExpr struct{ v Value }

// Const is a literal value.
func Const(v Value) Expr { return constExpr{v} }

func (e constExpr) Kind() Kind          { return e.v.Kind }
func (e constExpr) Eval(*Context) Value { return e.v }
func (e constExpr) String() string      { return e.v.Literal() }

type notExpr struct{ x Expr }

// Not negates a boolean expression.
func Not(x Expr) (Expr, error) {
	if err := CheckBool(x, "operand of !"); err != nil {
		return nil, err
	}
	return notExpr{x}, nil
}

func (e notExpr) Kind() Kind { return KindBool }
func (e notExpr) Eval(c *Context) Value {
	return Bool(!evalBool(c, e.x))
}
func (e notExpr) String() string { return "!" + e.x.String() }

type logicExpr struct {
	and  bool
	l, r Expr
}

// And is l && r, evaluated left to right with short circuit.
func And(l, r Expr) (Expr, error) { return logic(true, l, r) }

// Or is l || r, evaluated left to right with short circuit.
func Or(l, r Expr) (Expr, error) { return logic(false, l, r) }

func logic(and bool, l, r Expr) (Expr, error) {
	op := "||"
	if and {
		op = "&&"
	}
	if err := CheckBool(l, "left operand of "+op); err != nil {
		return nil, err
	}
	if err := CheckBool(r, "right operand of "+op); err != nil {
		return nil, err
	}
	return logicExpr{and, l, r}, nil
}

func (e logicExpr) Kind() Kind { return KindBool }
func (e logicExpr) Eval(c *Context) Value {
	if evalBool(c, e.l) == e.and {
		return Bool(evalBool(c, e.r))
	}
	return Bool(!e.and)
}
func (e logicExpr) String() string {
	op := " || "
	if e.and {
		op = " && "
	}
	return "(" + e.l.String() + op + e.r.String() + ")"
}

// Comparison operators.
var compareOps = []string{"==", "!=", "<", "<=", ">", ">="}

type compareExpr struct {
	op   string
	l, r Expr
}

// Compare is l op r with op one of == != < <= > >=. Numbers compare by
// value, strings lexically, booleans only with == and !=. Operands of
// known, different kinds are an error; with KindAny operands a mismatch at
// run time is simply false (true for !=).
func Compare(op string, l, r Expr) (Expr, error) {
	if !slices.Contains(compareOps, op) {
		return nil, fmt.Errorf("bt: unknown comparison %q", op)
	}
	lk, rk := l.Kind(), r.Kind()
	if lk != KindAny && rk != KindAny && lk != rk {
		return nil, fmt.Errorf("bt: cannot compare %s %s with %s %s", lk, l, rk, r)
	}
	if (lk == KindBool || rk == KindBool) && op != "==" && op != "!=" {
		return nil, fmt.Errorf("bt: booleans can only be compared with == and !=, not %s", op)
	}
	return compareExpr{op, l, r}, nil
}

func (e compareExpr) Kind() Kind { return KindBool }

func (e compareExpr) Eval(c *Context) Value {
	l, r := e.l.Eval(c), e.r.Eval(c)
	if l.Kind != r.Kind {
		return Bool(e.op == "!=")
	}
	var order int
	switch l.Kind {
	case KindNumber:
		order = compareFloat(l.Num, r.Num)
	case KindString:
		order = strings.Compare(l.Str, r.Str)
	case KindBool:
		if l.Bool != r.Bool {
			order = 1
		}
	}
	switch e.op {
	case "==":
		return Bool(order == 0)
	case "!=":
		return Bool(order != 0)
	case "<":
		return Bool(order < 0)
	case "<=":
		return Bool(order <= 0)
	case ">":
		return Bool(order > 0)
	default:
		return Bool(order >= 0)
	}
}

func (e compareExpr) String() string {
	return "(" + e.l.String() + " " + e.op + " " + e.r.String() + ")"
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// CheckBool reports an error unless e is boolean (or of any kind); what
// names the place for the message.
func CheckBool(e Expr, what string) error {
	if k := e.Kind(); k != KindBool && k != KindAny {
		return fmt.Errorf("bt: %s must be a boolean, got %s %s", what, k, e)
	}
	return nil
}

type callExpr struct {
	fn   *Func
	args []Expr
}

// Func is a function usable in conditions, registered under Name.
type Func struct {
	Name   string
	Doc    string
	Params []Kind // KindAny accepts any kind
	Result Kind
	Fn     func(c *Context, args []Value) Value
}

// Apply calls a registered function on argument expressions, checking the
// number and kinds of the arguments.
func Apply(fn *Func, args ...Expr) (Expr, error) {
	if len(args) != len(fn.Params) {
		return nil, fmt.Errorf("bt: function %s takes %d arguments, got %d", fn.Name, len(fn.Params), len(args))
	}
	for i, a := range args {
		if want, got := fn.Params[i], a.Kind(); want != KindAny && got != KindAny && want != got {
			return nil, fmt.Errorf("bt: function %s: argument %d must be a %s, got %s %s", fn.Name, i+1, want, got, a)
		}
	}
	return callExpr{fn, args}, nil
}

func (e callExpr) Kind() Kind { return e.fn.Result }

func (e callExpr) Eval(c *Context) Value {
	args := make([]Value, len(e.args))
	for i, a := range e.args {
		args[i] = a.Eval(c)
	}
	return e.fn.Fn(c, args)
}

func (e callExpr) String() string {
	parts := make([]string, len(e.args))
	for i, a := range e.args {
		parts[i] = a.String()
	}
	return e.fn.Name + "(" + strings.Join(parts, ", ") + ")"
}
