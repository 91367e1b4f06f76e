package server

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// faultRig is a server on loopback, one toxiproxy proxy in front of it per
// account, and the random sample team's agents (clients/agent) connecting
// each through its own proxy, so that a fault can hit one agent's link,
// a team's, or every link. It keeps what each client sent and what the
// server recorded, to compare them (faultRig.account).
type faultRig struct {
	t       *testing.T
	ts      *testServer
	cfg     *config.Config
	answers *answerLog
	proxies map[string]*toxiproxy.Proxy // by account
	sent    map[string]*sentLog         // by account
	users   []string                    // team order, then number
	heap    uint64                      // live heap before the launch
	// serverSilence is the agent.Config.ServerSilence of some clients.
	serverSilence map[string]time.Duration
	agents        sync.WaitGroup
	errs          chan error
	stop          context.CancelFunc
}

// newFaultRig starts the server and a proxy per account; the agents come
// with connect, after the test has put its first toxics in place.
func newFaultRig(t *testing.T, cfg *config.Config, opts Options) *faultRig {
	t.Helper()
	answers := &answerLog{}
	opts.Observers = append(opts.Observers, answers)
	r := &faultRig{t: t, cfg: cfg, answers: answers, proxies: map[string]*toxiproxy.Proxy{},
		sent: map[string]*sentLog{}, errs: make(chan error, 64)}
	r.heap = liveHeap()
	r.ts = startServerWith(t, cfg, opts)
	api := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())
	for _, a := range cfg.Accounts() {
		p := toxiproxy.NewProxy(api, a.User, "127.0.0.1:0", r.ts.Addr().String())
		require.NoError(t, p.Start())
		t.Cleanup(p.Stop)
		r.proxies[a.User] = p
		r.sent[a.User] = &sentLog{}
		r.users = append(r.users, a.User)
	}
	return r
}

// connect starts every agent (through its proxy) and waits until all are
// logged in; the agents stop at the end of the test.
func (r *faultRig) connect() {
	ctx, cancel := context.WithCancel(context.Background())
	r.stop = cancel
	passwords := map[string]string{}
	for _, a := range r.cfg.Accounts() {
		passwords[a.User] = a.Password
	}
	for i, user := range r.users {
		cfg := agent.Config{Addr: r.proxies[user].Listen, User: user, Password: passwords[user],
			InitialBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, AuthTimeout: time.Second,
			ServerSilence: r.serverSilence[user]}
		b := &loggedBehaviour{Behaviour: random.New(int64(i + 1)), log: r.sent[user]}
		r.agents.Go(func() {
			if err := agent.Run(ctx, cfg, b); err != nil && ctx.Err() == nil {
				r.errs <- err
			}
		})
	}
	r.t.Cleanup(func() {
		cancel()
		r.agents.Wait()
	})
	r.waitConnected(len(r.users))
}

// toxic adds a toxic (toxiproxy's JSON form) to the links of users.
func (r *faultRig) toxic(name, typ, stream string, attrs string, users ...string) {
	r.t.Helper()
	body := fmt.Sprintf(`{"name": %q, "type": %q, "stream": %q, "attributes": %s}`, name, typ, stream, attrs)
	for _, u := range users {
		_, err := r.proxies[u].Toxics.AddToxicJson(strings.NewReader(body))
		require.NoError(r.t, err, "toxic %s on %s", name, u)
	}
}

// armResets makes every later cut of users' links a TCP reset (RST) both
// ways instead of a FIN: toxiproxy sets SO_LINGER 0 on the sockets of a
// link that starts with a reset_peer toxic in its chain; with toxicity 0
// the toxic itself never acts. Call it before the agents connect.
func (r *faultRig) armResets(users ...string) {
	r.t.Helper()
	body := `{"name": "rst", "type": "reset_peer", "stream": "downstream", "toxicity": 0, "attributes": {"timeout": 0}}`
	for _, u := range users {
		_, err := r.proxies[u].Toxics.AddToxicJson(strings.NewReader(body))
		require.NoError(r.t, err, "arming resets on %s", u)
	}
}

