package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/config"
)

// registerTLS adds the TLS flags of serve and match (docs/operations.md,
// "TLS"): they override server.agentTLSCert/agentTLSKey and
// server.monitorTLSCert/monitorTLSKey.
func (f *tournamentFlags) registerTLS(fs *flag.FlagSet) {
	fs.StringVar(&f.agentTLS.Cert, "agent-tls-cert", "", "PEM certificate (chain) for TLS on the agent port; overrides server.agentTLSCert (needs -agent-tls-key)")
	fs.StringVar(&f.agentTLS.Key, "agent-tls-key", "", "PEM private key for TLS on the agent port; overrides server.agentTLSKey")
	fs.StringVar(&f.monitorTLS.Cert, "monitor-tls-cert", "", "PEM certificate (chain) for HTTPS on the -monitor and -ops ports; overrides server.monitorTLSCert (needs -monitor-tls-key)")
	fs.StringVar(&f.monitorTLS.Key, "monitor-tls-key", "", "PEM private key for HTTPS on the -monitor and -ops ports; overrides server.monitorTLSKey")
}

// applyTLS puts the TLS flags into cfg; a certificate needs its key.
func (f *tournamentFlags) applyTLS(cfg *config.Config) error {
	for _, o := range []struct {
		flags config.TLSFiles
		into  *config.TLSFiles
		name  string
	}{{f.agentTLS, &cfg.Server.AgentTLS, "-agent-tls"}, {f.monitorTLS, &cfg.Server.MonitorTLS, "-monitor-tls"}} {
		if (o.flags.Cert == "") != (o.flags.Key == "") {
			return fmt.Errorf("%s-cert and %s-key go together", o.name, o.name)
		}
		if o.flags.On() {
			*o.into = o.flags
		}
	}
	return nil
}

// agentConnFlags are how `massim agents` connects: TLS, and when to give up
// a silent connection (docs/protocol.md, "TLS" and "Slow links and dead
// connections").
type agentConnFlags struct {
	tls           bool
	tlsCA         string
	serverSilence time.Duration
}

func (c *agentConnFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&c.tls, "tls", false, "connect with TLS (the server has agentTLSCert); the certificate is checked against the system's CAs")
	fs.StringVar(&c.tlsCA, "tls-ca", "", "with -tls: trust this PEM certificate instead of the system's CAs (a self-signed server certificate)")
	fs.DurationVar(&c.serverSilence, "server-silence", 0, "give a connection up and log in again when no message came for this long during a simulation (e.g. 20s; several agentTimeouts); 0: never")
}

// dialer is the agents' dial function: nil (plain TCP) without -tls.
func (c *agentConnFlags) dialer(host string) (agent.DialFunc, error) {
	if !c.tls {
		if c.tlsCA != "" {
			return nil, errors.New("-tls-ca needs -tls")
		}
		return nil, nil
	}
	tc := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	if c.tlsCA != "" {
		pem, err := os.ReadFile(c.tlsCA)
		if err != nil {
			return nil, fmt.Errorf("-tls-ca: %w", err)
		}
		tc.RootCAs = x509.NewCertPool()
		if !tc.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("-tls-ca %s: no PEM certificate in it", c.tlsCA)
		}
	}
	return (&tls.Dialer{Config: tc}).DialContext, nil
}
