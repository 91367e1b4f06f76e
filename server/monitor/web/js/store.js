// Store holds one simulation: its static world, a bounded cache of decoded
// snapshots, the score table and the gaps. A replay (/replays/<id>/) and the
// running simulation's history (/live/history/) look the same: index.json
// (static world, segments, gaps, every step's scores) and seg/<g>, the step
// records of segment g (a keyframe and the changes after it, decoded by
// codec.js). Snapshots it lacks are loaded a segment at a time (fetch.js
// asks for them).

import { Decoder, splitRecords, unpackSegments } from './codec.js';
import { getJSON, getRecords, takeEarly } from './fetch.js';

const cacheLimit = 1500; // snapshots kept in memory
const rawLimit = 64 << 20; // bytes of records loaded ahead at most
const fillAtOnce = 3; // segment requests at a time while loading a replay ahead
const checkEvery = 10; // steps between decoding checkpoints
const checkLimit = 400; // checkpoints kept at most
const retryAfter = 1000; // ms before a segment that failed or was short is asked for again
const showWait = 150; // ms that loads wait at most for the page to show a step that came alone (shown)
const retrySoon = 150; // ms, instead, when the steps it lacked are known to exist

export class Store {
  // local, when set, is a replay file read in the page (replayfile.js):
  // the store takes its index and segments from it instead of asking the
  // server.
  constructor(base, onChange, local = null) {
    this.base = base; // URL prefix ending in '/'
    this.onChange = onChange;
    this.local = local;
    this.static = null;
    this.sim = '';
    this.teams = [];
    this.blockTypes = [];
    this.interval = 100;
    this.last = -2; // last step available
    this.finished = false;
    this.complete = false;
    this.problem = ''; // why the replay ends early
    this.gaps = []; // [{from, to, error}]: steps that cannot be shown
    this.segments = null; // Set of segments that hold steps (null: any)
    this.frames = new Map(); // step → snapshot
    this.scores = new Map(); // step → [score per team]
    this.scoresVersion = 0; // counts the changes of scores
    this.loading = new Map(); // segment → promise
    this.stepLoads = new Map(); // step → promise: the step alone, as a keyframe (step/{s})
    this.stepNext = null; // the step to ask for alone when that answer is in (one at a time)
    this.afterShown = null; // {step, load}: loads held until the page showed a step that came alone
    this.awaited = new Set(); // segments loading in the background that the page asked for since
    this.raw = new Map(); // segment → its records, not decoded yet
    this.rawSize = new Map(); // segment → bytes of its records
    this.rawBytes = 0; // their sum
    this.cursors = new Map(); // segment → {dec, i, last}: where decoding stopped
    this.checkpoints = new Map(); // step → {i, table, snap}: a decoder's state after it
    this.fill = false; // load every segment in the background
    this.ahead = null; // {targets, k}: what decodeAhead decodes to, and how far it got
    this.aheadDone = false;
    this.packed = null; // the request for every segment at once, while it runs
    this.failedAt = new Map(); // segment → time of the last failed or short load
    this.indexFetch = null;
    this.indexAgain = false;
  }

  query() {
    return this.sim ? `?sim=${encodeURIComponent(this.sim)}` : '';
  }

  // load reads the index; for the live history it runs again whenever the
  // page notices steps it has not seen (a late join, coalesced frames).
  load() {
    if (this.indexFetch) {
      this.indexAgain = true;
      return this.indexFetch;
    }
    this.indexFetch = this.fetchIndex().finally(() => {
      this.indexFetch = null;
      if (this.indexAgain) {
        this.indexAgain = false;
        this.load().catch(e => console.warn('index', e));
      }
    });
    return this.indexFetch;
  }

  async fetchIndex() {
    const idx = this.local ? this.local.index() : await getJSON(this.base + 'index.json' + this.query());
    if (this.static && idx.sim !== this.sim) return; // another simulation by now
    if (!this.static) this.setMeta(idx);
    this.last = Math.max(this.last, idx.last);
    this.finished = idx.finished;
    this.complete = idx.complete;
    this.problem = idx.problem || '';
    this.gaps = idx.gaps || [];
    if (idx.format !== 'live') this.segments = new Set(idx.segments || []);
    (idx.scores || []).forEach((s, i) => {
      if (s && !this.scores.has(i - 1)) {
        this.scores.set(i - 1, s);
        this.scoresVersion++;
      }
    });
    this.onChange();
  }

