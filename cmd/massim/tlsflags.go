package main

import (
	"flag"
	"fmt"

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
