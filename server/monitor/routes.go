package monitor

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

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
//	GET /                          the page (index.html, status.html, modules, styles)
//	GET /info.json                 {"live": bool, "replays": bool}
//	GET /live/monitor              websocket, docs/replays.md, "/live/monitor"
//	GET /live/status               websocket, docs/replays.md, "/live/status"
//	GET /live/tournament           websocket: the tournament's status at every change (tournament.go)
//	GET /live/tournament.json      the same, once
//	GET /live/history/index.json   the running simulation: sim, teams, steps, last step
//	GET /live/history/static.json  its static world
//	GET /live/history/{g}.json     its group of five steps (official group layout)
//	GET /live/history/scores.json  its scores per step
//	GET /replays/index.json        the replay folders
//	GET /replays/{id}/...          index.json, static.json, {g}.json, scores.json of one replay
//
// The history and replay routes share file names so the page reads a live
// simulation's past exactly like a replay folder.
func Mount(mux *http.ServeMux, r Routes) {
	mux.Handle("GET /", http.FileServerFS(web.FS))
	mux.HandleFunc("GET /info.json", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, map[string]bool{"live": r.Hub != nil, "replays": r.Replays != nil})
	})
	if h := r.Hub; h != nil {
		mux.HandleFunc("GET /live/monitor", h.serveFeed(feedMonitor))
		mux.HandleFunc("GET /live/status", h.serveFeed(feedStatus))
		mux.HandleFunc("GET /live/tournament", h.serveFeed(feedTournament))
		mux.HandleFunc("GET /live/tournament.json", h.serveTournament)
		mux.HandleFunc("GET /live/history/{file}", h.serveHistory)
	}
	if l := r.Replays; l != nil {
		mux.HandleFunc("GET /replays/index.json", l.serveIndex)
		mux.HandleFunc("GET /replays/{id}/{file}", l.serveFile)
	}
}

var upgrader = websocket.Upgrader{
	ReadBufferSize: 512,
	// Idle viewers hold no write buffer: frames are prepared messages.
	WriteBufferPool: &sync.Pool{},
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

func (h *Hub) serveHistory(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	switch file := r.PathValue("file"); file {
	case "index.json":
		if idx, ok := h.history.index(); ok {
			writeJSON(w, idx)
			return
		}
	case "static.json":
		if doc, _, ok := h.history.staticDoc(); ok {
			writeBytes(w, r, doc, false)
			return
		}
	case "scores.json":
		if doc, ok := h.history.scoresDoc(); ok {
			writeJSON(w, doc)
			return
		}
	default:
		if g, ok := groupOfFile(file); ok {
			if doc, gz, ok := h.history.groupDoc(r.URL.Query().Get("sim"), g); ok {
				writeBytes(w, r, doc, gz)
				return
			}
		}
	}
	http.NotFound(w, r)
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

// writeBytes sends a JSON document, compressed or not; a compressed one is
// inflated for the rare client that does not accept gzip.
func writeBytes(w http.ResponseWriter, r *http.Request, doc []byte, gz bool) {
	w.Header().Set("Content-Type", "application/json")
	if gz {
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Set("Vary", "Accept-Encoding")
		} else {
			zr, err := gzip.NewReader(bytes.NewReader(doc))
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			_, _ = io.Copy(w, zr)
			return
		}
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(doc))
}
