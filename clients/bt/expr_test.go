package bt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func num(f float64) Expr  { return Const(Number(f)) }
func str(s string) Expr   { return Const(String(s)) }
func boolean(b bool) Expr { return Const(Bool(b)) }
func eval(e Expr) Value   { return e.Eval(&Context{in: &Instance{bb: NewBlackboard()}}) }
func isTrue(e Expr) bool  { return eval(e) == Bool(true) }

func TestComparisonsOfNumbersStringsAndBooleans(t *testing.T) {
	tests := []struct {
		op   string
		l, r Expr
		want bool
	}{
		{"<", num(1), num(2), true},
		{"<=", num(2), num(2), true},
		{">", num(1), num(2), false},
		{">=", num(3), num(2), true},
		{"==", num(2), num(2), true},
		{"!=", num(2), num(2), false},
		{"==", str("b0"), str("b0"), true},
		{"<", str("a"), str("b"), true},
		{"!=", boolean(true), boolean(false), true},
	}
	for _, tt := range tests {
		t.Run(tt.l.String()+tt.op+tt.r.String(), func(t *testing.T) {
			e, err := Compare(tt.op, tt.l, tt.r)
			require.NoError(t, err)
			assert.Equal(t, tt.want, isTrue(e))
		})
	}
}

func TestTypeErrorsAreFoundWhenTheExpressionIsBuilt(t *testing.T) {
	_, err := Compare("<", num(1), str("x"))
	assert.ErrorContains(t, err, `cannot compare number 1 with string "x"`)
	_, err = Compare("<", boolean(true), boolean(false))
	assert.ErrorContains(t, err, "only be compared with == and !=")
	_, err = Compare("=~", num(1), num(1))
	assert.Error(t, err)
	_, err = And(num(1), boolean(true))
	assert.ErrorContains(t, err, "left operand of && must be a boolean")
	_, err = Not(str("x"))
	assert.Error(t, err)
	fn := &Func{Name: "energy", Result: KindNumber, Fn: func(*Context, []Value) Value { return Number(3) }}
	_, err = Apply(fn, num(1))
	assert.ErrorContains(t, err, "takes 0 arguments, got 1")
	typed := &Func{Name: "fits", Params: []Kind{KindString}, Result: KindBool, Fn: func(*Context, []Value) Value { return Bool(true) }}
	_, err = Apply(typed, num(1))
	assert.ErrorContains(t, err, "argument 1 must be a string")
}

func TestLogicShortCircuitsLeftToRight(t *testing.T) {
	calls := 0
	probe := Must(Apply(&Func{Name: "probe", Result: KindBool, Fn: func(*Context, []Value) Value {
		calls++
		return Bool(true)
	}}))
	assert.False(t, isTrue(Must(And(boolean(false), probe))))
	assert.True(t, isTrue(Must(Or(boolean(true), probe))))
	assert.Zero(t, calls)
	assert.True(t, isTrue(Must(And(boolean(true), probe))))
	assert.Equal(t, 1, calls)
	assert.True(t, isTrue(Must(Not(boolean(false)))))
	assert.Equal(t, "!(false && probe())", Must(Not(Must(And(boolean(false), probe)))).String())
}

func TestAnyKindedValuesMismatchAtRunTimeAsUnequal(t *testing.T) {
	anything := Must(Apply(&Func{Name: "get", Result: KindAny, Fn: func(*Context, []Value) Value { return String("x") }}))
	eq := Must(Compare("==", anything, num(1)))
	ne := Must(Compare("!=", anything, num(1)))
	assert.False(t, isTrue(eq))
	assert.True(t, isTrue(ne))
}

func TestBuiltinFunctions(t *testing.T) {
	r := NewRegistry()
	step, ok := r.Func("step")
	require.True(t, ok)
	c := &Context{Step: 12, in: &Instance{bb: NewBlackboard()}}
	assert.Equal(t, Number(12), Must(Apply(step)).Eval(c))

	flag, _ := r.Func("flag")
	set := Must(Apply(flag, str("busy")))
	assert.Equal(t, Bool(false), set.Eval(c))
	c.in.bb.Set("busy", Bool(true))
	assert.Equal(t, Bool(true), set.Eval(c))
	c.in.bb.Set("busy", Bool(false))
	assert.Equal(t, Bool(false), set.Eval(c))
}
