package metrics

import (
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/sim"
)

// Source is what the metrics read at scrape time; *server.Server is one.
type Source interface {
	Counters() server.Counters
}

// Metrics is a Prometheus registry of one server. It is a sim.Observer
// and sim.StepTimer: pass it in server.Options.Observers so that it sees
// every step. The Source may be set after the server exists (SetSource):
// the server needs its observers when it is made.
type Metrics struct {
	reg     *prometheus.Registry
	steps   prometheus.Histogram
	figures *figures
}

// StepBuckets are the bounds of massim_step_duration_seconds: a step takes
// from well under a millisecond (instant agents) to the agents' timeout
// (4 s by default, sometimes more).
var StepBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2, 4, 8, 16}

// New makes the registry. viewers counts the live monitor's viewers (nil:
// no monitor, 0).
func New(viewers func() int) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		steps: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "massim_step_duration_seconds", Buckets: StepBuckets,
			Help: "Wall time of a step: from its preparation to the end of its action phase, the wait for the agents' answers included.",
		}),
		figures: &figures{viewers: viewers},
	}
	m.reg.MustRegister(m.steps, m.figures,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// SetSource names the server whose counters are exported. Call it before
// the metrics are served.
func (m *Metrics) SetSource(src Source) { m.figures.src = src }

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// StepTimed observes one step's duration (sim.StepTimer).
func (m *Metrics) StepTimed(_ sim.Info, _ int, d time.Duration) { m.steps.Observe(d.Seconds()) }

var _ sim.ScoreObserver = (*Metrics)(nil)

// SimulationStarted, StepDone, StepScored and SimulationEnded make Metrics
// a sim.ScoreObserver (so the step loop builds no snapshot for it); it
// needs nothing from them.
func (m *Metrics) SimulationStarted(sim.Info, scenario.Static, *scenario.Snapshot) {}
func (m *Metrics) StepDone(sim.Info, *scenario.Snapshot)                           {}
func (m *Metrics) StepScored(sim.Info, int, []scenario.TeamScore)                  {}
func (m *Metrics) SimulationEnded(sim.Info, sim.Result)                            {}

// figures is the collector of everything read at scrape time.
type figures struct {
	src     Source
	viewers func() int
}

var (
	descSteps     = prometheus.NewDesc("massim_steps_total", "Steps played since the server started.", nil, nil)
	descActions   = prometheus.NewDesc("massim_actions_total", "Agents' answers by result: accepted (in time), timeout (connected, no answer in time), offline (not connected), late, stale, duplicate (not executed), malformed (no valid message).", []string{"result"}, nil)
	descBytes     = prometheus.NewDesc("massim_bytes_total", "Bytes of agent sessions, by direction (in: from agents, out: to agents).", []string{"direction"}, nil)
	descConnected = prometheus.NewDesc("massim_agents_connected", "Connected agent accounts per team.", []string{"team"}, nil)
	descViewers   = prometheus.NewDesc("massim_viewers", "Viewers connected to the live monitor.", nil, nil)
	descSilent    = prometheus.NewDesc("massim_silent_connections_closed_total", "Agent connections closed because they sent nothing for server.silenceTimeout while they were sent request-actions.", nil, nil)
	descFailed    = prometheus.NewDesc("massim_logins_failed_total", "Failed logins on the agent port (wrong password or unknown account).", nil, nil)
)

func (f *figures) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descSteps, descActions, descBytes, descConnected, descViewers, descSilent, descFailed} {
		ch <- d
	}
}

func (f *figures) Collect(ch chan<- prometheus.Metric) {
	viewers := 0
	if f.viewers != nil {
		viewers = f.viewers()
	}
	ch <- prometheus.MustNewConstMetric(descViewers, prometheus.GaugeValue, float64(viewers))
	if f.src == nil {
		return
	}
	c := f.src.Counters()
	ch <- prometheus.MustNewConstMetric(descSteps, prometheus.CounterValue, float64(c.Steps))
	for _, result := range server.ActionResults {
		ch <- prometheus.MustNewConstMetric(descActions, prometheus.CounterValue, float64(c.Actions[result]), result)
	}
	ch <- prometheus.MustNewConstMetric(descBytes, prometheus.CounterValue, float64(c.BytesIn), "in")
	ch <- prometheus.MustNewConstMetric(descBytes, prometheus.CounterValue, float64(c.BytesOut), "out")
	ch <- prometheus.MustNewConstMetric(descSilent, prometheus.CounterValue, float64(c.SilentClosed))
	ch <- prometheus.MustNewConstMetric(descFailed, prometheus.CounterValue, float64(c.LoginsFailed))
	for _, team := range slices.Sorted(maps.Keys(c.Connected)) {
		ch <- prometheus.MustNewConstMetric(descConnected, prometheus.GaugeValue, float64(c.Connected[team]), team)
	}
}
