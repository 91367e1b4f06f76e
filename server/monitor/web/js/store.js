// Store holds one simulation: its static world, a bounded cache of decoded
// snapshots, the score table and the gaps. A replay (/replays/<id>/) and the
// running simulation's history (/live/history/) look the same: index.json
// (static world, segments, gaps, every step's scores) and seg/<g>, the step
// records of segment g (a keyframe and the changes after it, decoded by
// codec.js). Snapshots it lacks are loaded a segment at a time.

import { Decoder, splitRecords } from './codec.js';

const cacheLimit = 1500; // snapshots kept in memory

export class Store {
  constructor(base, onChange) {
    this.base = base; // URL prefix ending in '/'
    this.onChange = onChange;
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
    this.loading = new Map(); // segment → promise
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
    const idx = await getJSON(this.base + 'index.json' + this.query());
    if (this.static && idx.sim !== this.sim) return; // another simulation by now
    if (!this.static) this.setMeta(idx);
    this.last = Math.max(this.last, idx.last);
    this.finished = idx.finished;
    this.complete = idx.complete;
    this.problem = idx.problem || '';
    this.gaps = idx.gaps || [];
    if (idx.format !== 'live') this.segments = new Set(idx.segments || []);
    (idx.scores || []).forEach((s, i) => {
      if (s && !this.scores.has(i - 1)) this.scores.set(i - 1, s);
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
    const byTeam = new Map(snap.scores.map(([t, s]) => [t, s]));
    this.scores.set(snap.step, this.teams.map(t => byTeam.get(t) ?? 0));
    if (this.frames.size > cacheLimit) this.evict(snap.step);
  }

  evict(keep) {
    const steps = [...this.frames.keys()].sort((a, b) => Math.abs(b - keep) - Math.abs(a - keep));
    for (const s of steps.slice(0, this.frames.size - cacheLimit * 0.8)) this.frames.delete(s);
  }

  segmentOf(step) {
    return step < this.interval ? 0 : Math.floor(step / this.interval);
  }

  // get returns the snapshot of step if loaded, else starts loading it.
  get(step) {
    const snap = this.frames.get(step);
    if (snap) return snap;
    this.wanted = step;
    if (!this.gapAt(step)) this.fetchSegment(this.segmentOf(step));
    return null;
  }

  prefetch(step) {
    if (step <= this.last && !this.frames.has(step) && !this.gapAt(step)) this.fetchSegment(this.segmentOf(step));
  }

  fetchSegment(g) {
    if (this.loading.has(g) || !this.static) return;
    if (this.segments && !this.segments.has(g)) return;
    const failed = this.failedAt.get(g);
    if (failed && performance.now() - failed < 1000) return;
    const sim = this.sim;
    const p = fetch(`${this.base}seg/${g}${this.query()}`, { cache: 'no-store' })
      .then(async r => {
        if (!r.ok) throw new Error(`segment ${g}: ${r.status}`);
        const body = new Uint8Array(await r.arrayBuffer());
        if (sim !== this.sim) return;
        await this.decodeSegment(g, body, r.headers.get('X-Replay-Error'));
      })
      .catch(e => {
        this.failedAt.set(g, performance.now());
        console.warn('segment', g, e);
      })
      .finally(() => this.loading.delete(g));
    this.loading.set(g, p);
  }

  // decodeSegment decodes a segment's records in order. The step the page
  // waits for is shown first: the records up to it are decoded at once,
  // the rest in small batches after the page has drawn it.
  async decodeSegment(g, body, serverError) {
    const dec = new Decoder(this.static.grid.width, this.static.grid.height);
    const records = splitRecords(body);
    const end = g === 0 ? this.interval - 1 : (g + 1) * this.interval - 1;
    let last = null;
    let error = serverError;
    let i = 0;
    const decodeUntil = stop => {
      for (; i < records.length && !error; i++) {
        let step;
        try {
          step = dec.decode(records[i]);
        } catch (e) {
          error = e.message;
          break;
        }
        last = step.snapshot.step;
        if (!this.frames.has(last)) this.remember(step.snapshot);
        if (last > this.last) this.last = last;
        if (stop(last)) {
          i++;
          break;
        }
      }
    };
    const wanted = this.wanted;
    decodeUntil(s => s === wanted);
    if (i < records.length && !error) this.onChange(); // draw the step it waits for
    while (i < records.length && !error) {
      // Let the page draw before decoding on; the rest needs no redraw
      // until the end (the chart takes the new scores then).
      await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
      const until = i + 25;
      decodeUntil(() => i + 1 >= until);
    }
    if (error) {
      // The steps after the last good one cannot be shown: a gap with the reason.
      const from = last === null ? (g === 0 ? -1 : g * this.interval) : last + 1;
      const to = Math.min(end, this.last);
      if (from <= to && !this.gapAt(from)) this.gaps = [...this.gaps, { from, to, error }];
    } else if (last === null || last < end) {
      this.failedAt.set(g, performance.now()); // the open segment of a running simulation: it grows
    }
    this.onChange();
  }
}

export async function getJSON(url) {
  const r = await fetch(url, { cache: 'no-store' });
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.json();
}
