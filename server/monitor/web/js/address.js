// The address's #step: the page keeps it on the shown step, so that a link
// opens the same moment, and follows a step put there from outside (a link,
// the address bar, a test). A link may also say ?step=N (docs/replays.md,
// "Links to a step"); the page then moves it into the hash.

// hashStep is the step in the address (#N, else ?step=N), or null.
export function hashStep() {
  const m = /^#(-?\d+)$/.exec(location.hash) ?? /^(-?\d+)$/.exec(new URLSearchParams(location.search).get('step') ?? '');
  return m ? parseInt(m[1], 10) : null;
}

// searchWithoutStep is the address's query without its step: the hash
// says the step once the page writes it.
function searchWithoutStep() {
  const q = new URLSearchParams(location.search);
  if (!q.has('step')) return location.search;
  q.delete('step');
  const s = q.toString();
  return s ? `?${s}` : '';
}

export class Address {
  // onStep is called with a step put into the address from outside;
  // current() is the step to write (null: none, the live edge).
  constructor(onStep, current) {
    this.onStep = onStep;
    this.current = current;
    this.written = undefined; // the step last written or followed
    this.time = 0; // when it was written
    this.hash = location.hash; // the hash as this page last wrote or followed it
    window.addEventListener('hashchange', () => this.follow());
  }

  // update writes the shown step at most every 300 ms. A hash put there
  // from outside is followed first, never overwritten: its hashchange
  // event may still be queued when this runs.
  update(now) {
    if (location.hash !== this.hash) {
      this.follow();
      return;
    }
    const want = this.current();
    if (want === this.written || now - this.time < 300) return;
    this.written = want;
    this.time = now;
    this.hash = want === null ? '' : `#${want}`;
    history.replaceState(null, '', location.pathname + searchWithoutStep() + this.hash);
  }

  follow() {
    this.hash = location.hash;
    const s = hashStep();
    if (s !== null) this.onStep(s);
    this.written = this.current();
  }
}
