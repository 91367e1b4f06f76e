package sandbox

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestViewOps_TheDeeperPathWins(t *testing.T) {
	spec := Spec{
		Hide: []string{"/srv/course", "/srv/course/league.json", "/srv/course/teams/b", "/", "/usr", "relative"},
		Show: []string{"/srv/course/teams/a", "/"},
	}
	var got []string
	for _, op := range viewOps(spec) {
		what := "show "
		if op.hide {
			what = "hide "
		}
		got = append(got, what+op.path)
	}
	assert.Equal(t, []string{
		"hide /run", "hide /home", "hide /root", // the machine's services and users
		"hide /srv/course",
		"show /home/team",                                          // the scratch home, in the hidden /home
		"hide /srv/course/league.json", "hide /srv/course/teams/b", // secrets in a shown folder stay hidden
		"show /srv/course/teams/a", // the team's dir, in the hidden course folder
	}, got, "never / or the system; never a relative path")
}

func TestLimits_String(t *testing.T) {
	assert.Equal(t, "1 CPU, 2 GiB memory, 1024 processes, 512 MiB scratch, 4096 open files",
		Limits{CPUs: 1, Memory: 2 << 30, Processes: 1024, Scratch: 512 << 20, OpenFiles: 4096}.String())
	assert.Equal(t, "0.5 CPUs, 1000 bytes memory, 16 processes, 1 MiB scratch, 64 open files",
		Limits{CPUs: 0.5, Memory: 1000, Processes: 16, Scratch: 1 << 20, OpenFiles: 64}.String())
}

func TestBaseEnv_OnlyWhereProgramsAreAndTheLanguage(t *testing.T) {
	got := BaseEnv([]string{"PATH=/usr/bin", "MASSIM_ADMIN_TOKEN=x", "AWS_SECRET_ACCESS_KEY=y", "LANG=C.UTF-8", "LC_ALL=C", "TZ=UTC", "HOME=/root"})
	assert.Equal(t, []string{"PATH=/usr/bin", "LANG=C.UTF-8", "LC_ALL=C", "TZ=UTC", "HOME=/home/team", "TMPDIR=/tmp", "USER=team", "LOGNAME=team"}, got)
}
