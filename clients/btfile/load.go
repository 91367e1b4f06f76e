package btfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/massim-go/massim/clients/bt"
)

// Program is a root behaviour file with everything it includes, checked
// against a registry: every behaviour compiles.
type Program struct {
	files      []*File
	reg        *bt.Registry
	behaviours map[string]*Behaviour
	order      []string // behaviour names in definition order
	team       *Team
}

// Load reads the behaviour file name from fsys, follows its includes
// (paths relative to the including file; a file included twice is read
// once), and compiles every behaviour against reg.
func Load(fsys fs.FS, name string, reg *bt.Registry) (*Program, error) {
	return load(fsys, name, func(n string) string { return n }, reg)
}

// LoadFile is Load for a file on disk; includes may reach anywhere.
func LoadFile(file string, reg *bt.Registry) (*Program, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, fmt.Errorf("btfile: behaviour file %s: %w", file, err)
	}
	root := filepath.VolumeName(abs) + string(filepath.Separator)
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return nil, fmt.Errorf("btfile: behaviour file %s: %w", file, err)
	}
	display := func(n string) string { return filepath.Join(root, filepath.FromSlash(n)) }
	return load(os.DirFS(root), filepath.ToSlash(rel), display, reg)
}

func load(fsys fs.FS, name string, display func(string) string, reg *bt.Registry) (*Program, error) {
	p := &Program{reg: reg, behaviours: map[string]*Behaviour{}}
	seen := map[string]bool{}
	var visit func(name string, from *Include) error
	visit = func(name string, from *Include) error {
		name = path.Clean(name)
		if seen[name] {
			return nil
		}
		seen[name] = true
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			if from != nil {
				return &Error{Pos: from.Pos, Msg: fmt.Sprintf("include %q: %v", from.Path, unwrapPath(err))}
			}
			return fmt.Errorf("btfile: behaviour file %s: %w", display(name), unwrapPath(err))
		}
		f, err := Parse(display(name), src)
		if err != nil {
			return err
		}
		p.files = append(p.files, f)
		for _, in := range f.Includes {
			if err := visit(path.Join(path.Dir(name), in.Path), &in); err != nil {
				return err
			}
		}
		return nil
	}
	if err := visit(name, nil); err != nil {
		return nil, err
	}
	if err := p.index(); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return p, nil
}

// unwrapPath drops the *fs.PathError wrapper, whose path is already known.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// LoadSource checks a single behaviour file given as text (no includes).
func LoadSource(name string, src []byte, reg *bt.Registry) (*Program, error) {
	f, err := Parse(name, src)
	if err != nil {
		return nil, err
	}
	if len(f.Includes) > 0 {
		return nil, &Error{Pos: f.Includes[0].Pos, Msg: "include needs a file system: use Load"}
	}
	p := &Program{files: []*File{f}, reg: reg, behaviours: map[string]*Behaviour{}}
	if err := p.index(); err != nil {
		return nil, err
	}
	return p, p.check()
}

// index collects the behaviours and the team, rejecting duplicates.
func (p *Program) index() error {
	for _, f := range p.files {
		for _, b := range f.Behaviours {
			if prev, dup := p.behaviours[b.Name]; dup {
				return &Error{Pos: b.Pos, Msg: fmt.Sprintf("behaviour %s is already defined at %s", b.Name, prev.Pos)}
			}
			p.behaviours[b.Name] = b
			p.order = append(p.order, b.Name)
		}
		for _, t := range f.Teams {
			if p.team != nil {
				return &Error{Pos: t.Pos, Msg: fmt.Sprintf("a second team definition (the first is at %s)", p.team.Pos)}
			}
			p.team = t
		}
	}
	return nil
}

// check compiles every behaviour and validates the team.
func (p *Program) check() error {
	for _, name := range p.order {
		if _, err := p.Tree(name); err != nil {
			return err
		}
	}
	if p.team == nil {
		return nil
	}
	rest := false
	for _, e := range p.team.Entries {
		if _, ok := p.behaviours[e.Behaviour]; !ok {
			return &Error{Pos: e.Pos, Msg: fmt.Sprintf("team %s: unknown behaviour %q%s", p.team.Name, e.Behaviour, suggest(e.Behaviour, p.order))}
		}
		if e.Kind == SelectRest {
			if rest {
				return &Error{Pos: e.Pos, Msg: fmt.Sprintf("team %s: only one entry can take the rest", p.team.Name)}
			}
			rest = true
		}
	}
	return nil
}

// Behaviours lists the defined behaviours in definition order.
func (p *Program) Behaviours() []string { return slices.Clone(p.order) }

// Team is the program's team definition, nil if it has none.
func (p *Program) Team() *Team { return p.team }

// Tree builds a fresh tree of the named behaviour, with its own nodes, so
// that it can be given to bt.NewTree independently of other trees.
func (p *Program) Tree(name string) (*bt.Tree, error) {
	c := &compiler{prog: p, reg: p.reg, built: map[string]bt.Node{}}
	def, ok := p.behaviours[name]
	if !ok {
		return nil, fmt.Errorf("btfile: no behaviour %q%s", name, suggest(name, p.order))
	}
	root, err := c.behaviour(name, def.Pos)
	if err != nil {
		return nil, err
	}
	tree, err := bt.NewTree(name, root)
	if err != nil {
		return nil, fmt.Errorf("btfile: %w", err)
	}
	return tree, nil
}

// Assign gives each of n agents (index 0 … n-1) a behaviour, following the
// team's entries: counts and percentages in order, lowest indices first,
// then the rest entry. A percentage is of n, rounded down, but at least one
// agent while any is left. A required entry that cannot be filled, or
// agents left over without a rest entry, are errors. Without a team, a
// behaviour named "main" is given to everybody.
func (p *Program) Assign(n int) ([]string, error) {
	out := make([]string, n)
	if p.team == nil {
		if _, ok := p.behaviours["main"]; !ok {
			return nil, errors.New("btfile: the behaviour files define no team and no behaviour named main")
		}
		for i := range out {
			out[i] = "main"
		}
		return out, nil
	}
	next := 0
	restName := ""
	for _, e := range p.team.Entries {
		want := e.N
		switch e.Kind {
		case SelectRest:
			restName = e.Behaviour
			continue
		case SelectPercent:
			want = e.N * n / 100
			if e.N > 0 {
				want = max(want, 1)
			}
		}
		got := min(want, n-next)
		if e.Required && got < want {
			return nil, &Error{Pos: e.Pos, Msg: fmt.Sprintf("team %s: %s needs %d agents, only %d left of %d", p.team.Name, e.Behaviour, want, got, n)}
		}
		for range got {
			out[next] = e.Behaviour
			next++
		}
	}
	if next < n {
		if restName == "" {
			return nil, &Error{Pos: p.team.Pos, Msg: fmt.Sprintf("team %s: %d of %d agents get no behaviour; add an entry 'NAME: rest'", p.team.Name, n-next, n)}
		}
		for ; next < n; next++ {
			out[next] = restName
		}
	}
	return out, nil
}

// Summary describes an assignment compactly, e.g. "explorer×2 worker×8".
func Summary(assigned []string) string {
	var parts []string
	for i := 0; i < len(assigned); {
		j := i
		for j < len(assigned) && assigned[j] == assigned[i] {
			j++
		}
		parts = append(parts, fmt.Sprintf("%s×%d", assigned[i], j-i))
		i = j
	}
	return strings.Join(parts, " ")
}
