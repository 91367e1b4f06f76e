package browsertest_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/internal/browsertest"
)

// TestPage_SeesWhatIsDisplayedAndCollectsErrors checks the helpers on a
// small page: an element hidden by the attribute but displayed by a style
// rule counts as shown (the trap the attribute alone hides), exceptions and
// console errors are collected, a condition that becomes true is awaited.
func TestPage_SeesWhatIsDisplayedAndCollectsErrors(t *testing.T) {
	page := browsertest.Open(t)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!doctype html><style>#grid { display: grid; width: 50px; height: 20px }</style>
<div id="grid" hidden>overridden</div><div id="gone" hidden>hidden</div>
<div id="far" style="position: absolute; left: -500px; width: 50px">off screen</div>
<div id="covered" style="position: absolute; left: 0; top: 100px; width: 40px; height: 40px">under</div>
<div id="cover" style="position: absolute; left: 0; top: 90px; width: 80px; height: 80px; background: red"></div>
<script>setTimeout(() => (window.ready = 42), 50); console.error("bad thing"); throw new Error("boom");</script>`))
	}))
	t.Cleanup(ts.Close)

	page.Navigate(ts.URL)
	page.Wait(`window.ready === 42`)
	assert.True(t, page.Box("#grid").Shown, "display: grid beats the hidden attribute")
	assert.Equal(t, "grid", page.Box("#grid").Display)
	assert.False(t, page.Box("#gone").Shown)
	assert.False(t, page.Box("#far").Shown, "outside the viewport")
	assert.False(t, page.Box("#nothing").Found)
	assert.Equal(t, 50.0, page.Box("#grid").Width)
	var covered, cover bool
	page.Eval(`__topmost("#covered")`, &covered)
	page.Eval(`__topmost("#cover")`, &cover)
	assert.False(t, covered)
	assert.True(t, cover)
	errs := page.Errors()
	if assert.Len(t, errs, 2) {
		assert.Contains(t, errs[0], "bad thing")
		assert.Contains(t, errs[1], "boom")
	}
}
