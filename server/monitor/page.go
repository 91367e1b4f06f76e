package monitor

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"strings"

	"github.com/massim-go/massim/server/monitor/web"
)

// earlyMarker is the place in index.html where a replay's index and first
// segment go when the page is served with them.
const earlyMarker = "<!-- early data -->"

// servePage answers GET / with the page. Opened on a compact replay
// (/?replay=ID), the page carries that replay's index and its first segment
// (gzip, base64) in two script elements before index.html's early script,
// which then takes them instead of asking for them: the first frame waits
// for no request but the page's script and styles. The part of the page
// before them goes out first: it names the script and the styles, so the
// browser loads those while a replay not open yet is read. Official replay
// folders get the page as it is (their index may take long to compute the
// first time; the page asks for it itself), and so does any replay the
// library cannot open.
func (l *Library) servePage(w http.ResponseWriter, r *http.Request) {
	page, err := fs.ReadFile(web.FS, "index.html")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	head, tail, found := bytes.Cut(page, []byte(earlyMarker))
	q := r.URL.Query()
	if !found || !q.Has("replay") {
		_, _ = w.Write(page)
		return
	}
	_, _ = w.Write(head)
	_ = http.NewResponseController(w).Flush() // a writer that cannot flush sends it all at the end
	_, _ = w.Write(l.earlyData(q.Get("replay")))
	_, _ = w.Write(tail)
}

// earlyData is the script elements with replay id's index (as
// /replays/{id}/index.json) and segment 0 (as /replays/{id}/seg/0, gzip),
// or nil when the replay is not a compact one the library can open.
func (l *Library) earlyData(id string) []byte {
	src, f, err := l.source(id)
	if err != nil || f.format != "compact" {
		return nil
	}
	idx, err := src.index()
	if err != nil {
		return nil
	}
	idx.ID = f.id
	doc, err := json.Marshal(idx) // escapes <, > and &: safe inside a script element
	if err != nil {
		return nil
	}
	return earlyElements(doc, src.segment(0))
}

// earlyElements is the script elements of an index document and a segment.
func earlyElements(doc []byte, seg *segmentBody) []byte {
	var b bytes.Buffer
	b.WriteString(`<script id="massim-early-index" type="application/json">`)
	b.Write(doc)
	b.WriteString("</script>\n")
	// The error travels as the segment's X-Replay-Error header would.
	fmt.Fprintf(&b, `<script id="massim-early-seg" type="text/plain" data-error="%s">`,
		html.EscapeString(strings.ReplaceAll(seg.err, "\n", " ")))
	b.WriteString(base64.StdEncoding.EncodeToString(seg.gz))
	b.WriteString("</script>")
	return b.Bytes()
}
