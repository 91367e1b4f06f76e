package server

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/internal/testcert"
)

// stunnelConf is the stunnel.conf of docs/protocol.md, "TLS", for a server at
// serverAddr with the self-signed certificate certFile, accepting plain TCP
// at acceptAddr: the documented file with the addresses replaced and its
// self-signed variant chosen.
func stunnelConf(t *testing.T, acceptAddr, serverAddr, certFile string) string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "protocol.md"))
	require.NoError(t, err)
	m := regexp.MustCompile("(?s)```ini\n(.*?)```").FindSubmatch(doc)
	require.NotNil(t, m, "docs/protocol.md has the stunnel.conf")
	var out []string
	for _, line := range strings.Split(string(m[1]), "\n") {
		switch {
		case strings.HasPrefix(line, "verifyChain"), strings.HasPrefix(line, "CAfile = /etc"), strings.HasPrefix(line, "checkHost"):
			continue // the CA variant
		case line == "; verifyPeer = yes":
			line = "verifyPeer = yes"
		case strings.HasPrefix(line, "; CAfile = "):
			line = "CAfile = " + certFile
		}
		line = strings.ReplaceAll(line, "127.0.0.1:12300", acceptAddr)
		line = strings.ReplaceAll(line, "contest.example.org:12300", serverAddr)
		out = append(out, line)
	}
	return "pid =\n" + strings.Join(out, "\n")
}

// A team whose clients speak plain TCP plays through stunnel, configured as
// docs/protocol.md says, against a TLS agent port.
func TestTLS_PlainClientsThroughStunnel(t *testing.T) {
	bin, err := exec.LookPath("stunnel")
	require.NoError(t, err, "stunnel is missing: scripts/install/stunnel.sh installs it")
	cert := testcert.New(t)
	cfg := testConfig(t, 3000, 10, 2)
	cfg.Server.AgentTLS.Cert, cfg.Server.AgentTLS.Key = cert.CertFile, cert.KeyFile
	ts := startServer(t, cfg)

	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	accept := l.Addr().String()
	require.NoError(t, l.Close())
	conf := filepath.Join(t.TempDir(), "stunnel.conf")
	require.NoError(t, os.WriteFile(conf, []byte(stunnelConf(t, accept, ts.Addr().String(), cert.CertFile)), 0o600))
	cmd := exec.Command(bin, conf)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := os.Create(filepath.Join(t.TempDir(), "stunnel.log"))
	require.NoError(t, err)
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		if t.Failed() {
			log, _ := os.ReadFile(out.Name())
			t.Logf("stunnel:\n%s", log)
		}
	})
	require.Eventually(t, func() bool {
		c, err := net.Dial("tcp", accept)
		if err == nil {
			_ = c.Close()
		}
		return err == nil
	}, 30*time.Second, 20*time.Millisecond, "stunnel listens")

	playMatchThrough(t, ts, cfg, accept, nil)
}
