// Package ops serves the operations endpoints of a running server, for
// probes, Prometheus and profiling, on the monitor port and, with -ops
// ADDR, alone on a port of their own:
//
//	GET /healthz        200 while the process runs
//	GET /readyz         200 while the server accepts agents, else 503
//	GET /metrics        Prometheus text format (package metrics)
//	    /debug/pprof/   the Go profiles (net/http/pprof), behind the admin
//	                    token like /admin/ (404 when no token is set)
package ops
