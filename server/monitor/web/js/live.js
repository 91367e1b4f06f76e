// LiveFeed follows /live/monitor exactly as the official page does (static
// worlds have "grid", everything else is a snapshot) and keeps a Store of the
// running simulation whose past comes from /live/history/.

import { Store } from './store.js';

export class LiveFeed {
  constructor(onChange, onState) {
    this.onChange = onChange;
    this.onState = onState;
    this.store = null;
    this.connect();
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const dir = location.pathname.substring(0, location.pathname.lastIndexOf('/'));
    const ws = new WebSocket(`${proto}//${location.host}${dir}/live/monitor`);
    ws.onopen = () => this.onState('online');
    ws.onclose = () => {
      this.onState('offline');
      setTimeout(() => this.connect(), 2000);
    };
    ws.onmessage = msg => {
      const doc = JSON.parse(msg.data);
      if (doc.grid) this.startSim(doc);
      else if (this.store) {
        this.store.put(doc);
        this.onChange();
      }
    };
  }

  startSim(st) {
    if (this.store && this.store.sim === st.sim) return; // a reconnect: same simulation
    const store = new Store('live/history/', () => this.onChange());
    store.setStatic(st);
    this.store = store;
    // The history fills in the steps before this connection; a stale answer
    // (another simulation by now) is ignored by the store.
    store.load().catch(e => console.warn('history', e)).finally(() => this.onChange(true));
    this.onChange(true);
  }
}
