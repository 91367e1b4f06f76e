// Decoder of the compact step records (docs/replays.md, "Compact format"),
// a port of package replays/codec: a keyframe holds a whole world, a delta
// what changed since the step before, and every record the agents' answers.
// Decoded snapshots have the shape of the official snapshot JSON, so the
// map and the panels draw them as they are. Unchanged lists are shared
// between steps (snapshots are never modified).

const sections = 12; // entities … log events, as in the delta mask

class Reader {
  constructor(bytes) {
    this.b = bytes;
    this.off = 0;
  }
  fail(what) {
    throw new Error(`corrupt record at byte ${this.off}: ${what}`);
  }
  byte() {
    if (this.off >= this.b.length) this.fail('unexpected end');
    return this.b[this.off++];
  }
  uint() {
    let v = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      const c = this.byte();
      v += (c & 0x7f) * mul;
      if (c < 0x80) return v;
      mul *= 128;
    }
    this.fail('bad number');
  }
  int() {
    const u = this.uint();
    return u % 2 === 0 ? u / 2 : -(u + 1) / 2;
  }
  count() {
    const n = this.uint();
    if (n > this.b.length - this.off) this.fail('count exceeds the record');
    return n;
  }
  bool() {
    const v = this.byte();
    if (v > 1) this.fail('bad flag');
    return v === 1;
  }
  text() {
    const n = this.count();
    const s = utf8.decode(this.b.subarray(this.off, this.off + n));
    this.off += n;
    return s;
  }
  str(table) {
    const id = this.uint();
    if (id >= table.length) this.fail(`string ${id} not in the table`);
    return table[id];
  }
  pos() {
    return [this.int(), this.int()];
  }
}

const utf8 = new TextDecoder();

function wrapAdd(p, d, size) {
  const v = (p + d) % size;
  return v < 0 ? v + size : v;
}

// splitRecords cuts a body of length-prefixed records into records.
export function splitRecords(bytes) {
  const r = new Reader(bytes);
  const out = [];
  while (r.off < bytes.length) {
    const n = r.count();
    out.push(bytes.subarray(r.off, r.off + n));
    r.off += n;
  }
  return out;
}

// unpackSegments reads the answer of …/segments, every segment of a replay
// (docs/replays.md, "Our monitor's own endpoints"): for each, its number,
// the reason it ends early ('' when whole) and its body as seg/{g} sends
// it, each after its length.
export function unpackSegments(bytes) {
  const r = new Reader(bytes);
  const out = [];
  while (r.off < bytes.length) {
    const g = r.uint();
    const error = r.text();
    const n = r.count();
    out.push({ g, error, body: bytes.subarray(r.off, r.off + n) });
    r.off += n;
  }
  return out;
}

export class Decoder {
  constructor(width, height) {
    this.w = width;
    this.h = height;
    this.table = [];
    this.prev = null;
  }

  reset() {
    this.table = [];
    this.prev = null;
  }

  // decode reads one record and returns {snapshot, answers, keyframe}; on
  // error the decoder is unchanged.
  decode(bytes) {
    const r = new Reader(bytes);
    const kind = String.fromCharCode(r.byte());
    if (kind !== 'K' && kind !== 'D') r.fail(`unknown record kind ${kind}`);
    if (kind === 'D' && !this.prev) throw new Error('a delta without the keyframe before it');
    const table = kind === 'K' ? [] : this.table.slice();
    for (let n = r.count(); n > 0; n--) table.push(r.text());
    const step = r.int();
    const snap = kind === 'K' ? this.keyframe(r, table, step) : this.delta(r, table, step);
    const answers = readAnswers(r, table, snap.entities.length);
    if (r.off !== bytes.length) r.fail('bytes after the record');
    snap.entities.forEach((e, i) => {
      if (!answers) {
        e.action = '';
        e.actionParams = [];
      } else {
        const a = answers[i];
        const executed = a.kind === 1 || a.kind === 3;
        e.action = executed ? a.action : 'no_action';
        e.actionParams = executed ? a.params : [];
      }
    });
    this.table = table;
    this.prev = snap;
    return { snapshot: snap, answers, keyframe: kind === 'K' };
  }

