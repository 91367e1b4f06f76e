// Package admin is the HTTP admin API of a running tournament: the console
// controls (launch, pause, continue, step, stop) and the tournament status as JSON,
// for organisers and the buttons of the monitor page. It is an http.Handler
// (New) mounted under /admin/ on the monitor port's mux (Mount).
//
// Every request needs "Authorization: Bearer <token>" with the admin token
// (server.adminToken in the config, or MASSIM_ADMIN_TOKEN); without it the
// answer is 401. Without a configured token the API is off and answers 404.
//
//	GET  /admin/status    the status (tournament.Status as JSON)
//	POST /admin/launch    start a tournament that waits for its launch, now
//	                      (409 once it has started)
//	POST /admin/pause     pause before the next step
//	POST /admin/continue  continue a paused tournament
//	POST /admin/step      play one step while paused (409 when not paused)
//	POST /admin/stop      end after the current simulation
//
// Every command answers with the status after it; refusals are 409 with
// {"error": "..."}.
package admin