// heal removes a toxic from the links of users.
func (r *faultRig) heal(name string, users ...string) {
	r.t.Helper()
	for _, u := range users {
		require.NoError(r.t, r.proxies[u].Toxics.RemoveToxic(context.Background(), name))
	}
}

// blackhole stops every byte both ways on the links of users; the sockets
// stay open (toxiproxy's timeout toxic with timeout 0). Healing it closes
// the links it held.
func (r *faultRig) blackhole(users ...string) {
	r.toxic("blackhole-up", "timeout", "upstream", `{"timeout": 0}`, users...)
	r.toxic("blackhole-down", "timeout", "downstream", `{"timeout": 0}`, users...)
}

func (r *faultRig) unblackhole(users ...string) {
	r.heal("blackhole-up", users...)
	r.heal("blackhole-down", users...)
}

// within waits for cond, failing the test after limit.
func (r *faultRig) within(limit time.Duration, what string, cond func() bool) {
	r.t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			r.t.Fatalf("waited %v for %s", limit, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (r *faultRig) waitConnected(n int) {
	r.t.Helper()
	r.within(30*time.Second, fmt.Sprintf("%d agents connected", n), func() bool { return r.ts.Connected() == n })
}

// disconnects counts the connections of user that have ended.
func (r *faultRig) disconnects(user string) int64 {
	return r.ts.accounts[user].counters.disconnects.Load()
}

// finish waits for the match to end and checks that no agent gave up.
func (r *faultRig) finish() {
	r.t.Helper()
	r.ts.wait(r.t, 120*time.Second)
	require.NoError(r.t, r.ts.err)
	r.stop()
	r.agents.Wait()
	close(r.errs)
	for err := range r.errs {
		r.t.Errorf("agent: %v", err)
	}
}

// healHeld heals a fault while the tournament is paused and continues once
// every agent is back, so that steps remain to show that they play again.
func (r *faultRig) healHeld(heal func()) {
	r.t.Helper()
	require.NoError(r.t, r.ts.Control().Pause())
	heal()
	r.waitConnected(len(r.users))
	require.NoError(r.t, r.ts.Control().Continue())
}

// results waits for the end of the match and returns (and logs) the
// accounting of every agent.
func (r *faultRig) results(fault string) []accounting {
	r.t.Helper()
	r.finish()
	rows := r.account()
	r.report(fault, rows)
	return rows
}

// accounting compares, for one agent, what its client sent with what the
// server recorded (its answers in the match record and its stats).
type accounting struct {
	user       string
	sent       int // actions the client sent (one per request-action it got)
	arrived    int64
	stats      sim.AgentStats
	inTimeSeen int // in-time answers in the match record
	lost       int // sent, but never reached the server
}

// account checks the one simulation's match record against every client's
// log: each in-time answer the server recorded is an action its client sent
// for that step, the stats count exactly the in-time answers of the record,
// and every action that reached the server is accounted for (executed,
// late, stale or duplicate). It returns one row per agent.
func (r *faultRig) account() []accounting {
	r.t.Helper()
	require.Len(r.t, r.answers.results, 1, "one simulation")
	res := r.answers.results[0]
	var rows []accounting
	for _, st := range res.Agents { // team order, then account number
		user := st.Agent
		i := slices.Index(r.answers.agents, user) // the world's order
		require.GreaterOrEqual(r.t, i, 0, user)
		row := accounting{user: user, stats: st, sent: r.sent[user].count()}
		for step, answers := range r.answers.steps {
			a := answers[i]
			if a.Kind != sim.AnswerInTime {
				continue
			}
			row.inTimeSeen++
			assert.True(r.t, r.sent[user].sentFor(step, a.Action), "%s step %d: the server executed %v, which its client did not send", user, step, a.Action)
		}
		assert.Equal(r.t, st.Actions, int64(row.inTimeSeen), "%s: stats and match record agree", user)
		row.arrived = st.Actions + st.Late + st.Stale + st.Duplicates
		row.lost = row.sent - int(row.arrived)
		rows = append(rows, row)
	}
	return rows
}

// report logs the rows and the live heap before the launch and now.
func (r *faultRig) report(fault string, rows []accounting) {
	after := liveHeap()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: live heap %.1f MB before the launch, %.1f MB after the match\n", fault, mb(r.heap), mb(after))
	for _, row := range rows {
		s := row.stats
		fmt.Fprintf(&b, "  %-8s sent %3d arrived %3d lost %d | executed %3d late %d stale %d dup %d timeouts %d offline %d disconnects %d | %d bytes to it\n",
			row.user, row.sent, row.arrived, row.lost, s.Actions, s.Late, s.Stale, s.Duplicates, s.Timeouts, s.Offline, s.Disconnects,
			r.ts.accounts[row.user].counters.bytesOut.Load())
	}
	r.t.Log(b.String())
}

// checkMemory requires the live heap after the match to stay within
// bound of the heap before it: nothing per step or per fault is kept.
func (r *faultRig) checkMemory(bound uint64) {
	r.t.Helper()
	after := liveHeap()
	assert.Less(r.t, after, r.heap+bound, "live heap %.1f MB → %.1f MB", mb(r.heap), mb(after))
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }

// answerLog is the server side: the match record (every agent's answer of
// every step) and the simulation's result with its stats.
type answerLog struct {
	mu      sync.Mutex
	agents  []string
	steps   [][]sim.Answer // by step
	results []sim.Result
}

func (l *answerLog) SimulationStarted(info sim.Info, _ scenario.Static, _ *scenario.Snapshot) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.agents = slices.Clone(info.Agents)
}

func (l *answerLog) StepAnswers(_ sim.Info, step int, answers []sim.Answer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.steps) <= step {
		l.steps = append(l.steps, nil)
	}
	kept := make([]sim.Answer, len(answers))
	for i, a := range answers {
		kept[i] = sim.Answer{Kind: a.Kind, Action: scenario.Action{Name: a.Action.Name, Params: slices.Clone(a.Action.Params)}}
	}
	l.steps[step] = kept
}

