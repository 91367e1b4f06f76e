package btfile

import (
	"strconv"
	"strings"
)

// Format prints a parsed file in canonical form: one node per line,
// two-space indentation, canonical keywords, every expression fully
// parenthesised. Parsing the output gives the same file again.
func Format(f *File) string {
	var b strings.Builder
	for _, in := range f.Includes {
		b.WriteString("include " + quote(in.Path) + "\n")
	}
	for _, t := range f.Teams {
		b.WriteString("team " + t.Name + " {\n")
		for _, e := range t.Entries {
			b.WriteString("  " + e.Behaviour + ": ")
			switch e.Kind {
			case SelectRest:
				b.WriteString("rest")
			case SelectPercent:
				b.WriteString(strconv.Itoa(e.N) + "%")
			default:
				b.WriteString(strconv.Itoa(e.N))
			}
			if e.Required {
				b.WriteString(" required")
			}
			b.WriteString("\n")
		}
		b.WriteString("}\n")
	}
	for _, bh := range f.Behaviours {
		b.WriteString("behavior " + bh.Name + " {\n")
		formatNode(&b, bh.Root, 1)
		b.WriteString("}\n")
	}
	return b.String()
}

func formatNode(b *strings.Builder, n *Node, depth int) {
	b.WriteString(strings.Repeat("  ", depth))
	b.WriteString(n.Kind)
	switch n.Kind {
	case "action", "behavior":
		b.WriteString(" " + n.Name)
	case "condition":
		b.WriteString(" " + FormatExpr(n.Cond))
	}
	if len(n.Args) > 0 {
		parts := make([]string, len(n.Args))
		for i, a := range n.Args {
			parts[i] = formatArg(a)
		}
		b.WriteString("(" + strings.Join(parts, ", ") + ")")
	}
	if len(n.Children) == 0 {
		b.WriteString("\n")
		return
	}
	b.WriteString(" {\n")
	for _, k := range n.Children {
		formatNode(b, k, depth+1)
	}
	b.WriteString(strings.Repeat("  ", depth) + "}\n")
}

func formatArg(a Arg) string {
	switch a.Kind {
	case ArgString:
		return quote(a.Text)
	case ArgNumber:
		return strconv.FormatFloat(a.Num, 'f', -1, 64)
	case ArgRef:
		return "$" + a.Text
	}
	return a.Text
}

// FormatExpr prints an expression with every operation in parentheses.
func FormatExpr(e *Expr) string {
	switch e.Op {
	case "number":
		return strconv.FormatFloat(e.Num, 'f', -1, 64)
	case "string":
		return quote(e.Text)
	case "ident", "bool":
		return e.Text
	case "call":
		parts := make([]string, len(e.Operands))
		for i, o := range e.Operands {
			parts[i] = FormatExpr(o)
		}
		return e.Text + "(" + strings.Join(parts, ", ") + ")"
	case "!":
		return "!" + FormatExpr(e.Operands[0])
	}
	return "(" + FormatExpr(e.Operands[0]) + " " + e.Op + " " + FormatExpr(e.Operands[1]) + ")"
}

// quote writes s as a string literal of the format, which knows only the
// escapes \" \\ \n and \t; every other character stands for itself.
func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`)
	return `"` + r.Replace(s) + `"`
}