  keyframe(r, t, step) {
    return {
      step,
      entities: this.entities(r, t),
      blocks: this.things(r, t, true, 'block'),
      obstacles: this.things(r, t, false, 'obstacle'),
      dispensers: this.things(r, t, true, 'dispenser'),
      goalZones: zones(r),
      roleZones: zones(r),
      clear: zones(r),
      tasks: tasks(r, t),
      norms: norms(r, t),
      violations: violations(r, t),
      scores: scores(r, t),
      events: logEvents(r, t),
    };
  }

  delta(r, t, step) {
    const p = this.prev;
    if (step !== p.step + 1) r.fail(`delta of step ${step} after step ${p.step}`);
    const mask = r.uint();
    if (mask >= 2 ** sections) r.fail('bad section mask');
    const has = i => Math.floor(mask / 2 ** i) % 2 === 1;
    return {
      step,
      entities: has(0) ? this.entityChanges(r, t, p.entities) : p.entities.map(e => withoutEvents(e)),
      blocks: has(1) ? this.thingChanges(r, t, p.blocks, true, 'block') : p.blocks,
      obstacles: has(2) ? this.thingChanges(r, t, p.obstacles, false, 'obstacle') : p.obstacles,
      dispensers: has(3) ? this.thingChanges(r, t, p.dispensers, true, 'dispenser') : p.dispensers,
      goalZones: has(4) ? zones(r) : p.goalZones,
      roleZones: has(5) ? zones(r) : p.roleZones,
      clear: has(6) ? zones(r) : p.clear,
      tasks: has(7) ? tasks(r, t) : p.tasks,
      norms: has(8) ? norms(r, t) : p.norms,
      violations: has(9) ? violations(r, t) : p.violations,
      scores: has(10) ? scores(r, t) : p.scores,
      events: has(11) ? logEvents(r, t) : p.events,
    };
  }

  move(r, from) {
    return [wrapAdd(from[0], r.int(), this.w), wrapAdd(from[1], r.int(), this.h)];
  }

  attached(r, self) {
    const n = r.count();
    const out = [];
    for (let i = 0; i < n; i++) out.push(this.move(r, self));
    return out;
  }

  translate(cells, from, to) {
    return cells.map(c => [
      wrapAdd(to[0], wrapDiff(c[0] - from[0], this.w), this.w),
      wrapAdd(to[1], wrapDiff(c[1] - from[1], this.h), this.h),
    ]);
  }

  entities(r, t) {
    const n = r.count();
    const out = [];
    let id = 0;
    for (let i = 0; i < n; i++) {
      id += r.int();
      const e = { id, name: r.str(t), team: r.str(t), pos: r.pos(), role: r.str(t), energy: r.int(), vision: r.int() };
      e.deactivated = r.bool();
      e.action = '';
      e.actionParams = [];
      e.actionResult = r.str(t);
      setList(e, 'attached', this.attached(r, e.pos));
      setList(e, 'events', events(r, t));
      out.push(e);
    }
    return out;
  }

  entityChanges(r, t, prev) {
    const mode = r.byte();
    if (mode === 1) return this.entities(r, t);
    if (mode !== 0) r.fail('bad entity list mode');
    return prev.map(old => {
      const e = withoutEvents(old);
      const m = r.uint();
      if (m & 1) e.pos = this.move(r, old.pos);
      if (m & 2) e.role = r.str(t);
      if (m & 4) e.energy += r.int();
      if (m & 8) e.vision = r.int();
      if (m & 16) e.deactivated = r.bool();
      if (m & 32) e.actionResult = r.str(t);
      if (m & 64) setList(e, 'attached', this.attached(r, e.pos));
      else if (m & 1 && e.attached) e.attached = this.translate(e.attached, old.pos, e.pos);
      if (m & 128) setList(e, 'events', events(r, t));
      return e;
    });
  }

  things(r, t, typed, kind) {
    const n = r.count();
    const out = [];
    let id = 0;
    let cell = 0;
    for (let i = 0; i < n; i++) {
      id += r.int();
      const c = cell + r.int();
      let pos;
      if (c < 0) pos = r.pos();
      else {
        pos = [c % this.w, Math.floor(c / this.w)];
        cell = c;
      }
      const th = { id, pos };
      if (typed) th.type = r.str(t);
      setList(th, 'attached', this.attached(r, pos));
      if (kind === 'dispenser') delete th.attached;
      out.push(th);
    }
    return out;
  }

