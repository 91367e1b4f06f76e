package teamcheck

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server/teamcmd"
)

// Precheck returns the obvious reason why team's command cannot start
// ("" when none is found): its dir is missing or not a folder, its program
// is not on the PATH (a name without "/"), not in its dir (a relative path
// with "/"), not a file, not executable, or — when sandboxed — not
// executable by the team's own user or in a folder the sandbox hides
// (hidden: the folders the sandbox hides besides its own, such as the
// working folder and the config's folders). A team in a container image
// is not looked into: its program is in the image.
func Precheck(team config.Team, sandboxed bool, hidden []string) string {
	if len(team.Command) == 0 {
		return "no command"
	}
	if team.Dir != "" {
		info, err := os.Stat(team.Dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Sprintf("dir %s does not exist", team.Dir)
		case err != nil:
			return fmt.Sprintf("dir %s: %v", team.Dir, err)
		case !info.IsDir():
			return fmt.Sprintf("dir %s is not a folder", team.Dir)
		}
	}
	if team.Image != "" {
		return ""
	}
	argv, _, err := teamcmd.Expand(team, teamcmd.Values{Host: "127.0.0.1", Port: 1, Team: team.Name, Prefix: team.Prefix,
		Password: team.Password, Agents: 1, Match: "check"})
	if err != nil {
		return err.Error()
	}
	prog := argv[0]
	var path string
	if strings.Contains(prog, "/") {
		path = prog
		if !filepath.IsAbs(path) {
			base := team.Dir
			if base == "" {
				base, _ = os.Getwd()
			}
			path = filepath.Join(base, prog)
		}
		if cause := executable(path, prog, sandboxed); cause != "" {
			if errors.Is(statErr(path), fs.ErrNotExist) && team.Dir != "" && !filepath.IsAbs(prog) {
				return fmt.Sprintf("program %s not found in dir %s", prog, team.Dir)
			}
			return cause
		}
	} else {
		var cause string
		if path, cause = onPath(prog, searchPath(team), sandboxed); cause != "" {
			if team.Dir != "" && statErr(filepath.Join(team.Dir, prog)) == nil {
				cause += fmt.Sprintf(" (dir %s holds one: write ./%s)", team.Dir, prog)
			}
			return cause
		}
	}
	if sandboxed && path != teamcmd.Massim() { // {massim} is shown to the team wherever it lies
		if folder := hiddenFolder(path, team.Dir, hidden); folder != "" {
			return fmt.Sprintf("program %s lies in %s, which the team's sandbox hides (install it elsewhere, e.g. /usr/local/bin, or put it in the team's dir)", path, folder)
		}
	}
	return ""
}

// searchPath is the PATH the command is looked up on: the team's env's,
// else the server's.
func searchPath(team config.Team) string {
	if p, ok := team.Env["PATH"]; ok {
		return p
	}
	return os.Getenv("PATH")
}

// onPath finds prog on the PATH as exec does, and says why not when it is
// not there.
func onPath(prog, pathList string, sandboxed bool) (string, string) {
	var notExecutable string
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, prog)
		info, err := os.Stat(p)
		if err != nil || info.IsDir() {
			continue
		}
		cause := executable(p, p, sandboxed)
		if cause == "" {
			return p, ""
		}
		if notExecutable == "" {
			notExecutable = cause
		}
	}
	if notExecutable != "" {
		return "", fmt.Sprintf("program %s: the one on the PATH is not executable: %s", prog, notExecutable)
	}
	return "", fmt.Sprintf("program %s not found on the PATH", prog)
}

// executable says why path cannot be run ("" when it can): missing, a
// folder, no execute permission (for a sandboxed team: for others, the
// team's user being one of its own).
func executable(path, name string, sandboxed bool) string {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("program %s not found", name)
	case err != nil:
		return fmt.Sprintf("program %s: %v", name, err)
	case info.IsDir():
		return fmt.Sprintf("program %s is a folder", name)
	case info.Mode()&0o111 == 0:
		return fmt.Sprintf("program %s is not executable (chmod +x %s)", name, path)
	case sandboxed && info.Mode()&0o005 != 0o005:
		return fmt.Sprintf("program %s is not executable by the team's own user in its sandbox (chmod o+rx %s)", name, path)
	}
	return ""
}

func statErr(path string) error {
	_, err := os.Stat(path)
	return err
}

// alwaysHidden are the folders every sandbox hides or replaces
// (docs/untrusted-teams.md): a program in them is not there for the team.
var alwaysHidden = []string{"/run", "/home", "/root", "/tmp"}

// hiddenFolder returns the folder of hidden (or always hidden) that path
// lies in, "" when none, or when it lies in the team's own dir (shown).
func hiddenFolder(path, dir string, hidden []string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		real = path
	}
	if dir != "" && within(real, dir) {
		return ""
	}
	for _, h := range append(append([]string(nil), hidden...), alwaysHidden...) {
		if h != "" && h != "/" && within(real, h) {
			return h
		}
	}
	return ""
}

func within(path, folder string) bool {
	rel, err := filepath.Rel(folder, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