  // setMeta starts the store from an index or a live meta message.
  setMeta(m) {
    this.setStatic(m.static);
    this.interval = m.interval || 100;
  }

  setStatic(st) {
    this.static = st;
    this.sim = st.sim;
    this.teams = Object.keys(st.teams);
    this.blockTypes = [...st.blockTypes].sort();
  }

  // gapAt returns the gap holding step, if any.
  gapAt(step) {
    return this.gaps.find(g => step >= g.from && step <= g.to) || null;
  }

  // put adds a snapshot received live. Steps the page skipped (a late
  // join, frames batched under load) are filled in from the index.
  put(snap) {
    const gap = snap.step > 0 && !this.scores.has(snap.step - 1);
    this.remember(snap);
    if (snap.step > this.last) this.last = snap.step;
    if (gap && this.static) this.load().catch(e => console.warn('index', e));
  }

  remember(snap) {
    this.frames.set(snap.step, snap);
    this.noteScores(snap);
    if (this.frames.size > cacheLimit) this.evict(snap.step);
  }

  noteScores(snap) {
    const byTeam = new Map(snap.scores.map(([t, s]) => [t, s]));
    const scores = this.teams.map(t => byTeam.get(t) ?? 0);
    const known = this.scores.get(snap.step);
    if (!known || known.some((v, i) => v !== scores[i])) {
      this.scores.set(snap.step, scores);
      this.scoresVersion++;
    }
  }

  evict(keep) {
    const steps = [...this.frames.keys()].sort((a, b) => Math.abs(b - keep) - Math.abs(a - keep));
    for (const s of steps.slice(0, this.frames.size - cacheLimit * 0.8)) this.frames.delete(s);
  }

  segmentOf(step) {
    return step < this.interval ? 0 : Math.floor(step / this.interval);
  }

  segmentEnd(g) {
    return g === 0 ? this.interval - 1 : (g + 1) * this.interval - 1;
  }

  // get returns the snapshot of step: from the cache, else decoded from its
  // segment's records (only up to step), else null while the segment loads
  // (in the background: no onChange when it arrives). What the background
  // decodes (the statistics walk, every step in turn) is not kept: the
  // cache holds what the page showed, and the walk's thousands of snapshots
  // only made the garbage collector copy them, in the frames of the seeks
  // too.
  get(step, background = false) {
    const snap = this.frames.get(step);
    if (snap || this.gapAt(step)) return snap ?? null;
    const g = this.segmentOf(step);
    let found = null;
    if (this.local) this.takeLocal(g); // a replay file: its segments are at hand
    if (this.raw.has(g)) found = this.decodeTo(g, step);
    if (found && !background) this.remember(found);
    if (!found && !this.raw.has(g) && !this.gapAt(step) && !this.stepLoads.has(step)) this.fetchSegment(g, background);
    return found ?? null;
  }

  // whenLoaded resolves when step's segment has arrived (or failed): its
  // steps can be drawn at once.
  async whenLoaded(step) {
    this.get(step);
    await this.loading.get(this.segmentOf(step));
  }

  // coming tells whether step's data is on its way: it is not here and
  // neither are its segment's records, but one of them is loading.
  coming(step) {
    const g = this.segmentOf(step);
    return !this.frames.has(step) && !this.raw.has(g) && (this.stepLoads.has(step) || this.loading.has(g));
  }

  prefetch(step) {
    if (step <= this.last && !this.frames.has(step) && !this.gapAt(step)) this.fetchSegment(this.segmentOf(step));
  }

