package compact

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMetaJSON_SameAsEncodingJSON(t *testing.T) {
	start := time.Date(2022, 9, 22, 10, 57, 5, 723_000_000, time.FixedZone("", 2*3600))
	full := Meta{Format: FormatName, Version: Version, Sim: "1663837025723_A<&>_B", MatchStart: start,
		Static:   Static{Width: 70, Height: 50, Teams: []string{"A<&>", "B\u2028"}, BlockTypes: []string{"b0", "b1"}, MaxEnergy: 100, Steps: 400},
		Interval: 100, ChunkSteps: 10, Origin: "massim-go",
		Record: &Record{Seed: -17, Teams: []Team{{Name: "A<&>", Prefix: "agentA"}, {Name: "B\u2028", Prefix: "\xff"}},
			Agents:         []string{"agentA1", "agentB1"},
			Match:          json.RawMessage("{\"id\": \"m<1>\",\n \"steps\": [1, 2.5e3, null, true],\"s\":\"\u2029&\"}"),
			Files:          map[string][]byte{"setup.txt": []byte("move 1 2\n"), "maps/a&b.bmp": {0, 1, 2, 250}, "empty": {}, "nil": nil},
			AgentTimeoutMs: 4000}}
	bare := Meta{Format: FormatName, Sim: "x", MatchStart: time.Unix(0, 0).UTC(), Origin: "official"}
	noMatch := full
	noMatch.Record = &Record{Seed: 1}
	cases := map[string]Meta{"full": full, "converted, no record": bare, "record with nothing": noMatch}
	for name, m := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(m)
			require.NoError(t, err)
			got, err := m.appendJSON([]byte("kept"))
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got[4:]))
		})
	}

	broken := full
	broken.Record = &Record{Match: json.RawMessage(`{"id":`)}
	_, err := broken.appendJSON(nil)
	assert.Error(t, err, "a match entry that is not JSON")
	late := bare
	late.MatchStart = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	_, err = late.appendJSON(nil)
	assert.Error(t, err, "a time JSON cannot hold")
}
