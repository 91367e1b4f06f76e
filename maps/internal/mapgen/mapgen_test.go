package mapgen

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/maps"
)

// The committed files are what the generator draws today. Compared decoded,
// not byte for byte: a new Go release may compress PNGs differently.
func TestShippedFilesAreRegenerable(t *testing.T) {
	files, err := Files()
	require.NoError(t, err)
	for _, f := range files {
		t.Run(f.Name, func(t *testing.T) {
			fresh, err := maps.DecodeBitmap(bytes.NewReader(f.Data))
			require.NoError(t, err)
			shipped, err := maps.LoadShipped(f.Name)
			require.NoError(t, err)
			assert.Equal(t, shipped, fresh, "run: go run ./maps/internal/mkmaps")
		})
	}
}

func TestArenaIsRotationSymmetric(t *testing.T) {
	c := Arena40()
	for y := range c.h {
		for x := range c.w {
			rx, ry := c.w-1-y, x
			require.Equal(t, c.obst[y*c.w+x], c.obst[ry*c.w+rx], "(%d,%d) vs (%d,%d)", x, y, rx, ry)
		}
	}
}

func TestIslandsBMPIs24Bit(t *testing.T) {
	files, err := Files()
	require.NoError(t, err)
	for _, f := range files {
		if f.Name == "islands70.bmp" {
			assert.Equal(t, byte(24), f.Data[28], "bits per pixel")
		}
	}
}
