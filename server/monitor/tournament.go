package monitor

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/massim-go/massim/tournament"
)

// The tournament feed (/live/tournament) tells the page what happens
// between steps: who is connected and who is missing, which simulation
// comes next and when, whether the tournament is over. The server reports
// every change through tournament.StatusObserver.

var _ tournament.StatusObserver = (*Hub)(nil)

// tournamentMessage is one document of the tournament feed: the status as
// the admin API reports it, plus the server's clock, so that a page counts
// down to next.startsAt whatever its own clock says.
type tournamentMessage struct {
	tournament.Status
	Now time.Time `json:"now"`
	// League is the page of the league this match belongs to (massim
	// league -monitor), for the page's "the league goes on" link.
	League string `json:"league,omitempty"`
}

// tournamentSlot keeps the newest status. The server's calls only store it
// and wake the hub goroutine, which sends it; bursts of changes (a team of
// fifty agents logging in) collapse into one document.
type tournamentSlot struct {
	mu     sync.Mutex
	status *tournament.Status
	league string        // SetLeaguePage's URL
	wake   chan struct{} // capacity 1
}

// SetLeaguePage names the page of the league whose match this hub shows
// (massim match -league-page); every tournament document then carries it.
func (h *Hub) SetLeaguePage(url string) {
	h.tournament.mu.Lock()
	h.tournament.league = url
	h.tournament.mu.Unlock()
}

// TournamentStatusChanged implements tournament.StatusObserver; it never blocks.
func (h *Hub) TournamentStatusChanged(st tournament.Status) {
	h.tournament.mu.Lock()
	h.tournament.status = &st
	h.tournament.mu.Unlock()
	select {
	case h.tournament.wake <- struct{}{}:
	default:
	}
}

// tournamentDoc encodes the newest status with the current time; false
// before the server reported one.
func (h *Hub) tournamentDoc() ([]byte, bool) {
	h.tournament.mu.Lock()
	st, league := h.tournament.status, h.tournament.league
	h.tournament.mu.Unlock()
	if st == nil {
		return nil, false
	}
	data, err := json.Marshal(tournamentMessage{Status: *st, Now: time.Now().UTC(), League: league})
	if err != nil {
		h.log.Error().Err(err).Msg("monitor: encode tournament status")
		return nil, false
	}
	return data, true
}

// sendTournament sends the newest status to every viewer of the feed.
func (h *Hub) sendTournament(st *hubState) {
	if data, ok := h.tournamentDoc(); ok && len(st.tournament) > 0 {
		h.broadcast(st, st.tournament, h.prepare(data, websocket.TextMessage, false))
	}
}

// joinTournament gives a new viewer the current status, with the time of
// now (a copy of an older document would carry an old clock).
func (h *Hub) joinTournament(st *hubState, v *viewer) {
	st.tournament[v] = struct{}{}
	data, ok := h.tournamentDoc()
	if !ok {
		return
	}
	msg, err := websocket.NewPreparedMessage(websocket.TextMessage, data)
	if err != nil {
		h.log.Error().Err(err).Msg("monitor: prepare frame")
		return
	}
	v.push(frame{msg: msg})
}

// serveTournament answers GET /live/tournament.json.
func (h *Hub) serveTournament(w http.ResponseWriter, r *http.Request) {
	data, ok := h.tournamentDoc()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(data)
}
