// Store holds one simulation: its static world, a bounded cache of
// snapshots and the score table. Snapshots it lacks are loaded on demand, a
// group of five at a time, from a folder in the official replay layout: a
// replay (/replays/<id>/) or the running simulation's history
// (/live/history/).

const cacheLimit = 600; // snapshots kept in memory

export class Store {
  constructor(base, onChange) {
    this.base = base; // URL prefix ending in '/'
    this.onChange = onChange;
    this.static = null;
    this.sim = '';
    this.teams = [];
    this.blockTypes = [];
    this.last = -2; // last step available
    this.finished = false;
    this.frames = new Map(); // step → snapshot
    this.scores = new Map(); // step → [score per team]
    this.loading = new Map(); // group → promise
    this.failedAt = new Map(); // group → time of the last failed or short load
    this.scoresFetch = null; // the running scores.json request
    this.scoresAgain = false; // a gap appeared while it ran
  }

  async load() {
    const [index, st] = await Promise.all([getJSON(this.base + 'index.json'), getJSON(this.base + 'static.json')]);
    if (this.static && st.sim !== this.sim) return; // another simulation by now
    if (!this.static) this.setStatic(st);
    if (index.sim === this.sim) {
      this.last = Math.max(this.last, index.last);
      this.finished = index.finished;
    }
    await this.loadScores();
  }

  setStatic(st) {
    this.static = st;
    this.sim = st.sim;
    this.teams = Object.keys(st.teams);
    this.blockTypes = [...st.blockTypes].sort();
  }

  // loadScores fills the score table from scores.json. Requests do not
  // overlap: a gap found while one runs asks for exactly one more.
  loadScores() {
    if (this.scoresFetch) {
      this.scoresAgain = true;
      return this.scoresFetch;
    }
    this.scoresFetch = this.fetchScores().finally(() => {
      this.scoresFetch = null;
      if (this.scoresAgain) {
        this.scoresAgain = false;
        this.loadScores();
      }
    });
    return this.scoresFetch;
  }

  async fetchScores() {
    try {
      const doc = await getJSON(this.base + 'scores.json');
      if (doc.sim && doc.sim !== this.sim) return;
      doc.steps.forEach((s, i) => {
        if (!this.scores.has(s)) this.scores.set(s, doc.scores[i]);
      });
      this.onChange();
    } catch (e) {
      console.warn('scores', e);
    }
  }

  // put adds a snapshot received live. A busy viewer gets coalesced
  // frames: the steps it skipped are missing from the score table, so their
  // scores are fetched, keeping the chart a continuous line.
  put(snap) {
    const gap = snap.step > 0 && !this.scores.has(snap.step - 1);
    this.remember(snap);
    if (snap.step > this.last) this.last = snap.step;
    if (gap && this.static) this.loadScores();
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

  // get returns the snapshot of step if loaded, else starts loading it.
  get(step) {
    const snap = this.frames.get(step);
    if (snap) return snap;
    this.fetchGroup(groupOf(step));
    return null;
  }

  prefetch(step) {
    if (step <= this.last && !this.frames.has(step)) this.fetchGroup(groupOf(step));
  }

  fetchGroup(g) {
    if (this.loading.has(g) || !this.static) return;
    const failed = this.failedAt.get(g);
    if (failed && performance.now() - failed < 1000) return;
    const sim = this.sim;
    const p = getJSON(`${this.base}${g}.json?sim=${encodeURIComponent(sim)}`)
      .then(doc => {
        if (sim !== this.sim) return;
        let n = 0;
        for (const [k, snap] of Object.entries(doc)) {
          const s = parseInt(k, 10);
          if (!this.frames.has(s)) this.remember(snap);
          if (s > this.last) this.last = s;
          n++;
        }
        if (n < 5) this.failedAt.set(g, performance.now()); // the open group: may grow
        this.onChange();
      })
      .catch(e => {
        this.failedAt.set(g, performance.now());
        console.warn('group', g, e);
      })
      .finally(() => this.loading.delete(g));
    this.loading.set(g, p);
  }
}

export function groupOf(step) {
  return step > 0 ? Math.floor(step / 5) * 5 : 0;
}

export async function getJSON(url) {
  const r = await fetch(url, { cache: 'no-store' });
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.json();
}
