package builder

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/btfile"
)

// readme returns clients/README.md.
func readme(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	return string(data)
}

func TestTheREADMEDocumentsEverySkillAndFunction(t *testing.T) {
	text := readme(t)
	r := Registry()
	for _, name := range r.Skills() {
		assert.True(t, strings.Contains(text, "`"+name), "skill %s is not in clients/README.md", name)
	}
	for _, name := range r.Funcs() {
		assert.True(t, strings.Contains(text, "`"+name+"("), "function %s is not in clients/README.md", name)
	}
}

func TestTheREADMEExampleLoadsAndAssignsATeam(t *testing.T) {
	text := readme(t)
	start := strings.Index(text, "A complete example")
	require.Positive(t, start)
	rest := text[start:]
	open := strings.Index(rest, "```\n") + len("```\n")
	end := strings.Index(rest[open:], "```")
	example := rest[open : open+end]
	prog, err := btfile.LoadSource("example.bt", []byte(example), Registry())
	require.NoError(t, err)
	got, err := prog.Assign(10)
	require.NoError(t, err)
	assert.Equal(t, "scout×2 worker×8", btfile.Summary(got))
}

func TestTheShippedTeamFileLoads(t *testing.T) {
	tm, err := New(Config{Count: 20})
	require.NoError(t, err)
	got, err := tm.Assignment(20)
	require.NoError(t, err)
	assert.Equal(t, "worker×20", got)
}

func TestBuilderSkillArgumentsAreCheckedAtLoadTime(t *testing.T) {
	tests := []struct{ src, want string }{
		{"behavior main { action adopt() }", `f.bt:1:17: skill adopt takes 1 arguments (role), got 0`},
		{"behavior main { action fetch(b0) }", `skill fetch takes 0 arguments (), got 1`},
		{"behavior main { action adopt(3) }", `skill adopt: argument role must be a string, got 3`},
		{"behavior main { condition known() }", "function known takes 1 arguments, got 0"},
	}
	for _, tt := range tests {
		_, err := btfile.LoadSource("f.bt", []byte(tt.src), Registry())
		require.Error(t, err, tt.src)
		assert.Contains(t, err.Error(), tt.want)
	}
}
