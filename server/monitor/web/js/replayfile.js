// Reading a compact replay file in the browser (docs/replays.md, "Compact
// format"), a port of package replays/compact's reader: the file is checked
// chunk by chunk (CRC-32C of every header and payload), indexed from its
// footer or, without a valid one, by walking its chunks, and damage becomes
// gaps with the same reasons as the Go reader gives. The result is what the
// server's endpoints would answer for the file (index.json, seg/{g}), so
// store.js shows a replay file exactly as a replay the server serves.
// zstd is decompressed by the vendored fzstd (js/vendor/fzstd.js, MIT).

import { decompress } from './vendor/fzstd.js';
import { Decoder, splitRecords } from './codec.js';

const magic = 'MASSIMRP';
const version = 1;
const fileHeaderSize = 9;
const chunkHeaderSize = 32;
const footerSize = 16;
const footerMagic = 'MRPINDEX';
const maxPayload = 256 << 20;
const noStep = -(2 ** 31);
const kindMeta = 'M'.charCodeAt(0);
const kindSteps = 'S'.charCodeAt(0);
const kindIndex = 'I'.charCodeAt(0);
const ascii = new TextDecoder('latin1');
const utf8 = new TextDecoder();

// crc32c is the Castagnoli CRC of bytes, eight bytes at a time (a
// 3,000-step replay is 1–2 MB, all of it checked while the page opens).
const crcTable = (() => {
  const t = new Uint32Array(8 * 256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[i] = c >>> 0;
  }
  for (let i = 0; i < 256; i++) {
    for (let k = 1; k < 8; k++) t[k * 256 + i] = (t[(k - 1) * 256 + i] >>> 8) ^ t[t[(k - 1) * 256 + i] & 0xff];
  }
  return t;
})();

