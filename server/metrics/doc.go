// Package metrics exports a running server's figures in the Prometheus
// format (GET /metrics, see package ops): steps played and how long they
// took, actions by result, agent traffic, connected agents per team,
// monitor viewers, and the Go runtime and process collectors.
//
// It costs the step loop one histogram observation per step and nothing
// per message: every other figure is read when Prometheus scrapes, from the
// counters the server keeps anyway (server.Server.Counters: atomic
// counters, each agent's session adding only to its own).
package metrics
