package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAccounts_CredentialSheetPerTeam(t *testing.T) {
	conf := tournamentConfig(t, t.TempDir(), 12345, []string{"A", "B"}, 5, []int{3, 2})
	const heading = ": agent port 12345 (TCP); simulations play with 3 or 2 agents, a simulation of n agents uses accounts 1 to n\n"
	tests := []struct {
		name   string
		args   []string
		want   string
		absent []string
	}{
		{"every team, passwords hidden", nil,
			"team A" + heading + "account  password\nagentA1  (hidden)\nagentA2  (hidden)\nagentA3  (hidden)\n\n" +
				"team B" + heading + "account  password\nagentB1  (hidden)\nagentB2  (hidden)\nagentB3  (hidden)\n",
			[]string{"pwA", "pwB"}},
		{"one team with its password", []string{"-team", "B", "-show-passwords"},
			"team B" + heading + "account  password\nagentB1  pwB\nagentB2  pwB\nagentB3  pwB\n",
			[]string{"agentA1", "pwA"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"accounts", "-conf", conf}, tc.args...), &stdout, &stderr)
			require.Equal(t, 0, code, stderr.String())
			assert.Equal(t, tc.want, stdout.String())
			for _, s := range tc.absent {
				assert.NotContains(t, stdout.String()+stderr.String(), s)
			}
		})
	}
}

func TestAccounts_UsageErrors(t *testing.T) {
	conf := tournamentConfig(t, t.TempDir(), 12345, []string{"A", "B"}, 5, []int{1})
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, run([]string{"accounts"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "need -conf FILE")
	assert.Equal(t, 2, run([]string{"accounts", "-conf", conf, "-team", "Z"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), `no team "Z" in the config (teams: A, B)`)
	assert.Equal(t, 2, run([]string{"accounts", "-conf", filepath.Join(t.TempDir(), "none.json")}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "cannot read config")
}