export function crc32c(b) {
  const t = crcTable, n = b.length;
  let c = ~0, i = 0;
  for (; i + 8 <= n; i += 8) {
    c ^= b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24);
    c = t[1792 + (c & 0xff)] ^ t[1536 + ((c >>> 8) & 0xff)] ^ t[1280 + ((c >>> 16) & 0xff)] ^ t[1024 + (c >>> 24)] ^
      t[768 + b[i + 4]] ^ t[512 + b[i + 5]] ^ t[256 + b[i + 6]] ^ t[b[i + 7]];
  }
  for (; i < n; i++) c = t[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

// isReplayFile tells whether bytes start like a compact replay.
export function isReplayFile(bytes) {
  return bytes.length >= magic.length && ascii.decode(bytes.subarray(0, magic.length)) === magic;
}

const damaged = what => new Error(`${what}: damaged`);

// chunkHeader decodes and checks the header at off (as parseChunkHeader).
function chunkHeader(d, off) {
  if (d.length - off < chunkHeaderSize) throw damaged('chunk header cut off');
  if (ascii.decode(d.subarray(off, off + 4)) !== 'MRCK') throw damaged('no chunk header');
  const v = new DataView(d.buffer, d.byteOffset + off, chunkHeaderSize);
  if (crc32c(d.subarray(off, off + 28)) !== v.getUint32(28, true)) throw damaged('chunk header checksum mismatch');
  const h = {
    kind: d[off + 4], flags: d[off + 5], first: v.getInt32(8, true), count: v.getUint32(12, true),
    rawSize: v.getUint32(16, true), size: v.getUint32(20, true), checksum: v.getUint32(24, true),
  };
  if (h.size > maxPayload || h.rawSize > maxPayload) throw damaged(`chunk of ${h.size} bytes (${h.rawSize} raw) is too large`);
  return h;
}

// ReplayFile is a compact replay read into memory: its index and segments
// as the server's endpoints give them.
export class ReplayFile {
  // bytes: the whole file (Uint8Array). Throws only when the file is not a
  // compact replay or its match record is damaged.
  constructor(bytes) {
    this.data = bytes;
    this.raw = new Map(); // chunk offset → its decompressed payload
    const d = bytes;
    if (!isReplayFile(d) || d.length < fileHeaderSize) throw new Error('not a compact replay (no MASSIMRP header)');
    if (d[magic.length] !== version) throw new Error(`compact replay version ${d[magic.length]}, this page reads version ${version}`);
    let meta;
    try {
      const { h, raw } = this.readChunk(fileHeaderSize);
      if (h.kind !== kindMeta) throw damaged(`first chunk is ${JSON.stringify(String.fromCharCode(h.kind))}, not the match record`);
      meta = JSON.parse(utf8.decode(raw));
      this.metaEnd = fileHeaderSize + chunkHeaderSize + h.size;
    } catch (e) {
      throw new Error(`match record: ${e.message}`);
    }
    const st = meta.static || {};
    if (meta.format !== 'massim-go compact replay' || !(meta.keyframeInterval > 0) || !(st.width > 0) || !(st.height > 0)) {
      throw new Error('match record: not a massim-go compact replay or missing its grid');
    }
    this.meta = meta;
    this.interval = meta.keyframeInterval;
    this.scores = null;
    let found = this.fromFooter();
    this.indexed = !!found;
    if (!found) found = this.scan();
    this.link(found.refs, found.problems);
  }

  // checkChunk checks the chunk at off (header and payload checksums):
  // {h, payload}, the payload still compressed.
  checkChunk(off) {
    const d = this.data;
    const h = chunkHeader(d, Math.min(off, d.length));
    const end = off + chunkHeaderSize + h.size;
    if (end > d.length) throw damaged(`chunk at byte ${off} cut off (${d.length - off - chunkHeaderSize} of ${h.size} bytes)`);
    const payload = d.subarray(off + chunkHeaderSize, end);
    if (crc32c(payload) !== h.checksum) throw damaged(`chunk at byte ${off}: checksum mismatch`);
    return { h, payload };
  }

  // readChunk checks and decompresses the chunk at off: {h, raw}. Steps
  // chunks are decompressed when their segment is first asked for, not
  // while the file is indexed (the Go reader does both at once): a chunk
  // whose checksums hold and whose zstd frame does not decode then makes
  // its segment a gap from its start.
  readChunk(off) {
    const { h, payload } = this.checkChunk(off);
    let raw = this.raw.get(off);
    if (!raw) {
      try {
        raw = decompress(payload, new Uint8Array(h.rawSize));
      } catch (e) {
        throw damaged(`chunk at byte ${off}: zstd: ${e.message}`);
      }
      if (raw.length !== h.rawSize) throw damaged(`chunk at byte ${off}: ${raw.length} bytes instead of ${h.rawSize}`);
      this.raw.set(off, raw);
    }
    return { h, raw };
  }

  // fromFooter reads the index the writer left: {refs, problems}, or null
  // when there is none or it does not describe this file.
  fromFooter() {
    const d = this.data;
    if (d.length < this.metaEnd + footerSize || ascii.decode(d.subarray(d.length - 8)) !== footerMagic) return null;
    const v = new DataView(d.buffer, d.byteOffset + d.length - footerSize, 8);
    const at = v.getUint32(0, true) + v.getUint32(4, true) * 2 ** 32;
    if (at < this.metaEnd || at > d.length) return null;
    let idx;
    try {
      const { h, raw } = this.readChunk(at);
      if (h.kind !== kindIndex || at + chunkHeaderSize + h.size + footerSize !== d.length) return null;
      idx = JSON.parse(utf8.decode(raw));
    } catch {
      return null;
    }
    if (!idx || !Array.isArray(idx.chunks) || ((idx.scores || []).length !== idx.last + 2 && idx.last >= -1)) return null;
    const problems = [];
    for (const c of idx.chunks) {
      let h;
      try {
        h = chunkHeader(d, Math.min(c.offset, d.length));
      } catch {
        return null;
      }
      if (h.kind !== kindSteps || h.first !== c.first || h.count !== c.count) return null;
      try {
        this.checkChunk(c.offset);
      } catch (e) {
        problems.push({ step: c.first, err: e.message });
      }
    }
    this.scores = idx.scores;
    return { refs: idx.chunks, problems };
  }

  // scan walks the chunks one after the other; after a damaged header it
  // looks for the next chunk header.
  scan() {
    const d = this.data, refs = [], problems = [];
    let off = this.metaEnd;
    while (off < d.length) {
      let h;
      try {
        h = chunkHeader(d, off);
      } catch (e) {
        if (d.length - off < chunkHeaderSize) {
          if (d.length - off < footerSize || ascii.decode(d.subarray(d.length - 8)) !== footerMagic) {
            problems.push({ step: noStep, cut: true, err: `the file ends inside a chunk header at byte ${off}: the server stopped while writing it, or its disk was full or read-only` });
          }
          break;
        }
        problems.push({ step: noStep, err: `byte ${off}: ${e.message}` });
        const next = indexOf(d, off + 1);
        if (next < 0) break;
        off = next;
        continue;
      }
      const end = off + chunkHeaderSize + h.size;
      if (end > d.length) {
        problems.push({ step: h.kind === kindSteps ? h.first : noStep, cut: true,
          err: `the last chunk (from step ${h.first}) is cut off: the server stopped while writing it, or its disk was full or read-only` });
        break;
      }
      if (h.kind === kindSteps) {
        try {
          this.checkChunk(off);
        } catch (e) {
          problems.push({ step: h.first, err: e.message });
        }
        refs.push({ offset: off, first: h.first, count: h.count, keyframe: (h.flags & 1) !== 0 });
      }
      off = end;
    }
    return { refs, problems };
  }

  // link decides which chunks can be read (as link.go): intact ones that
  // start a segment with a keyframe or continue a readable chunk of their
  // segment; the rest become gaps or the problem of a replay ending early.
  link(refs, problems) {
    const bad = new Map(), loose = [];
    this.damaged = false;
    for (const p of problems) {
      this.damaged ||= !p.cut;
      if (p.step === noStep) loose.push(p.err);
      else if (!bad.has(p.step)) bad.set(p.step, p.err);
    }
    const causes = [];
    let next = noStep, seg = -1;
    this.chunks = [];
    for (const c of refs) {
      if (bad.has(c.first)) {
        causes.push({ step: c.first, err: bad.get(c.first) });
        next = noStep;
        continue;
      }
      const s = this.segmentOf(c.first);
      if (!c.keyframe && !(next === c.first && s === seg)) {
        next = noStep;
        continue;
      }
      this.chunks.push(c);
      next = c.first + c.count;
      seg = s;
    }
    this.chunks.sort((a, b) => a.first - b.first);
    const n = this.chunks.length;
    this.last = n > 0 ? this.chunks[n - 1].first + this.chunks[n - 1].count - 1 : -2;
    const cause = (from, to) => causes.find(c => c.step >= from && c.step <= to)?.err ?? loose.shift() ?? '';
    this.gaps = [];
    let expect = -1;
    for (const c of this.chunks) {
      if (c.first > expect) {
        const error = cause(expect, c.first - 1) || `steps ${expect}–${c.first - 1} are missing from the file`;
        this.gaps.push({ from: expect, to: c.first - 1, error });
      }
      expect = Math.max(expect, c.first + c.count);
    }
    const steps = this.meta.static.steps;
    this.complete = this.gaps.length === 0 && this.last === steps - 1;
    this.problem = '';
    if (this.last < steps - 1) {
      this.problem = cause(this.last + 1, steps - 1) ||
        `the replay ends after step ${this.last} of ${steps - 1} (${this.endCause(bad)})`;
    }
  }

  // endCause says why a replay without damage ends early (as link.go's
  // endCause): only a writer that closed the file (its index is there)
  // knows the simulation ended there.
  endCause(bad) {
    let first = noStep;
    for (const step of bad.keys()) {
      if (step > this.last && (first === noStep || step < first)) first = step;
    }
    if (first !== noStep) return bad.get(first); // a chunk cut off while it was written
    if (!this.indexed) {
      return 'the file ends without the index the server writes last: the server stopped writing it here, ' +
        "or its disk was full or read-only; the server's log says which";
    }
    return 'the simulation was cut short';
  }

  segmentOf(step) {
    return step < this.interval ? 0 : Math.floor(step / this.interval);
  }

  // segmentList lists the segments holding readable steps, ascending.
  segmentList() {
    const out = [];
    for (const c of this.chunks) {
      const g = this.segmentOf(c.first);
      if (out[out.length - 1] !== g) out.push(g);
    }
    return out;
  }

  // segment is what seg/{g} answers: {body, error}, body the records of
  // the segment, each after its length (the chunks' payloads one after
  // another), error why it ends early ('' when whole).
  segment(g) {
    const parts = [];
    let error = '';
    for (const c of this.chunks) {
      if (this.segmentOf(c.first) !== g) continue;
      let raw;
      try {
        raw = this.readChunk(c.offset).raw;
      } catch (e) {
        error = e.message;
        break;
      }
      const n = checkRecords(raw, c);
      parts.push(raw.subarray(0, n.end));
      if (n.error) {
        error = n.error;
        break;
      }
    }
    if (!parts.length && !error) error = `segment ${g}: compact: step not in replay`;
    return { body: concat(parts), error };
  }

  // stepScores is every step's scores by step + 1, teams in static order:
  // from the index, else decoded once.
  stepScores() {
    if (this.scores) return this.scores;
    const teams = this.meta.static.teams, table = new Array(this.last + 2).fill(null);
    const dec = new Decoder(this.meta.static.width, this.meta.static.height);
    try {
      for (const c of this.chunks) {
        if (c.keyframe) dec.reset();
        const raw = this.readChunk(c.offset).raw;
        for (const rec of splitRecords(raw.subarray(0, checkRecords(raw, c).end))) {
          const snap = dec.decode(rec).snapshot;
          const byTeam = new Map(snap.scores.map(([t, s]) => [t, s]));
          table[snap.step + 1] = teams.map(t => byTeam.get(t) ?? 0);
        }
      }
    } catch (e) {
      console.warn('replay scores', e); // the steps after it show the error when drawn
    }
    this.scores = table;
    return table;
  }

  // index is what index.json answers for the file.
  index() {
    const m = this.meta, st = m.static;
    const teams = {};
    for (const t of st.teams) teams[t] = { name: t };
    return {
      format: 'compact', sim: m.sim, teams: st.teams,
      static: { sim: m.sim, grid: { width: st.width, height: st.height }, teams, blockTypes: st.blockTypes || [], maxEnergy: st.maxEnergy, steps: st.steps },
      interval: this.interval, last: this.last, complete: this.complete, finished: true,
      segments: this.segmentList(), gaps: this.gaps, problem: this.problem || undefined, scores: this.stepScores(),
      matchStart: m.matchStart,
    };
  }
}

// checkRecords checks that a chunk's payload splits into its records (as
// chunkRecords): {end, error}, end the bytes of whole records before a bad one.
function checkRecords(raw, c) {
  let off = 0, n = 0;
  while (off < raw.length) {
    let len = 0, mul = 1, k = 0, b;
    do {
      if (off + k >= raw.length || k >= 10) return { end: off, error: `chunk of step ${c.first}: bad record length: damaged` };
      b = raw[off + k++];
      len += (b & 0x7f) * mul;
      mul *= 128;
    } while (b >= 0x80);
    if (len > raw.length - off - k) return { end: off, error: `chunk of step ${c.first}: bad record length: damaged` };
    off += k + len;
    n++;
  }
  if (n !== c.count) return { end: off, error: `chunk of step ${c.first} holds ${n} records, not ${c.count}: damaged` };
  return { end: off, error: '' };
}

// indexOf finds the next "MRCK" in d from off, -1 when there is none.
function indexOf(d, off) {
  for (let i = off; i + 4 <= d.length; i++) {
    if (d[i] === 0x4d && d[i + 1] === 0x52 && d[i + 2] === 0x43 && d[i + 3] === 0x4b) return i;
  }
  return -1;
}

function concat(parts) {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
