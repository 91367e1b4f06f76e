package monitor_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"html"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// earlyScripts finds the script elements page.go puts into the page.
var earlyScripts = regexp.MustCompile(`(?s)<script id="massim-early-index" type="application/json">(.*?)</script>\s*<script id="massim-early-seg" type="text/plain" data-error="([^"]*)">([^<]*)</script>`)

func getBody(t *testing.T, url string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, url)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return body
}

func TestPage_ACompactReplayComesWithItsIndexAndFirstSegment(t *testing.T) {
	root := t.TempDir()
	id := filepath.Base(writeCompactReplay(t, root, 230))
	ts := startLibrary(t, root)

	page := getBody(t, ts.URL+"/?replay="+id+"#5")
	m := earlyScripts.FindSubmatch(page)
	require.NotNil(t, m, "the page carries the replay's index and segment 0")
	assert.Less(t, bytes.Index(page, m[0]), bytes.Index(page, []byte("window.massimEarly")), "before the early script")
	assert.JSONEq(t, string(getBody(t, ts.URL+"/replays/"+id+"/index.json")), string(m[1]), "the index as its endpoint serves it")
	assert.Empty(t, html.UnescapeString(string(m[2])), "no error")
	gz, err := base64.StdEncoding.DecodeString(string(m[3]))
	require.NoError(t, err)
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	require.NoError(t, err)
	raw, err := io.ReadAll(zr)
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodGet, ts.URL+"/replays/"+id+"/seg/0", nil)
	require.NoError(t, err)
	req.Header.Set("Accept-Encoding", "identity")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	want, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, want, raw, "segment 0 as its endpoint serves it")

	// Other pages, and replays it cannot open, are the page as it is.
	for _, url := range []string{ts.URL + "/", ts.URL + "/?library", ts.URL + "/?replay=nope"} {
		p := getBody(t, url)
		assert.False(t, earlyScripts.Match(p), "%s carries no replay data", url)
		assert.True(t, bytes.Contains(p, []byte(`<canvas id="map">`)), url)
	}
}

func TestPage_AnOfficialReplayIsLeftToThePage(t *testing.T) {
	ts := startLibrary(t, "../../replays/testdata/official")
	p := getBody(t, ts.URL+"/?replay=2000-01-01-12-00-00-946728000000_Alpha_Beta")
	assert.False(t, earlyScripts.Match(p), "an official replay's page carries no replay data")
	assert.True(t, bytes.Contains(p, []byte("window.massimEarly")))
}