func (l *answerLog) StepDone(sim.Info, *scenario.Snapshot) {}

func (l *answerLog) SimulationEnded(_ sim.Info, res sim.Result) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.results = append(l.results, res)
}

// step is the number of the latest recorded step (-1 before the first).
func (l *answerLog) step() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.steps) - 1
}

// answer is user's answer of step.
func (l *answerLog) answer(step int, user string) sim.Answer {
	l.mu.Lock()
	defer l.mu.Unlock()
	i := slices.Index(l.agents, user)
	return l.steps[step][i]
}

// sentLog is the client side: every action an agent sent, by step.
type sentLog struct {
	mu      sync.Mutex
	actions map[int][]scenario.Action
	n       int
}

func (s *sentLog) add(step int, name string, params []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.actions == nil {
		s.actions = map[int][]scenario.Action{}
	}
	s.actions[step] = append(s.actions[step], scenario.Action{Name: name, Params: slices.Clone(params)})
	s.n++
}

func (s *sentLog) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// sentFor reports whether the agent sent a for step.
func (s *sentLog) sentFor(step int, a scenario.Action) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.ContainsFunc(s.actions[step], func(b scenario.Action) bool {
		return a.Name == b.Name && slices.Equal(a.Params, b.Params)
	})
}

// loggedBehaviour writes down every action its behaviour answers.
type loggedBehaviour struct {
	agent.Behaviour
	log *sentLog
}

func (b *loggedBehaviour) Act(ra *protocol.RequestAction) (string, []string) {
	name, params := b.Behaviour.Act(ra)
	b.log.add(ra.Step, name, params)
	return name, params
}
