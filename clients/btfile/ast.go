package btfile

// File is one parsed behaviour file.
type File struct {
	Name       string
	Includes   []Include
	Behaviours []*Behaviour
	Teams      []*Team
}

// Include is an `include "path"` statement.
type Include struct {
	Pos  Pos
	Path string
}

// Behaviour is a `behavior NAME { node }` definition.
type Behaviour struct {
	Pos  Pos
	Name string
	Root *Node
}

// Node is one node of a tree. Kind is the canonical keyword (aliases are
// resolved by the parser): a composite or decorator name, "condition",
// "action" or "behavior" (a reference to a named behaviour).
type Node struct {
	Pos      Pos
	Kind     string
	Args     []Arg  // parameters: in parentheses, or the number after a decorator keyword
	Name     string // action: the skill; behavior: the referenced behaviour
	Cond     *Expr  // condition: the expression
	Children []*Node
}

// ArgKind tells what an argument was written as.
type ArgKind uint8

// Argument kinds.
const (
	ArgNumber ArgKind = iota
	ArgString         // "quoted"
	ArgIdent          // bare identifier, e.g. a direction or block type
	ArgRef            // $key: read from the blackboard when the node starts
)

// Arg is a parameter of an action, composite or decorator.
type Arg struct {
	Pos  Pos
	Kind ArgKind
	Num  float64
	Text string // the string, identifier or blackboard key; the source text of a number
}

// Expr is a condition expression. Op is "number", "string", "ident",
// "bool", "call" (Text is the function, Operands its arguments), "!", "&&",
// "||" or a comparison operator.
type Expr struct {
	Pos      Pos
	Op       string
	Num      float64
	Text     string
	Operands []*Expr
}

// Team is a `team NAME { entries }` block assigning behaviours to agents.
type Team struct {
	Pos     Pos
	Name    string
	Entries []TeamEntry
}

// SelectKind is how a team entry counts its agents.
type SelectKind uint8

// Selector kinds.
const (
	SelectCount   SelectKind = iota // exactly N agents
	SelectPercent                   // N% of the team, rounded down, at least one
	SelectRest                      // every agent not assigned otherwise
)

// TeamEntry is `behaviour: N`, `behaviour: N%` or `behaviour: rest`,
// optionally followed by `required`.
type TeamEntry struct {
	Pos       Pos
	Behaviour string
	Kind      SelectKind
	N         int
	Required  bool
}
