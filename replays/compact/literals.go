package compact

import (
	"encoding/binary"
	"errors"
	"math/bits"

	"github.com/klauspost/compress/huff0"
)

// appendLiteralsFrame appends src to dst as one zstd frame whose blocks
// hold Huffman-coded literals and no sequences: zstd without the search
// for repeated strings. Any zstd decoder reads it (it is the frame a zstd
// encoder makes for data in which it finds no match). It is deterministic:
// the same src gives the same bytes.
//
// Why: the chunks of a running match are compressed between steps on the
// server's core, and the search for matches is what costs there. zstd's
// fastest level looks every position up in a 256 KB hash table; between two
// chunks the step loop's own work pushes that table out of the caches, so in
// a server each 10-step chunk paid ~90 µs on `massim bench -scenario S1`
// (17 µs with the table warm) and evicted as much of the server's own data.
// The Huffman coder works on a few KB of tables. It costs 1.4–1.6 times the
// bytes; offline writers (convert) keep the match search (Matches).
//
// Layout (little endian): the magic FD2FB528; a frame header descriptor
// 0xA0 (single segment, 4-byte content size, no checksum, no dictionary)
// and the content size; then blocks of at most 128 KB of content, each a
// 3-byte header (bit 0: last block; bits 1–2: type, 0 raw, 1 RLE,
// 2 compressed; bits 3–23: size of the body) and its body. A compressed
// body is a literals section (a 3–5 byte header: type "compressed", the
// stream count and both sizes; then huff0's table description and
// streams) and a sequences section saying "no sequences" (one zero byte).
// A block that Huffman coding would not shrink is stored raw; one of a
// single repeated byte, as RLE.
func appendLiteralsFrame(dst, src []byte, s *huff0.Scratch) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, zstdMagic)
	dst = append(dst, 0xA0)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(src)))
	if len(src) == 0 {
		return appendBlockHeader(dst, true, blockRaw, 0)
	}
	for len(src) > 0 {
		n := min(len(src), maxBlockContent)
		block := src[:n]
		src = src[n:]
		dst = appendLiteralsBlock(dst, block, len(src) == 0, s)
	}
	return dst
}

const (
	zstdMagic       = 0xFD2FB528
	maxBlockContent = 128 << 10 // zstd's largest block

	blockRaw        = 0
	blockRLE        = 1
	blockCompressed = 2
)

func appendBlockHeader(dst []byte, last bool, kind, size int) []byte {
	h := uint32(kind)<<1 | uint32(size)<<3
	if last {
		h |= 1
	}
	return append(dst, byte(h), byte(h>>8), byte(h>>16))
}

// appendLiteralsBlock appends one block of at most maxBlockContent bytes.
func appendLiteralsBlock(dst, block []byte, last bool, s *huff0.Scratch) []byte {
	// Every frame stands alone: a table is never carried over.
	s.Reuse = huff0.ReusePolicyNone
	single := len(block) < 1024 // one Huffman stream; zstd's 10-bit sizes
	var out []byte
	var err error
	if single {
		out, _, err = huff0.Compress1X(block, s)
	} else {
		out, _, err = huff0.Compress4X(block, s)
	}
	if err == nil && len(out) < len(block) {
		at := len(dst)
		dst = appendBlockHeader(dst, last, blockCompressed, 0) // size below
		dst = appendLiteralsHeader(dst, len(out), len(block), single)
		dst = append(dst, out...)
		dst = append(dst, 0) // no sequences
		if size := len(dst) - at - 3; size < len(block) {
			appendBlockHeader(dst[:at], last, blockCompressed, size)
			return dst
		}
		dst = dst[:at] // no smaller than raw
	}
	if errors.Is(err, huff0.ErrUseRLE) {
		return append(appendBlockHeader(dst, last, blockRLE, len(block)), block[0])
	}
	return append(appendBlockHeader(dst, last, blockRaw, len(block)), block...)
}

// appendLiteralsHeader appends the header of a compressed literals section:
// bits 0–1 the type (2: compressed, with its table description), bits 2–3
// the size format, then the regenerated and the compressed size in 10, 14
// or 18 bits each. Size format 0 is one stream with 10-bit sizes (a block
// of less than 1024 bytes); 2 and 3 are four streams with 14 and 18-bit
// sizes (format 1, four streams with 10-bit sizes, would fit no block of
// 1024 bytes or more).
func appendLiteralsHeader(dst []byte, compressed, regenerated int, single bool) []byte {
	h := uint64(blockCompressed)
	var n int
	switch {
	case single:
		h |= uint64(regenerated)<<4 | uint64(compressed)<<14
		n = 3
	case max(bits.Len32(uint32(compressed)), bits.Len32(uint32(regenerated))) <= 14:
		h |= 2<<2 | uint64(regenerated)<<4 | uint64(compressed)<<18
		n = 4
	default: // ≤ 18 bits: a block holds at most 128 KB
		h |= 3<<2 | uint64(regenerated)<<4 | uint64(compressed)<<22
		n = 5
	}
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], h)
	return append(dst, b[:n]...)
}
