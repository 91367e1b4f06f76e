package compact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strconv"
)

// appendJSON appends the meta document as encoding/json writes it (the
// same bytes: TestMetaJSON_SameAsEncodingJSON), without reflection: a
// server writes one per replay, and encoding/json built its encoders for
// these types, by reflection, at the first replay of every process (~0.15
// ms, a tenth of a percent of `massim bench -scenario S1`'s whole match).
func (m *Meta) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"format":`...)
	b = appendJSONString(b, m.Format)
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, int64(m.Version), 10)
	b = append(b, `,"sim":`...)
	b = appendJSONString(b, m.Sim)
	start, err := m.MatchStart.MarshalJSON()
	if err != nil {
		return b, err
	}
	b = append(b, `,"matchStart":`...)
	b = append(b, start...)
	s := &m.Static
	b = append(b, `,"static":{"width":`...)
	b = strconv.AppendInt(b, int64(s.Width), 10)
	b = append(b, `,"height":`...)
	b = strconv.AppendInt(b, int64(s.Height), 10)
	b = append(b, `,"teams":`...)
	b = appendJSONStrings(b, s.Teams)
	b = append(b, `,"blockTypes":`...)
	b = appendJSONStrings(b, s.BlockTypes)
	b = append(b, `,"maxEnergy":`...)
	b = strconv.AppendInt(b, int64(s.MaxEnergy), 10)
	b = append(b, `,"steps":`...)
	b = strconv.AppendInt(b, int64(s.Steps), 10)
	b = append(b, `},"keyframeInterval":`...)
	b = strconv.AppendInt(b, int64(m.Interval), 10)
	b = append(b, `,"chunkSteps":`...)
	b = strconv.AppendInt(b, int64(m.ChunkSteps), 10)
	b = append(b, `,"origin":`...)
	b = appendJSONString(b, m.Origin)
	if m.Record != nil {
		b = append(b, `,"record":`...)
		if b, err = m.Record.appendJSON(b); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

func (r *Record) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"seed":`...)
	b = strconv.AppendInt(b, r.Seed, 10)
	b = append(b, `,"teams":`...)
	b = appendJSONList(b, r.Teams, func(b []byte, t Team) []byte {
		b = append(b, `{"name":`...)
		b = appendJSONString(b, t.Name)
		b = append(b, `,"prefix":`...)
		b = appendJSONString(b, t.Prefix)
		return append(b, '}')
	})
	b = append(b, `,"agents":`...)
	b = appendJSONStrings(b, r.Agents)
	b = append(b, `,"match":`...)
	if r.Match == nil {
		b = append(b, "null"...)
	} else {
		// What encoding/json does with a RawMessage: compact it, with
		// <, >, & and U+2028/9 escaped.
		var compact bytes.Buffer
		if err := json.Compact(&compact, r.Match); err != nil {
			return b, err
		}
		escaped := bytes.NewBuffer(b)
		json.HTMLEscape(escaped, compact.Bytes())
		b = escaped.Bytes()
	}
	if len(r.Files) > 0 {
		b = append(b, `,"files":{`...)
		paths := make([]string, 0, len(r.Files))
		for p := range r.Files {
			paths = append(paths, p)
		}
		slices.Sort(paths) // encoding/json's order
		for i, p := range paths {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, p)
			b = append(b, ':')
			if r.Files[p] == nil {
				b = append(b, "null"...)
				continue
			}
			b = append(b, '"')
			b = base64.StdEncoding.AppendEncode(b, r.Files[p])
			b = append(b, '"')
		}
		b = append(b, '}')
	}
	b = append(b, `,"agentTimeoutMs":`...)
	b = strconv.AppendInt(b, r.AgentTimeoutMs, 10)
	return append(b, '}'), nil
}

// appendJSONString appends s as encoding/json quotes it (HTML characters
// escaped, invalid UTF-8 replaced).
func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always encodes
	return append(b, q...)
}

// appendJSONStrings appends a list of strings; nil is null.
func appendJSONStrings(b []byte, list []string) []byte {
	return appendJSONList(b, list, appendJSONString)
}
