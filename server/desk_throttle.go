package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/protocol"
)

// Login throttling (docs/operations.md, "Failed logins"): after
// throttleFree failed logins in a row from one remote address for one
// account, every further attempt from there for that account waits for
// its turn; turns are spaced by a delay that doubles with each failure,
// from throttleBase up to throttleMax. A success clears the record. The
// wait happens on the connection's own goroutine: other agents, other
// accounts and other addresses are never slowed. Unknown user names share
// one record per address.
const (
	throttleFree    = 5
	throttleBase    = 500 * time.Millisecond
	throttleMax     = 30 * time.Second
	throttleForget  = 10 * time.Minute // a record quiet this long is dropped
	throttleEntries = 10000            // records kept at most (memory bound)
)

type throttleKey struct{ addr, user string }

type throttleRecord struct {
	failures int
	next     time.Time // the earliest moment of the next attempt's check
	last     time.Time // of the latest failure
	logged   bool      // the throttling of this record was logged
}

// loginThrottle holds the failure records; safe for concurrent use.
type loginThrottle struct {
	mu      sync.Mutex
	records map[throttleKey]*throttleRecord
	failed  atomic.Int64 // failed logins, for /metrics
}

// delay is the spacing of attempts after failures failed ones.
func throttleDelay(failures int) time.Duration {
	if failures < throttleFree {
		return 0
	}
	d := throttleBase << min(failures-throttleFree, 16)
	return min(d, throttleMax)
}

// remoteHost is whom failed logins are counted for: the IP of a remote
// address, for IPv6 its /64 network (one host usually has a whole /64, and
// could otherwise start afresh from each of its addresses).
func remoteHost(a net.Addr) string {
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	ip := net.ParseIP(host)
	switch {
	case ip == nil:
		return host
	case ip.To4() != nil:
		return ip.To4().String() // also for IPv4 mapped into IPv6
	}
	return (&net.IPNet{IP: ip.Mask(net.CIDRMask(64, 128)), Mask: net.CIDRMask(64, 128)}).String()
}

// admit reserves the next turn of key and says how long the caller must
// wait for it. A turn further away than limit is not reserved: ok is false,
// and the caller refuses the login without checking it.
func (t *loginThrottle) admit(key throttleKey, now time.Time, limit time.Duration) (wait time.Duration, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := t.records[key]
	if r == nil || r.failures < throttleFree {
		return 0, true
	}
	turn := r.next
	if turn.Before(now) {
		turn = now
	}
	if turn.Sub(now) > limit {
		return turn.Sub(now), false
	}
	r.next = turn.Add(throttleDelay(r.failures))
	return turn.Sub(now), true
}

// result records the outcome of a checked login: the failures in a row
// of key so far, and whether key has just become throttled (to be logged,
// once per record).
func (t *loginThrottle) result(key throttleKey, ok bool, now time.Time) (failures int, startsThrottling bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if ok {
		delete(t.records, key)
		return 0, false
	}
	t.failed.Add(1)
	if t.records == nil {
		t.records = make(map[throttleKey]*throttleRecord)
	}
	r := t.records[key]
	if r == nil {
		t.makeRoom(now)
		r = &throttleRecord{}
		t.records[key] = r
	}
	r.failures++
	r.last = now
	if d := throttleDelay(r.failures); d > 0 && r.next.Before(now.Add(d)) {
		r.next = now.Add(d)
	}
	if r.failures >= throttleFree && !r.logged {
		r.logged = true
		return r.failures, true
	}
	return r.failures, false
}

// makeRoom drops quiet records when the table is full, and then the
// oldest, so that a flood from many addresses cannot grow it without bound.
func (t *loginThrottle) makeRoom(now time.Time) {
	if len(t.records) < throttleEntries {
		return
	}
	var oldest throttleKey
	var oldestAt time.Time
	for k, r := range t.records {
		if now.Sub(r.last) > throttleForget {
			delete(t.records, k)
			continue
		}
		if oldestAt.IsZero() || r.last.Before(oldestAt) {
			oldest, oldestAt = k, r.last
		}
	}
	if len(t.records) >= throttleEntries {
		delete(t.records, oldest)
	}
}

// checkLogin checks an auth-request's credentials (acc nil: unknown user)
// after the throttle's turn for its address and account, and records the
// outcome.
func (s *Server) checkLogin(conn net.Conn, req protocol.AuthRequest, acc *account) bool {
	var password string
	if acc != nil {
		password = acc.password
	}
	return s.throttle.check(conn, req, acc != nil, password, s.frontDeskTimeout(), s.quit, s.log)
}

// check checks an auth-request's credentials against password (known:
// the user exists) after the throttle's turn for its address and account,
// and records the outcome; limit is the front desk timeout, quit ends a
// wait for a turn. The password is compared in constant time. The front
// desks of a Server and of a Desk share it.
func (t *loginThrottle) check(conn net.Conn, req protocol.AuthRequest, known bool, password string, limit time.Duration, quit <-chan struct{}, log zerolog.Logger) bool {
	key := throttleKey{addr: remoteHost(conn.RemoteAddr())}
	if known {
		key.user = req.User
	}
	log = log.With().Str("user", req.User).Str("remote", conn.RemoteAddr().String()).Logger()
	wait, ok := t.admit(key, time.Now(), limit)
	if !ok {
		log.Debug().Int64("turnIn_ms", wait.Milliseconds()).Msg("refused a throttled login without checking it")
		return false
	}
	if wait > 0 {
		timer := time.NewTimer(wait)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-quit:
			return false
		}
	}
	good := known && sameSecret(password, req.Password)
	failures, starts := t.result(key, good, time.Now())
	if starts {
		log.Warn().Int("failures", throttleFree).Int64("firstDelay_ms", throttleDelay(throttleFree).Milliseconds()).
			Msg("failed logins from this address are throttled from now on (logged once)")
	}
	if !good {
		// Warned until the throttling starts, then quiet: a brute force must not flood the log.
		lvl := zerolog.WarnLevel
		if failures > throttleFree {
			lvl = zerolog.DebugLevel
		}
		log.WithLevel(lvl).Bool("known", known).Msg("authentication failed")
	}
	return good
}

// sameSecret compares two secrets in constant time (their hashes, so that
// not even the length leaks).
func sameSecret(want, given string) bool {
	a, b := sha256.Sum256([]byte(want)), sha256.Sum256([]byte(given))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}