  // seekTo prepares a seek to step: when its segment is not here, the step
  // alone is asked for (step/{s}: one keyframe, a tenth of a segment, and
  // nothing to replay after it), and its segment right after it, for the
  // steps around it.
  seekTo(step) {
    if (this.afterShown && this.afterShown.step !== step) this.shown(this.afterShown.step); // the page moved on
    if (step > this.last || this.frames.has(step) || this.gapAt(step) || !this.static || this.local) return;
    const g = this.segmentOf(step);
    if (this.raw.has(g) || this.stepLoads.has(step) || (this.segments && !this.segments.has(g))) return;
    if (this.stepLoads.size) {
      // A slider dragged across the replay asks for the step it stops at,
      // not for every step it passed.
      this.stepNext = step;
      return;
    }
    const sim = this.sim;
    const p = getRecords(`${this.base}step/${step}${this.query()}`, null, false, 'high')
      .then(({ body }) => {
        if (sim !== this.sim || this.frames.has(step)) return true;
        const [record] = splitRecords(body);
        const snap = new Decoder(this.static.grid.width, this.static.grid.height).decode(record ?? body).snapshot;
        if (snap.step !== step) throw new Error(`step ${step}: the answer holds step ${snap.step}`);
        this.remember(snap);
        this.onChange();
        return true;
      })
      .catch(e => {
        console.warn('step', e); // the segment shows it, or why not
        return false;
      })
      .then(ok => {
        this.stepLoads.delete(step);
        if (sim !== this.sim) return;
        const next = this.stepNext;
        this.stepNext = null;
        const load = () => {
          this.fetchSegment(g, ok); // the page waits for it when the step failed
          this.fillNext();
        };
        if (!ok || next !== null) {
          load();
          if (next !== null) this.seekTo(next);
          return;
        }
        // Its segment and the background loading wait until the page has
        // shown the step: their answers, arriving while the page draws it,
        // would take the page's thread (and the server's) from getting it
        // on screen. Not for long, whatever the page does.
        this.afterShown = { step, load };
        setTimeout(() => this.shown(step), showWait);
      });
    this.stepLoads.set(step, p);
  }

  // shown tells the store that the page has shown step (drawn, and the
  // frame is on its way to the screen): the loads held for it start.
  shown(step) {
    const held = this.afterShown;
    if (!held || held.step !== step) return;
    this.afterShown = null;
    held.load();
  }

  fetchSegment(g, background = false) {
    if (this.local) return this.takeLocal(g);
    if (this.loading.has(g) && !background) this.awaited.add(g); // a background load the page now waits for
    if (this.raw.has(g) || this.loading.has(g) || !this.static) return;
    if (this.segments && !this.segments.has(g)) return;
    const failed = this.failedAt.get(g);
    if (failed && performance.now() - failed < retryAfter) return;
    const sim = this.sim;
    const p = getRecords(`${this.base}seg/${g}${this.query()}`, takeEarly(this.base, g), background, 'high')
      .then(({ body, error }) => {
        if (sim !== this.sim) return;
        this.addSegment(g, body, error);
        if (this.awaited.delete(g) || !background) this.onChange();
      })
      .catch(e => {
        this.failedAt.set(g, performance.now());
        console.warn('segment', g, e.message);
        // The page waits for it: let it ask again once the pause is over.
        if (this.awaited.delete(g) || !background) setTimeout(() => this.onChange(), retryAfter);
      })
      .finally(() => {
        this.loading.delete(g);
        this.fillNext();
      });
    this.loading.set(g, p);
  }

  // takeLocal adds segment g of a replay file read in the page.
  takeLocal(g) {
    if (this.raw.has(g) || !this.static || (this.segments && !this.segments.has(g))) return;
    if (this.gapAt(g === 0 ? -1 : g * this.interval)) return;
    const { body, error } = this.local.segment(g);
    this.addSegment(g, body, error);
  }

  // addSegment keeps a segment's records; they are decoded when a step of
  // it is asked for. A segment the server could not read whole is a gap
  // from its start, with the server's reason.
  addSegment(g, body, serverError) {
    if (serverError) {
      this.addGap(g === 0 ? -1 : g * this.interval, serverError, g);
      return;
    }
    this.dropSegment(g);
    this.raw.set(g, splitRecords(body));
    this.rawSize.set(g, body.length);
    this.rawBytes += body.length;
  }

  addGap(from, error, g) {
    const to = Math.min(this.segmentEnd(g), this.last);
    if (from <= to && !this.gapAt(from)) this.gaps = [...this.gaps, { from, to, error }];
  }

