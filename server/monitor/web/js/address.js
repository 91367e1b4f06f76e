// The address's #step: the page keeps it on the shown step, so that a link
// opens the same moment, and follows a step put there from outside (a link,
// the address bar, a test).

// hashStep is the step in the address, or null.
export function hashStep() {
  const m = /^#(-?\d+)$/.exec(location.hash);
  return m ? parseInt(m[1], 10) : null;
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
    history.replaceState(null, '', location.pathname + location.search + this.hash);
  }

  follow() {
    this.hash = location.hash;
    const s = hashStep();
    if (s !== null) this.onStep(s);
    this.written = this.current();
  }
}
