package convert_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/convert"
)

// TestConvert_Official2022Contest converts every replay folder below
// $MASSIM_OFFICIAL_REPLAYS (the 18 replays of the 2022 contest, about
// 800 MB, are not part of the repository) and checks the steps against the
// originals. Run it as
//
//	MASSIM_OFFICIAL_REPLAYS=/path/to/replays_2022c go test -run Official2022 -v ./replays/convert/
func TestConvert_Official2022Contest(t *testing.T) {
	root := os.Getenv("MASSIM_OFFICIAL_REPLAYS")
	if root == "" {
		t.Skip("set MASSIM_OFFICIAL_REPLAYS to a folder of official replays")
	}
	found, err := replays.Find(root)
	require.NoError(t, err)
	require.NotEmpty(t, found)
	out := t.TempDir()
	var in, written int64
	for _, e := range found {
		dst := filepath.Join(out, e.ID+compact.Extension)
		st, err := convert.ToCompact(e.Dir, dst)
		require.NoError(t, err, e.ID)
		r, err := compact.Open(dst)
		require.NoError(t, err, e.ID)
		assert.True(t, r.Complete, e.ID)
		assert.Zero(t, st.Missing, e.ID)
		o, err := replays.Open(e.Dir)
		require.NoError(t, err)
		for s := -1; s < e.Static.Steps; s += 37 {
			want, err := o.Snapshot(s)
			require.NoError(t, err)
			got, err := r.Step(s)
			require.NoError(t, err)
			same(t, want, got.Snapshot, e.ID)
		}
		in, written = in+st.In, written+st.Out
		t.Logf("%-52s %4d steps %6.1f MB → %6.1f KB (1/%.0f, %d B/step)", e.ID, st.Steps,
			float64(st.In)/1e6, float64(st.Out)/1e3, float64(st.In)/float64(st.Out), st.Out/int64(st.Steps))
	}
	t.Logf("all %d: %.1f MB → %.1f MB (1/%.0f)", len(found), float64(in)/1e6, float64(written)/1e6, float64(in)/float64(written))
}