  // decodeTo decodes segment g's records up to step and returns its
  // snapshot (null: not in the records). It goes on from the
  // nearest point before step where decoding stopped or left a checkpoint
  // (every checkEvery steps), so a seek decodes a few records, not the
  // whole segment from its keyframe.
  decodeTo(g, step) {
    const records = this.raw.get(g);
    let c = this.cursors.get(g);
    const past = c && c.last !== null && c.last >= step;
    if (!c || past || (c.last ?? -2) < step - checkEvery) {
      const r = this.resumeAt(g, step);
      if (!c || past || (r.last ?? -2) > (c.last ?? -2)) c = r;
    }
    this.cursors.set(g, c);
    while (c.i < records.length && (c.last === null || c.last < step)) {
      let snap;
      try {
        snap = c.dec.decode(records[c.i]).snapshot;
      } catch (e) {
        // The steps after the last good one cannot be shown: a gap with the reason.
        this.dropSegment(g);
        this.addGap(c.last === null ? (g === 0 ? -1 : g * this.interval) : c.last + 1, e.message, g);
        return null;
      }
      c.i++;
      c.last = snap.step;
      if (c.last % checkEvery === 0) this.checkpoint(c.last, { i: c.i, table: c.dec.table, snap });
      this.noteScores(snap);
      if (c.last > this.last) this.last = c.last;
    }
    const found = c.last === step ? c.dec.prev : null;
    if (c.i >= records.length && (c.last === null || c.last < this.segmentEnd(g)) && step > (c.last ?? -2)) {
      // The open segment of a running simulation: it grows; ask again
      // later, soon when later steps came live already (the history has
      // every step the feed sent).
      const soon = this.last > (c.last ?? -2);
      this.dropSegment(g);
      this.failedAt.set(g, performance.now() - (soon ? retryAfter - retrySoon : 0));
    }
    return found;
  }

  // decodeAhead decodes a replay's segments ahead of the page's seeks, for
  // about budget ms a call, and tells whether it did so (false: nothing
  // left, or nothing loaded yet). A seek into a segment whose steps the
  // page has not decoded decodes every record from the segment's keyframe
  // (up to 99) on the page's thread while the page waits: 10–20 ms right
  // after opening, before the decoder is optimised, and far more on a busy
  // machine. This leaves checkpoints every checkEvery steps, so that a seek
  // decodes at most that many records: first in the last segment, whole
  // (its last step is where the End key goes, and the statistics walk,
  // from the first step on, reaches it last), then in all the others a
  // tenth at a time (each round takes every segment checkEvery steps
  // further), from the end, so that a seek anywhere soon decodes fewer
  // records, not only one into the segments done first. It uses the
  // statistics walk's time (frames.js): steps decoded twice, the walk's
  // table complete later, seeks cheap sooner. It starts once the replay
  // read at once is in (fillAll; a replay file: at once, each segment
  // decompressed as it comes to it) and leaves out segments that are not
  // (loaded one by one later); replays whose checkpoints would not all be
  // kept get only the last segment.
  decodeAhead(budget) {
    if (this.aheadDone || this.last < 0 || !this.segments || !this.fill || this.packed) return false;
    const a = (this.ahead ??= this.aheadPlan());
    const until = performance.now() + budget;
    let worked = false;
    for (; a.k < a.targets.length; a.k++) {
      const [g, step] = a.targets[a.k];
      if (this.local && this.rawBytes <= rawLimit) this.takeLocal(g);
      const records = this.raw.get(g), first = g === 0 ? -1 : g * this.interval;
      if (!records || step > first + records.length - 1 || this.checkpoints.has(step) || this.cursors.get(g)?.last === step) continue;
      this.decodeTo(g, step);
      worked = true;
      if (performance.now() >= until) {
        a.k++;
        return true;
      }
    }
    this.aheadDone = true;
    return worked;
  }

