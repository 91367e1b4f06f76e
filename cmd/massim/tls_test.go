package main

import (
	"bytes"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/testcert"
	"github.com/massim-go/massim/protocol"
)

// The admin API and the profiles are never reachable without the admin
// token, over HTTP and over HTTPS (-monitor-tls-cert/-key, which also cover
// the -ops port); with -agent-tls-cert/-key the agent port speaks TLS, and
// `massim agents -tls -tls-ca` plays a match there.
func TestServe_TokenGuardsOverHTTPAndHTTPS(t *testing.T) {
	for _, secure := range []bool{false, true} {
		name := map[bool]string{false: "http", true: "https"}[secure]
		t.Run(name, func(t *testing.T) { tokenGuards(t, secure) })
	}
}

func tokenGuards(t *testing.T, secure bool) {
	f := newServeFixture(t, 50, 1)
	opsPort, err := freePort()
	require.NoError(t, err)
	t.Setenv("MASSIM_ADMIN_TOKEN", "tok")
	args := []string{"-conf", f.conf, "-monitor", f.monitorAddr(), "-ops", "127.0.0.1:" + strconv.Itoa(opsPort)}
	client := &http.Client{Timeout: 30 * time.Second}
	scheme := "http://"
	var cert testcert.Cert
	if secure {
		cert = testcert.New(t)
		args = append(args, "-monitor-tls-cert", cert.CertFile, "-monitor-tls-key", cert.KeyFile,
			"-agent-tls-cert", cert.CertFile, "-agent-tls-key", cert.KeyFile)
		client.Transport = &http.Transport{TLSClientConfig: cert.ClientConfig()}
		scheme = "https://"
	}
	srv, _ := startServe(t, f.bin, args...)
	mon := scheme + f.monitorAddr()
	ops := scheme + "127.0.0.1:" + strconv.Itoa(opsPort)
	get := func(method, url, token string) int {
		req, err := http.NewRequest(method, url, nil)
		require.NoError(t, err)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	require.Eventually(t, func() bool { return get(http.MethodGet, ops+"/healthz", "") == http.StatusOK },
		60*time.Second, 10*time.Millisecond, "the ops port answers")

	guarded := []struct{ method, url string }{
		{http.MethodGet, mon + "/admin/status"}, {http.MethodPost, mon + "/admin/launch"}, {http.MethodPost, mon + "/admin/stop"},
		{http.MethodGet, mon + "/debug/pprof/"}, {http.MethodGet, mon + "/debug/pprof/cmdline"},
		{http.MethodGet, mon + "/debug/pprof/goroutine?debug=1"}, {http.MethodPost, mon + "/debug/pprof/symbol"},
		{http.MethodGet, ops + "/debug/pprof/"}, {http.MethodGet, ops + "/debug/pprof/heap"},
	}
	for _, g := range guarded {
		for _, token := range []string{"", "wrong", "tok2", "to"} {
			assert.Equal(t, http.StatusUnauthorized, get(g.method, g.url, token), "%s %s with token %q", g.method, g.url, token)
		}
	}
	assert.Equal(t, http.StatusOK, get(http.MethodGet, mon+"/admin/status", "tok"))
	assert.Equal(t, http.StatusOK, get(http.MethodGet, ops+"/debug/pprof/cmdline", "tok"))

	if secure {
		plain := &http.Client{Timeout: 30 * time.Second}
		resp, err := plain.Get("http://" + f.monitorAddr() + "/admin/status")
		if err == nil {
			_ = resp.Body.Close()
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "plain HTTP on the HTTPS port")
		}
		conn, err := tls.Dial("tcp", "127.0.0.1:"+strconv.Itoa(f.port), cert.ClientConfig())
		require.NoError(t, err, "the agent port speaks TLS")
		defer conn.Close()
		body, err := protocol.Marshal(protocol.StatusRequest{})
		require.NoError(t, err)
		_, err = conn.Write(append(body, 0))
		require.NoError(t, err)
		_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		frame, err := protocol.NewFrameReader(conn, 0).Next()
		require.NoError(t, err)
		assert.True(t, strings.Contains(string(frame), `"status-response"`), "%s", frame)
		raw, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(f.port))
		require.NoError(t, err)
		defer raw.Close()
		_, _ = raw.Write(append(body, 0))
		_ = raw.SetReadDeadline(time.Now().Add(30 * time.Second))
		_, err = protocol.NewFrameReader(raw, 0).Next()
		assert.Error(t, err, "a plain client gets no answer on the TLS agent port")

		// `massim agents -tls -tls-ca` plays the match, launched over HTTPS.
		results := make(chan int, 2)
		for _, team := range []string{"A", "B"} {
			go func() {
				var out, errOut bytes.Buffer
				results <- run([]string{"agents", "-tls", "-tls-ca", cert.CertFile, "-host", "127.0.0.1",
					"-port", strconv.Itoa(f.port), "-team", team, "-password", "pw" + team, "-count", "1"}, &out, &errOut)
			}()
		}
		// Launched once both agents are in: launched before, the match is
		// played without them and the server is gone when they come.
		awaitConnectedAt(t, client, mon, "tok")
		assert.Equal(t, http.StatusOK, get(http.MethodPost, mon+"/admin/launch", "tok"), "launched over HTTPS")
		require.NoError(t, srv.Wait(), "the tournament ends normally")
		for range 2 {
			select {
			case code := <-results:
				assert.Equal(t, 0, code, "massim agents over TLS ends with the server's bye")
			case <-time.After(60 * time.Second):
				t.Fatal("massim agents did not end within 60 s of the server's end")
			}
		}
		return
	}
	require.NoError(t, srv.Process.Signal(os.Interrupt))
	_ = srv.Wait()
}
