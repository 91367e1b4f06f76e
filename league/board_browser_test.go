package league

import (
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/internal/browsertest"
)

// What a teacher sees on the league's page (-monitor) in a browser: each
// match with a forfeit or a team short of agents says so in its row, in
// colour, with the reason; the standings have the forfeits column.
func TestBoard_ShowsForfeitsInTheBrowser(t *testing.T) {
	p, merged := leagueWithAbsences(t, t.TempDir())
	srv := httptest.NewServer(boardOf(p, merged))
	defer srv.Close()
	page := browsertest.Open(t)
	page.Navigate(srv.URL + "/")
	page.Wait(`document.querySelectorAll("table")[0].rows.length === 4`)
	row := func(i int) string {
		return page.Text(`document.querySelectorAll("table")[0].rows[` + string(rune('0'+i)) + `].innerText`)
	}
	assert.Contains(t, row(1), `finished forfeit: B forfeited (program not found: "nosuch" is not on the PATH)`)
	assert.Contains(t, row(2), "finished agents missing: C played with 1 of 2 agents (never connected: agentC2)")
	assert.Contains(t, row(3), "forfeit: B forfeited (x); C forfeited (none of its 2 agents connected)")
	assert.Equal(t, "rgb(187, 0, 0)", page.Text(`getComputedStyle(document.querySelector(".absent")).color`), "a forfeit is red")
	assert.Equal(t, "rgb(170, 102, 0)", page.Text(`getComputedStyle(document.querySelector(".partial")).color`), "agents missing: orange")
	standings := `document.querySelectorAll("table")[1]`
	assert.Equal(t, "forfeits", page.Text(standings+`.rows[0].cells[8].innerText`))
	for i := 1; i <= 3; i++ {
		r := standings + `.rows[` + string(rune('0'+i)) + `]`
		want := map[string]string{"A": "0", "B": "2", "C": "1"}[page.Text(r+`.cells[1].innerText`)]
		assert.Equal(t, want, page.Text(r+`.cells[8].innerText`), "forfeits of %s", page.Text(r+`.cells[1].innerText`))
	}
	assert.Empty(t, page.Errors())
}
