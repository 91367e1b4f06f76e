package teamcmd_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/server/teamcmd"
)

func TestLogName_StaysInTheFolder(t *testing.T) {
	tests := []struct{ match, team, want string }{
		{"0", "A", "0-A.log"},
		{"007-A-B", "GOAL-DTU", "007-A-B-GOAL-DTU.log"},
		{"../x", "a/b c", ".._x-a_b_c.log"},
		{"m", "Ünï", "m-_n_.log"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, teamcmd.LogName(tt.match, tt.team))
	}
}
