package preview

import (
	"image"
	"image/color"
	"strings"
)

// A 3×5 pixel font for the legend: the standard library has no font, and a
// legend of a dozen short labels does not justify a dependency. Lower case
// is drawn as upper case; characters without a glyph are drawn as '?'.
// Each glyph is five rows of three pixels, top to bottom, '#' = ink.
var glyphs = map[rune]string{
	'A': ".#.|#.#|###|#.#|#.#", 'B': "##.|#.#|##.|#.#|##.", 'C': ".##|#..|#..|#..|.##",
	'D': "##.|#.#|#.#|#.#|##.", 'E': "###|#..|##.|#..|###", 'F': "###|#..|##.|#..|#..",
	'G': ".##|#..|#.#|#.#|.##", 'H': "#.#|#.#|###|#.#|#.#", 'I': "###|.#.|.#.|.#.|###",
	'J': "..#|..#|..#|#.#|.#.", 'K': "#.#|#.#|##.|#.#|#.#", 'L': "#..|#..|#..|#..|###",
	'M': "#.#|###|###|#.#|#.#", 'N': "##.|#.#|#.#|#.#|#.#", 'O': ".#.|#.#|#.#|#.#|.#.",
	'P': "##.|#.#|##.|#..|#..", 'Q': ".#.|#.#|#.#|##.|.##", 'R': "##.|#.#|##.|#.#|#.#",
	'S': ".##|#..|.#.|..#|##.", 'T': "###|.#.|.#.|.#.|.#.", 'U': "#.#|#.#|#.#|#.#|.##",
	'V': "#.#|#.#|#.#|.#.|.#.", 'W': "#.#|#.#|###|###|#.#", 'X': "#.#|#.#|.#.|#.#|#.#",
	'Y': "#.#|#.#|.#.|.#.|.#.", 'Z': "###|..#|.#.|#..|###",
	'0': "###|#.#|#.#|#.#|###", '1': ".#.|##.|.#.|.#.|###", '2': "##.|..#|.#.|#..|###",
	'3': "##.|..#|.#.|..#|##.", '4': "#.#|#.#|###|..#|..#", '5': "###|#..|##.|..#|##.",
	'6': ".##|#..|###|#.#|###", '7': "###|..#|.#.|.#.|.#.", '8': "###|#.#|###|#.#|###",
	'9': "###|#.#|###|..#|##.",
	' ': "...|...|...|...|...", '.': "...|...|...|...|.#.", ',': "...|...|...|.#.|#..",
	':': "...|.#.|...|.#.|...", '-': "...|...|###|...|...", '+': "...|.#.|###|.#.|...",
	'_': "...|...|...|...|###", '/': "..#|..#|.#.|#..|#..", '(': ".#.|#..|#..|#..|.#.",
	')': ".#.|..#|..#|..#|.#.", '%': "#.#|..#|.#.|#..|#.#", '=': "...|###|...|###|...",
	'#': "#.#|###|#.#|###|#.#", '?': "##.|..#|.#.|...|.#.", '!': ".#.|.#.|.#.|...|.#.",
	'[': "##.|#..|#..|#..|##.", ']': ".##|..#|..#|..#|.##", '\'': ".#.|.#.|...|...|...",
	'×': "...|#.#|.#.|#.#|...",
}

// Font metrics in font pixels; fontScale screen pixels per font pixel.
const (
	glyphW    = 3
	glyphH    = 5
	advance   = glyphW + 1
	fontScale = 2
)

// textWidth is the width in screen pixels of s drawn with drawText.
func textWidth(s string) int {
	n := len([]rune(s))
	if n == 0 {
		return 0
	}
	return (n*advance - 1) * fontScale
}

// textHeight is the height in screen pixels of a line of text.
const textHeight = glyphH * fontScale

// drawText draws s with its top-left corner at (x, y).
func drawText(img *image.NRGBA, x, y int, s string, c color.NRGBA) {
	for _, r := range s {
		g, ok := glyphs[r]
		if !ok {
			g, ok = glyphs[[]rune(strings.ToUpper(string(r)))[0]]
		}
		if !ok {
			g = glyphs['?']
		}
		for row, bits := range strings.Split(g, "|") {
			for col, b := range bits {
				if b == '#' {
					fill(img, image.Rect(x+col*fontScale, y+row*fontScale, x+(col+1)*fontScale, y+(row+1)*fontScale), c)
				}
			}
		}
		x += advance * fontScale
	}
}