  // aheadPlan lists what decodeAhead decodes to, in order: [segment, step].
  aheadPlan() {
    const last = this.segmentOf(this.last);
    const targets = [];
    for (let s = last * this.interval + checkEvery; s < this.last; s += checkEvery) targets.push([last, s]);
    targets.push([last, this.last]);
    const others = [...this.segments].filter(g => g < last).sort((x, y) => y - x);
    if ((others.length + 1) * Math.ceil(this.interval / checkEvery) <= checkLimit) {
      for (let d = checkEvery; d < this.interval; d += checkEvery) for (const g of others) targets.push([g, g * this.interval + d]);
    }
    return { targets, k: 0 };
  }

  // checkpoint keeps a decoder's state after step; far from step, the
  // oldest go when there are too many (each holds a snapshot).
  checkpoint(step, state) {
    this.checkpoints.set(step, state);
    if (this.checkpoints.size <= checkLimit) return;
    const far = [...this.checkpoints.keys()].sort((a, b) => Math.abs(b - step) - Math.abs(a - step));
    for (const s of far.slice(0, checkLimit / 4)) this.checkpoints.delete(s);
  }

  // resumeAt is a decoding position in segment g at the latest checkpoint
  // before step, or at its keyframe.
  resumeAt(g, step) {
    const dec = new Decoder(this.static.grid.width, this.static.grid.height);
    const first = g === 0 ? -1 : g * this.interval;
    for (let s = step - 1 - ((step - 1) % checkEvery + checkEvery) % checkEvery; s >= first; s -= checkEvery) {
      const cp = this.checkpoints.get(s);
      if (!cp) continue;
      dec.prev = cp.snap;
      dec.table = cp.table;
      return { dec, i: cp.i, last: s };
    }
    return { dec, i: 0, last: null };
  }

  dropSegment(g) {
    this.rawBytes -= this.rawSize.get(g) ?? 0;
    this.rawSize.delete(g);
    this.raw.delete(g);
    this.cursors.delete(g);
    const first = g === 0 ? -1 : g * this.interval;
    for (let s = Math.max(0, first); s <= this.segmentEnd(g); s += checkEvery) this.checkpoints.delete(s);
  }

  // fillNext loads in the background, a few at a time, every segment of a
  // replay the page has not asked for yet, so that a seek anywhere needs no
  // download. Records are kept as they came (a few hundred bytes a step).
  fillNext() {
    // A step asked for alone is not kept waiting by the page reading
    // segments the background asked for.
    if (!this.fill || !this.segments || this.packed || this.stepLoads.size || this.afterShown) return;
    for (const g of this.segments) {
      if (this.loading.size >= fillAtOnce || this.rawBytes > rawLimit) return;
      if (!this.raw.has(g) && !this.loading.has(g) && !this.failedAt.has(g) && !this.gapAt(g === 0 ? -1 : g * this.interval)) {
        this.fetchSegment(g, true);
      }
    }
  }

  // fillAll loads the rest of a replay: every segment in one answer
  // (…/segments, which index.html asked for before the modules loaded),
  // then, one segment at a time, whatever that did not bring (a server
  // without it, an official replay folder, a failure). A seek then finds
  // its step in the page instead of waiting for the network.
  fillAll() {
    if (this.fill) return;
    this.fill = true;
    if (!this.segments) return;
    // A replay file read in the page has nothing to download: its
    // segments are decompressed when a step of theirs is first decoded, by
    // a seek, the statistics walk or decodeAhead, which starts at once.
    // (Decompressing all of them first, about 70 ms of the page's thread
    // for 3,000 steps, kept decodeAhead from the last segment's steps,
    // which also get the decoder optimised, while the first seeks came.)
    if (this.local) return;
    const sim = this.sim;
    this.packed = getRecords(`${this.base}segments${this.query()}`, takeEarly(this.base, 'all'), true, 'low')
      .then(({ body }) => {
        if (sim !== this.sim) return;
        for (const { g, error, body: seg } of unpackSegments(body)) {
          if (this.rawBytes > rawLimit) break;
          if (!this.raw.has(g) && !this.gapAt(g === 0 ? -1 : g * this.interval)) this.addSegment(g, seg, error);
        }
        this.onChange();
      })
      .catch(e => console.warn('segments', e.message))
      .finally(() => {
        this.packed = null;
        this.fillNext();
      });
  }
}