  thingChanges(r, t, prev, typed, kind) {
    const mode = r.byte();
    if (mode === 1) return this.things(r, t, typed, kind);
    if (mode !== 0) r.fail('bad list mode');
    const removed = new Set();
    let id = 0;
    for (let n = r.count(); n > 0; n--) {
      id += r.uint();
      removed.add(id);
    }
    const added = this.things(r, t, typed, kind);
    const out = prev.filter(th => !removed.has(th.id));
    if (out.length !== prev.length - removed.size) r.fail('removed things that do not exist');
    id = 0;
    let k = 0;
    for (let n = r.count(); n > 0; n--) {
      id += r.uint();
      while (k < out.length && out[k].id < id) k++;
      if (k === out.length || out[k].id !== id) r.fail(`changed thing ${id} does not exist`);
      const old = out[k];
      const th = { ...old };
      const m = r.byte();
      if (m & 1) th.pos = this.move(r, old.pos);
      if (m & 2) th.type = r.str(t);
      if (m & 4) setList(th, 'attached', this.attached(r, th.pos));
      else if (m & 1 && old.attached) th.attached = this.translate(old.attached, old.pos, th.pos);
      out[k] = th;
    }
    if (added.length) {
      out.push(...added);
      out.sort((a, b) => a.id - b.id);
    }
    return out;
  }
}

function wrapDiff(d, size) {
  d %= size;
  if (d > size / 2) d -= size;
  else if (d < -Math.floor((size - 1) / 2)) d += size;
  return d;
}

function setList(o, key, list) {
  if (list && list.length) o[key] = list;
  else delete o[key];
}

// withoutEvents copies an entity for the next step, without its events.
// Field by field, in the order entities() makes them: a spread copy and a
// delete made a run of 99 deltas (a seek deep into a segment) decode in
// 3.9–4.3 ms instead of 2.4–2.7 (warm, 100 entities, in Chromium).
function withoutEvents(e) {
  const c = {
    id: e.id,
    name: e.name,
    team: e.team,
    pos: e.pos,
    role: e.role,
    energy: e.energy,
    vision: e.vision,
    deactivated: e.deactivated,
    action: e.action,
    actionParams: e.actionParams,
    actionResult: e.actionResult,
  };
  if (e.attached) c.attached = e.attached;
  return c;
}

function events(r, t) {
  const n = r.count();
  const out = [];
  for (let i = 0; i < n; i++) {
    const ev = { type: r.str(t) };
    const m = r.byte();
    if (m & 1) ev.origin = r.pos();
    if (m & 2) ev.damage = r.int();
    if (m & 4) ev.target = r.str(t);
    if (m & 8) ev.distance = r.int();
    if (m & 16) ev.name = r.str(t);
    if (m & 32) ev.role = r.str(t);
    if (m & 64) ev.energy = r.int();
    if (m >= 128) r.fail('bad event fields');
    out.push(ev);
  }
  return out;
}

function list(r, item) {
  const n = r.count();
  const out = [];
  for (let i = 0; i < n; i++) out.push(item());
  return out;
}

const zones = r => list(r, () => ({ pos: r.pos(), r: r.int() }));

const tasks = (r, t) =>
  list(r, () => ({
    name: r.str(t),
    deadline: r.int(),
    reward: r.int(),
    requirements: list(r, () => ({ pos: r.pos(), type: r.str(t) })),
  }));

const norms = (r, t) =>
  list(r, () => ({
    name: r.str(t),
    start: r.int(),
    until: r.int(),
    level: r.str(t),
    punishment: r.int(),
    requirements: list(r, () => ({ type: r.str(t), name: r.str(t), quantity: r.int() })),
  }));

const violations = (r, t) => list(r, () => ({ norm: r.str(t), who: r.str(t) }));

const scores = (r, t) => list(r, () => [r.str(t), r.int()]);

const logEvents = (r, t) => list(r, () => ({ type: r.str(t), task: r.str(t), team: r.str(t) }));

function readAnswers(r, t, entities) {
  const flag = r.byte();
  if (flag === 0) return null;
  if (flag !== 1) r.fail('bad answers flag');
  const out = [];
  for (let i = 0; i < entities; i++) {
    const k = r.byte();
    const a = { kind: k & 0x0f };
    if (a.kind > 3 || k & 0xe0) r.fail(`bad answer kind ${k}`);
    if (a.kind === 1 || a.kind === 3) {
      a.action = r.str(t);
      a.params = list(r, () => r.str(t));
    }
    if (k & 0x10) a.late = { action: r.str(t), params: list(r, () => r.str(t)) };
    out.push(a);
  }
  return out;
}
