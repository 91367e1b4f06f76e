package monitor

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/gorilla/websocket"

	"github.com/massim-go/massim/server/monitor/web"
)

// Routes is what Mount serves. Either part may be nil.
type Routes struct {
	Hub     *Hub     // live feeds and history
	Replays *Library // replay folders
}

// Mount registers the monitor on mux:
//
//	GET /                           the page (index.html, status.html, modules, styles);
//	                                /?replay=ID of a compact replay carries its index and first segment (page.go)
//	GET /js/bundle.js               the page's modules as one script (web/bundle.go)
//	GET /info.json                  {"live": bool, "replays": bool}
//	GET /live/frames                websocket: the running simulation as step records (binary)
//	GET /live/monitor               websocket: static worlds and snapshots, as the official server
//	GET /live/status                websocket: status messages, as the official server
//	GET /live/tournament            websocket: the tournament's status at every change (tournament.go)
//	GET /live/tournament.json       the same, once
//	GET /live/history/index.json    the running simulation's index (as a replay's)
//	GET /live/history/seg/{g}       its segment g: step records
//	GET /live/history/step/{s}      its step s alone, as a keyframe (step.go)
//	GET /replays/index.json         the replays on disk, both formats
//	GET /replays/{id}/index.json    one replay's index: static world, steps, gaps, scores
//	GET /replays/{id}/seg/{g}       its segment g: step records (official replays converted)
//	GET /replays/{id}/step/{s}      its step s alone, as a keyframe (step.go)
//	GET /replays/{id}/segments      all its segments in one answer (compact replays; source.go, packSegments)
//	GET /replays/{id}/percept/{agent}/{step}  what the agent perceived at the step, rebuilt (compact replays; percept.go)
//	GET /replays/{id}/{file}        static.json and group files of official replay folders
//
// The history and replay routes share their layout, so the page reads a live
// simulation's past exactly like a replay (docs/replays.md, "Our monitor's
// own endpoints").
func Mount(mux *http.ServeMux, r Routes) {
	mux.Handle("GET /", http.FileServerFS(web.FS))
	mux.HandleFunc("GET /js/bundle.js", web.ServeBundle)
	mux.HandleFunc("GET /info.json", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, map[string]bool{"live": r.Hub != nil, "replays": r.Replays != nil})
	})
	if h := r.Hub; h != nil {
		mux.HandleFunc("GET /live/frames", h.serveFeed(feedFrames))
		mux.HandleFunc("GET /live/monitor", h.serveFeed(feedMonitor))
		mux.HandleFunc("GET /live/status", h.serveFeed(feedStatus))
		mux.HandleFunc("GET /live/tournament", h.serveFeed(feedTournament))
		mux.HandleFunc("GET /live/tournament.json", h.serveTournament)
		mux.HandleFunc("GET /live/history/index.json", h.serveHistoryIndex)
		mux.HandleFunc("GET /live/history/seg/{g}", h.serveHistorySegment)
		mux.HandleFunc("GET /live/history/step/{s}", h.serveHistoryStep)
	}
	if l := r.Replays; l != nil {
		mux.HandleFunc("GET /{$}", l.servePage)
		mux.HandleFunc("GET /replays/index.json", l.serveIndex)
		mux.HandleFunc("GET /replays/{id}/seg/{g}", l.serveSegment)
		mux.HandleFunc("GET /replays/{id}/step/{s}", l.serveStep)
		mux.HandleFunc("GET /replays/{id}/segments", l.serveSegments)
		mux.HandleFunc("GET /replays/{id}/percept/{agent}/{step}", l.servePercept)
		mux.HandleFunc("GET /replays/{id}/{file}", l.serveFile)
	}
}

var upgrader = websocket.Upgrader{
	ReadBufferSize: 512,
	// Idle viewers hold no write buffer: frames are prepared messages.
	WriteBufferPool: &sync.Pool{},
	// permessage-deflate when the browser offers it; a prepared message is
	// compressed once for every viewer that negotiated it.
	EnableCompression: true,
	// The feeds are public and read-only, like the official server's; pages
	// served from elsewhere (relays, other monitors) may connect.
	CheckOrigin: func(*http.Request) bool { return true },
}

// serveFeed upgrades to a websocket viewer of one feed.
func (h *Hub) serveFeed(f feed) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		conn, err := upgrader.Upgrade(w, r, nil)
		if err != nil {
			return // the upgrader has answered the request
		}
		limit := h.opts.ViewerQueue
		if f == feedStatus || f == feedTournament {
			limit = 1 // only the newest status matters
		}
		v := newViewer(conn, f, limit)
		select {
		case h.joins <- v:
		case <-h.done:
			_ = conn.Close()
			return
		}
		go v.readLoop(h.opts.PingEvery * 5 / 2)
		v.writeLoop(h.opts.WriteTimeout, h.opts.PingEvery)
		select {
		case h.leaves <- v:
		case <-h.done:
		}
	}
}

// historyOf is the history of the simulation the request names (?sim=,
// none: whichever it holds); a 404 when it holds another one.
func (h *Hub) historyOf(w http.ResponseWriter, r *http.Request) (replaySource, bool) {
	w.Header().Set("Cache-Control", "no-store")
	src, ok := h.history.forSim(r.URL.Query().Get("sim"))
	if !ok {
		http.NotFound(w, r)
	}
	return src, ok
}

func (h *Hub) serveHistoryIndex(w http.ResponseWriter, r *http.Request) {
	if src, ok := h.historyOf(w, r); ok {
		idx, _ := src.index() // the history's index never fails
		writeJSON(w, idx)
	}
}

func (h *Hub) serveHistorySegment(w http.ResponseWriter, r *http.Request) {
	g, ok := parseSegment(r.PathValue("g"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	if src, ok := h.historyOf(w, r); ok {
		src.segment(g).serve(w, r)
	}
}

// groupOfFile recognises "<5k>.json".
func groupOfFile(name string) (int, bool) {
	num, ok := strings.CutSuffix(name, ".json")
	if !ok || num == "" || (len(num) > 1 && num[0] == '0') {
		return 0, false
	}
	g, err := strconv.Atoi(num)
	if err != nil || g < 0 || g%5 != 0 {
		return 0, false
	}
	return g, true
}

func writeJSON(w http.ResponseWriter, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(data)
}
