package compact

import "strconv"

// appendJSON appends the index as encoding/json writes it (the same bytes:
// TestIndexJSON_SameAsEncodingJSON), without reflection. A server writes
// one index per replay, at its end: with encoding/json, building the
// encoder of these types and walking every step's scores through
// reflection was a noticeable part of the replay's cost on short matches
// (`massim bench -scenario S1`: ~0.2 ms of a match's ~170 ms of server CPU).
func (x *Index) appendJSON(b []byte) []byte {
	b = append(b, `{"complete":`...)
	b = strconv.AppendBool(b, x.Complete)
	b = append(b, `,"last":`...)
	b = strconv.AppendInt(b, int64(x.Last), 10)
	b = append(b, `,"chunks":`...)
	if x.Chunks == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, c := range x.Chunks {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"offset":`...)
			b = strconv.AppendInt(b, c.Offset, 10)
			b = append(b, `,"first":`...)
			b = strconv.AppendInt(b, int64(c.First), 10)
			b = append(b, `,"count":`...)
			b = strconv.AppendInt(b, int64(c.Count), 10)
			b = append(b, `,"keyframe":`...)
			b = strconv.AppendBool(b, c.Keyframe)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"scores":`...)
	b = appendIntLists(b, x.Scores)
	return append(b, '}')
}

// appendIntLists appends lists as JSON: null for a nil list (also for nil
// lists inside it), as encoding/json writes nil slices.
func appendIntLists(b []byte, lists [][]int64) []byte {
	if lists == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, l := range lists {
		if i > 0 {
			b = append(b, ',')
		}
		if l == nil {
			b = append(b, "null"...)
			continue
		}
		b = append(b, '[')
		for j, v := range l {
			if j > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, v, 10)
		}
		b = append(b, ']')
	}
	return append(b, ']')
}
