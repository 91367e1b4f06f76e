package config

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fault and public-internet keys of the server block: defaults, values,
// a certificate without its key, and none of them in the checksum.
func TestServer_SilenceTimeoutAndTLSKeys(t *testing.T) {
	parse := func(server string) (*Config, error) {
		return loadEdited(t, edit{"conf.json", `"server": {`, `"server": {` + server + `,`})
	}
	def, err := parse(`"frontDeskTimeout": 10000`)
	require.NoError(t, err)
	assert.Equal(t, DefaultSilenceTimeout, def.Server.SilenceTimeout)
	assert.False(t, def.Server.AgentTLS.On())
	assert.False(t, def.Server.MonitorTLS.On())

	set, err := parse(`"silenceTimeout": 0, "agentTLSCert": "a.pem", "agentTLSKey": "a.key",
		"monitorTLSCert": "m.pem", "monitorTLSKey": "m.key"`)
	require.NoError(t, err)
	assert.Equal(t, time.Duration(0), set.Server.SilenceTimeout)
	assert.Equal(t, TLSFiles{Cert: "a.pem", Key: "a.key"}, set.Server.AgentTLS)
	assert.Equal(t, TLSFiles{Cert: "m.pem", Key: "m.key"}, set.Server.MonitorTLS)
	sumDef, err := def.Checksum()
	require.NoError(t, err)
	sumSet, err := set.Checksum()
	require.NoError(t, err)
	assert.Equal(t, sumDef, sumSet, "operational keys stay out of the checksum")

	_, err = parse(`"agentTLSCert": "a.pem"`)
	require.ErrorContains(t, err, `server.agentTLSCert: needs "agentTLSKey" as well`)
	_, err = parse(`"monitorTLSKey": "m.key"`)
	require.ErrorContains(t, err, `server.monitorTLSKey: needs "monitorTLSCert" as well`)
	_, err = parse(`"silenceTimeout": -1`)
	require.Error(t, err)
}
