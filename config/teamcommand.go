package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// TeamPlaceholders are the names a team command and its env values may use
// as {name} (docs/config.md, "Team commands"): the server fills them in for
// each match.
var TeamPlaceholders = []string{"host", "port", "team", "prefix", "password", "agents", "match"}

// ProgramPlaceholder is {massim}: the path of the running massim binary,
// so that a team command can run our sample agents ({massim} agents …)
// without massim on the PATH. It has no MASSIM_* variable.
const ProgramPlaceholder = "massim"

// knownPlaceholders lists every placeholder name for error messages.
func knownPlaceholders() string {
	return "{" + strings.Join(append(slices.Clone(TeamPlaceholders), ProgramPlaceholder), "} {") + "}"
}

// UsesPlaceholder reports whether a team's command or env uses {name}.
func (t Team) UsesPlaceholder(name string) bool {
	uses := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if strings.HasPrefix(s[i:], "{{") || strings.HasPrefix(s[i:], "}}") {
				i++
				continue
			}
			if s[i] == '{' {
				if n, ok := placeholderAt(s[i:]); ok && n == name {
					return true
				}
			}
		}
		return false
	}
	for _, a := range t.Command {
		if uses(a) {
			return true
		}
	}
	for _, v := range t.Env {
		if uses(v) {
			return true
		}
	}
	return false
}

// ExpandPlaceholders replaces every {name} of s by values[name]; "{{" and
// "}}" stand for a literal brace. A brace that does not start a placeholder
// ("{" followed by anything but letters and "}") is kept as it is, so JSON
// or shell-like text passes through. A name missing from values is an error.
func ExpandPlaceholders(s string, values map[string]string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{' && strings.HasPrefix(s[i:], "{{"), c == '}' && strings.HasPrefix(s[i:], "}}"):
			b.WriteByte(c)
			i++
		case c == '{':
			name, ok := placeholderAt(s[i:])
			if !ok {
				b.WriteByte(c)
				continue
			}
			v, known := values[name]
			if !known {
				return "", fmt.Errorf("unknown placeholder {%s} (known: %s)", name, knownPlaceholders())
			}
			b.WriteString(v)
			i += len(name) + 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// placeholderAt returns the name of the placeholder s starts with: "{",
// letters, "}".
func placeholderAt(s string) (string, bool) {
	end := strings.IndexByte(s, '}')
	if end < 2 {
		return "", false
	}
	name := s[1:end]
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "", false
		}
	}
	return name, true
}

// placeholderCheck maps every placeholder to itself: expanding with it
// finds the unknown ones at load.
func placeholderCheck() map[string]string {
	m := make(map[string]string, len(TeamPlaceholders)+1)
	for _, p := range TeamPlaceholders {
		m[p] = p
	}
	m[ProgramPlaceholder] = ProgramPlaceholder
	return m
}

// readTeamCommand reads the massim-go keys "command", "dir", "env" and "image" of a
// team entry (docs/config.md, "Team commands"). "dir" is relative to the
// file that holds it.
func readTeamCommand(r *report, entry *object, team *Team, res resolver) {
	check := placeholderCheck()
	if n := entry.opt("command"); n != nil {
		path := entry.keyPath("command")
		if elems, ok := r.arrayValue(n, path); ok {
			if len(elems) == 0 {
				r.fail(n.file, path, "must name a program (a non-empty array of strings)")
			}
			for i, el := range elems {
				arg, ok := r.stringValue(el, indexPath(path, i))
				if !ok {
					continue
				}
				if _, err := ExpandPlaceholders(arg, check); err != nil {
					r.fail(el.file, indexPath(path, i), "%v", err)
				}
				team.Command = append(team.Command, arg)
			}
			if len(elems) > 0 && team.Command[0] == "" {
				r.fail(n.file, indexPath(path, 0), "the program must not be empty")
			}
		}
	}
	if n := entry.opt("dir"); n != nil {
		path := entry.keyPath("dir")
		if dir, ok := r.stringValue(n, path); ok {
			if dir == "" {
				r.fail(n.file, path, "must not be empty (leave it out for the server's working folder)")
			} else {
				team.Dir = res.folderNamedIn(n.file, dir)
			}
		}
	}
	if n := entry.opt("env"); n != nil {
		team.Env = readTeamEnv(r, n, entry.keyPath("env"), check)
	}
	if n := entry.opt("image"); n != nil {
		if image, ok := r.stringValue(n, entry.keyPath("image")); ok {
			if image == "" || strings.HasPrefix(image, "-") {
				r.fail(n.file, entry.keyPath("image"), "must name a local image (podman images)")
			}
			team.Image = image
		}
	}
	if team.Command == nil && (team.Dir != "" || team.Env != nil || team.Image != "") {
		r.fail(entry.file(), entry.keyPath("command"), "is required with \"dir\", \"env\" or \"image\"")
	}
}

// readTeamEnv reads the "env" object: names to string values, which may use
// placeholders.
func readTeamEnv(r *report, n *node, path string, check map[string]string) map[string]string {
	if n.kind != kindObject {
		r.fail(n.file, path, "must be an object of strings, not %s", n.kind)
		return nil
	}
	env := make(map[string]string, len(n.members))
	for _, m := range n.members {
		p := keyPath(path, m.key)
		if m.key == "" || strings.ContainsAny(m.key, "=\x00") {
			r.fail(m.value.file, p, "is not a valid variable name")
			continue
		}
		v, ok := r.stringValue(m.value, p)
		if !ok {
			continue
		}
		if _, err := ExpandPlaceholders(v, check); err != nil {
			r.fail(m.value.file, p, "%v", err)
		}
		env[m.key] = v
	}
	return env
}

// folderNamedIn resolves dir against the folder of file, the config file
// naming it. On the OS the result is absolute; in an fs.FS (LoadFS) it is
// a path of that FS.
func (res resolver) folderNamedIn(file, dir string) string {
	if _, onOS := res.src.(osSource); !onOS {
		return res.src.join(res.src.dir(file), dir)
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(file), dir)
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return filepath.Clean(dir)
}
