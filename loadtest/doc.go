// Package loadtest is the load generator behind "massim bench" and
// "massim bench-monitor": it starts "massim serve" as a child process on
// loopback, plays matches against instant-answering random agents run in
// this process (and, for the monitor, websocket viewers), and measures the
// server from outside: wall and CPU time per phase, step times as the
// agents saw them, peak memory, replay size. Its reports are what
// docs/performance.md quotes. It also measures the protocol's I/O floor of
// a load with no server at all (-floor, Linux only).
//
// The flags, the choice of a preset and the printing to the terminal stay
// in cmd/massim; this package returns figures and writes reports.
package loadtest
