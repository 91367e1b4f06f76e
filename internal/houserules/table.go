package houserules

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// Rule is one row of the package table of docs/architecture.md.
type Rule struct {
	Packages []string // the row's packages, module-relative ("replays/codec", "clients/…")
	Text     string   // the "may import" cell, as written
	Ours     []string // packages of ours it names ("scenario", "replays/…")
	Others   []string // other modules it names by a part of their path ("zerolog", "klauspost/compress")
	Anything bool     // "everything"
	Line     int      // of the row in the file
}

// subtree marks a name that stands for a package and every package below it.
const subtree = "/…"

var (
	backticked    = regexp.MustCompile("`([^`]+)`")
	parenthetical = regexp.MustCompile(`\([^()]*\)`)
)

// ReadTable reads the package table (the one whose header starts with
// "| package |" and has a "may import" column) from a Markdown page.
func ReadTable(r io.Reader) ([]Rule, error) {
	var rules []Rule
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	in, col := false, -1
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "|") {
			if in {
				break // the table ended
			}
			continue
		}
		cells := splitRow(line)
		switch {
		case !in && len(cells) > 0 && cells[0] == "package":
			col = slices.IndexFunc(cells, func(c string) bool { return strings.HasPrefix(c, "may import") })
			in = col >= 0
		case in && strings.HasPrefix(cells[0], "---"):
		case in:
			if len(cells) <= col {
				return nil, fmt.Errorf("houserules: line %d: the row has fewer than %d cells", n, col+1)
			}
			r, err := parseRule(cells[0], cells[col])
			if err != nil {
				return nil, fmt.Errorf("houserules: line %d: %w", n, err)
			}
			r.Line = n
			rules = append(rules, r)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("houserules: %w", err)
	}
	if len(rules) == 0 {
		return nil, fmt.Errorf("houserules: no package table with a \"may import\" column")
	}
	return rules, nil
}

func splitRow(line string) []string {
	cells := strings.Split(strings.Trim(line, "|"), "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

// parseRule reads a row's package cell and its "may import" cell: names
// of ours in backticks, other modules by a part of their path, "nothing"
// or "everything"; words in parentheses only explain.
func parseRule(pkgCell, importCell string) (Rule, error) {
	r := Rule{Text: importCell}
	for _, m := range backticked.FindAllStringSubmatch(pkgCell, -1) {
		r.Packages = append(r.Packages, m[1])
	}
	if len(r.Packages) == 0 {
		return r, fmt.Errorf("no package in backticks in %q", pkgCell)
	}
	for _, item := range strings.Split(parenthetical.ReplaceAllString(importCell, ""), ",") {
		item = strings.TrimSpace(item)
		switch {
		case item == "" || item == "nothing":
		case item == "everything":
			r.Anything = true
		case strings.HasPrefix(item, "`"):
			m := backticked.FindStringSubmatch(item)
			if m == nil {
				return r, fmt.Errorf("unclosed backtick in %q", item)
			}
			r.Ours = append(r.Ours, m[1])
		case strings.ContainsAny(item, " `"):
			return r, fmt.Errorf("%q: write a package of ours in backticks, another module by its name (explanations in parentheses)", item)
		default:
			r.Others = append(r.Others, item)
		}
	}
	return r, nil
}

// covers reports whether name (as a table writes it) stands for pkg.
func covers(name, pkg string) bool {
	if base, ok := strings.CutSuffix(name, subtree); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return name == pkg
}

// RuleFor is the row that governs pkg: the row naming it, else the row of
// its nearest ancestor (a row covers the packages below it that have no
// row of their own); false when none does.
func RuleFor(rules []Rule, pkg string) (Rule, bool) {
	best, bestLen := Rule{}, -1
	for _, r := range rules {
		for _, name := range r.Packages {
			base := strings.TrimSuffix(name, subtree)
			if (pkg == base || strings.HasPrefix(pkg, base+"/")) && len(base) > bestLen {
				best, bestLen = r, len(base)
			}
		}
	}
	return best, bestLen >= 0
}

// Allows reports whether a package governed by r may import imp: a package
// of ours (module-relative, ours true) or another module's package (its
// whole path). Within its own row a package may import freely (the
// rule of imp's row is then r itself).
func (r Rule) Allows(rules []Rule, imp string, ours bool) bool {
	if r.Anything {
		return true
	}
	if !ours {
		return slices.ContainsFunc(r.Others, func(name string) bool { return hasSegments(imp, name) })
	}
	if own, ok := RuleFor(rules, imp); ok && own.Line == r.Line {
		return true
	}
	return slices.ContainsFunc(r.Ours, func(name string) bool { return covers(name, imp) })
}

// hasSegments reports whether the path segments of name occur, in order
// and next to each other, in path: "zerolog" in github.com/rs/zerolog,
// "klauspost/compress" in github.com/klauspost/compress/zstd.
func hasSegments(path, name string) bool {
	p, n := strings.Split(path, "/"), strings.Split(name, "/")
	for i := 0; i+len(n) <= len(p); i++ {
		if slices.Equal(p[i:i+len(n)], n) {
			return true
		}
	}
	return false
}
