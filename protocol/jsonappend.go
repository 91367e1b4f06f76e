package protocol

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// Append-style JSON primitives for the hand-rolled encoders. Their output is
// byte-identical to encoding/json with HTML escaping switched off, so either
// can be used to check the other.

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Quotes, backslashes and control
// characters are escaped (\b \f \n \r \t by name, others as \u00XX), each
// invalid UTF-8 byte becomes \ufffd, and U+2028/U+2029 are escaped because
// JavaScript consumers choke on them raw. <, > and & stay as they are.
func appendString(dst []byte, s string) []byte {
	// Nearly every string the server writes (names, types, results) is
	// plain ASCII: one table look-up per byte finds that out.
	i := 0
	for i < len(s) && plainASCII[s[i]] {
		i++
	}
	if i == len(s) {
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	return appendStringEscaped(dst, s, i)
}

// plainASCII marks the bytes appendString copies as they are: printable
// ASCII except the quote and the backslash.
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendStringEscaped is appendString for a string whose first from bytes
// are plain ASCII.
func appendStringEscaped(dst []byte, s string, from int) []byte {
	dst = append(dst, '"')
	plainFrom := 0 // start of the run of bytes that need no escaping
	for i := from; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				dst = append(dst, s[plainFrom:i]...)
				dst = append(dst, `\ufffd`...)
			case r == '\u2028' || r == '\u2029':
				dst = append(dst, s[plainFrom:i]...)
				dst = append(dst, `\u202`...)
				dst = append(dst, hexDigits[r&0xF])
			default:
				i += size
				continue
			}
			i += size
			plainFrom = i
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		dst = append(dst, s[plainFrom:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		plainFrom = i
	}
	dst = append(dst, s[plainFrom:]...)
	return append(dst, '"')
}

// appendInt writes n in decimal. Two-digit numbers (offsets, most
// energies, rewards, steps of small matches) take a short path.
func appendInt(dst []byte, n int) []byte {
	if n > -100 && n < 100 {
		if n < 0 {
			dst = append(dst, '-')
			n = -n
		}
		if n < 10 {
			return append(dst, byte('0'+n))
		}
		return append(dst, byte('0'+n/10), byte('0'+n%10))
	}
	return strconv.AppendInt(dst, int64(n), 10)
}

func appendBool(dst []byte, b bool) []byte { return strconv.AppendBool(dst, b) }

// appendFloat writes f like JavaScript's Number.prototype.toString (and
// encoding/json): shortest round-trip digits, plain notation for magnitudes in
// [1e-6, 1e21), exponent notation without padding outside. 1.0 becomes 1.
// NaN and infinities have no JSON form.
func appendFloat(dst []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, fmt.Errorf("%v is not representable in JSON", f)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// strconv pads the exponent to two digits (1e-07); JSON writers don't.
		exp := dst[start:]
		if n := len(exp); n >= 4 && exp[n-4] == 'e' && exp[n-3] == '-' && exp[n-2] == '0' {
			exp[n-2] = exp[n-1]
			dst = dst[:len(dst)-1]
		}
	}
	return dst, nil
}

// appendArray writes list as a JSON array, each element by elem; a nil or
// empty list is [] (clients require every key, docs/protocol.md, "The step percept").
func appendArray[T any](dst []byte, list []T, elem func([]byte, T) []byte) []byte {
	dst = append(dst, '[')
	for i, v := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = elem(dst, v)
	}
	return append(dst, ']')
}

func appendPos(dst []byte, p Pos) []byte {
	dst = append(dst, '[')
	dst = appendInt(dst, p[0])
	dst = append(dst, ',')
	dst = appendInt(dst, p[1])
	return append(dst, ']')
}
