package compact

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestIndexJSON_SameAsEncodingJSON(t *testing.T) {
	cases := map[string]Index{
		"empty":           {Last: -2},
		"empty lists":     {Last: -2, Chunks: []ChunkRef{}, Scores: [][]int64{}},
		"cut short":       {Last: 3, Chunks: []ChunkRef{{Offset: 9, First: -1, Count: 5, Keyframe: true}}, Scores: [][]int64{{0, 0}, {1, 0}, {1, 2}, {3, 2}, {3, 4}}},
		"holes and empty": {Complete: true, Last: 250, Scores: [][]int64{{0}, nil, {}, nil, {math.MaxInt64, math.MinInt64, -7}}},
		"many chunks": {Complete: true, Last: 19, Chunks: []ChunkRef{
			{Offset: 123, First: -1, Count: 10, Keyframe: true}, {Offset: 1 << 40, First: 9, Count: 1},
			{Offset: 5000, First: 10, Count: 10}}, Scores: [][]int64{nil}},
	}
	for name, x := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(x)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(x.appendJSON([]byte("kept"))[4:]))
		})
	}
}
