package container

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// aptScript runs a function of scripts/install/aptsources.sh on a sample
// root and returns its output and whether it succeeded.
func aptScript(t *testing.T, call, root string, args ...string) (string, bool) {
	t.Helper()
	script, err := filepath.Abs("../../scripts/install/aptsources.sh")
	require.NoError(t, err)
	cmd := exec.Command("bash", append([]string{"-c", `set -eu; . "$0"; ` + call + ` "$@"`, script}, args...)...)
	out, err := cmd.Output()
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		t.Fatalf("bash: %v", err)
	}
	return strings.TrimSpace(string(out)), err == nil
}

// sampleRoot writes files (path under the root → content) into a new root.
func sampleRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		path := filepath.Join(root, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
	return root
}

// TestAptMirrorIsTheMachinesOwn checks how podman.sh finds the mirror for
// debootstrap in a machine's apt sources, in both formats.
func TestAptMirrorIsTheMachinesOwn(t *testing.T) {
	const list, dir = "etc/apt/sources.list", "etc/apt/sources.list.d/"
	const security = "Types: deb\nURIs: http://mirror.test/debian-security\nSuites: bookworm-security\nComponents: main\n"
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string // "" when there is none
	}{
		{"deb822, as Debian installs it", map[string]string{
			dir + "debian.sources": security + "\nTypes: deb\n# a comment\nURIs: http://mirror.test/debian\nSuites: bookworm bookworm-updates\nComponents: main\n" +
				"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n",
		}, "http://mirror.test/debian"},
		{"one-line sources.list with options and comments", map[string]string{
			list: "# deb http://old.test/debian bookworm main\ndeb-src http://src.test/debian bookworm main\n" +
				"deb [arch=amd64 signed-by=/k.gpg] https://mirror.test/debian bookworm main # the mirror\n",
		}, "https://mirror.test/debian"},
		{"options without spaces around them", map[string]string{
			list: "deb[ trusted=yes ]file:/srv/mirror bookworm main\n",
		}, "file:/srv/mirror"},
		{"sources.list comes before sources.list.d", map[string]string{
			list:                  "deb http://first.test/debian bookworm main\n",
			dir + "a.sources":     "Types: deb\nURIs: http://second.test/debian\nSuites: bookworm\n",
			dir + "00-early.list": "deb http://third.test/debian bookworm main\n",
		}, "http://first.test/debian"},
		{"sources.list.d by name, both formats", map[string]string{
			dir + "b.list":    "deb http://b.test/debian bookworm main\n",
			dir + "a.sources": "Types: deb\nURIs: http://a.test/debian\nSuites: bookworm\n",
		}, "http://a.test/debian"},
		{"keys in any case, values on indented lines", map[string]string{
			dir + "debian.sources": "types: deb-src deb\nuris:\n http://mirror.test/debian\nSUITES: bookworm-updates\n  bookworm\n",
		}, "http://mirror.test/debian"},
		{"a paragraph turned off, deb-src only, another suite", map[string]string{
			dir + "debian.sources": "Types: deb\nURIs: http://off.test/debian\nSuites: bookworm\nEnabled: no\n\n" +
				"Types: deb-src\nURIs: http://src.test/debian\nSuites: bookworm\n\n" + security + "\n" +
				"Types: deb\nURIs: http://on.test/debian\nSuites: bookworm\nEnabled: yes\n",
		}, "http://on.test/debian"},
		{"files apt does not read", map[string]string{
			dir + "debian.sources.disabled": "Types: deb\nURIs: http://off.test/debian\nSuites: bookworm\n",
			dir + "debian.list.save":        "deb http://off.test/debian bookworm main\n",
		}, ""},
		{"URIs debootstrap cannot use", map[string]string{
			list:                   "deb cdrom:[Debian GNU/Linux 12]/ bookworm main\n",
			dir + "debian.sources": "Types: deb\nURIs: mirror+file:/etc/apt/mirrors.txt http://second.test/debian\nSuites: bookworm\n",
		}, "http://second.test/debian"},
		{"a suite's name inside another's", map[string]string{
			list: "deb https://packages.test/apt cloud-sdk-bookworm main\ndeb http://mirror.test/debian bookworm-backports main\n",
		}, ""},
		{"no apt sources at all", map[string]string{}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := aptScript(t, "apt_mirror", "", "bookworm", sampleRoot(t, c.files))
			assert.Equal(t, c.want != "", ok, "found a mirror")
			assert.Equal(t, c.want, got)
		})
	}
}

func TestAptSuiteIsTheMachinesRelease(t *testing.T) {
	root := sampleRoot(t, map[string]string{"etc/os-release": "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nVERSION_CODENAME=bookworm\nID=debian\n"})
	got, ok := aptScript(t, "apt_suite", "", root)
	assert.True(t, ok)
	assert.Equal(t, "bookworm", got)

	for _, files := range []map[string]string{{"etc/os-release": "ID=debian\n"}, {}} {
		got, ok = aptScript(t, "apt_suite", "", sampleRoot(t, files))
		assert.False(t, ok, "no code name: %q", got)
	}
}
