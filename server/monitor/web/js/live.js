// LiveFeed follows /live/frames: binary messages, either "M" and the
// simulation's meta document (static world, keyframe interval) or "R" and
// step records (a keyframe when the page joins or fell behind, then the
// changes of each step). The records are those of the compact replays
// (codec.js); the past comes from /live/history/, read like a replay.

import { Store } from './store.js';
import { Decoder, splitRecords } from './codec.js';

const text = new TextDecoder();

export class LiveFeed {
  constructor(onChange, onState) {
    this.onChange = onChange;
    this.onState = onState;
    this.store = null;
    this.decoder = null;
    this.connect();
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const dir = location.pathname.substring(0, location.pathname.lastIndexOf('/'));
    const ws = new WebSocket(`${proto}//${location.host}${dir}/live/frames`);
    ws.binaryType = 'arraybuffer';
    ws.onopen = () => this.onState('online');
    ws.onclose = () => {
      this.onState('offline');
      this.decoder = null;
      setTimeout(() => this.connect(), 2000);
    };
    ws.onmessage = msg => {
      const bytes = new Uint8Array(msg.data);
      if (bytes[0] === 0x4d) this.startSim(JSON.parse(text.decode(bytes.subarray(1)))); // 'M'
      else if (bytes[0] === 0x52 && this.decoder) { // 'R'
        try {
          for (const rec of splitRecords(bytes.subarray(1))) this.store.put(this.decoder.decode(rec).snapshot);
        } catch (e) {
          console.warn('live', e);
          ws.close(); // start again from a keyframe
          return;
        }
        this.onChange();
      }
    };
  }

  startSim(meta) {
    this.decoder = new Decoder(meta.static.grid.width, meta.static.grid.height);
    if (this.store && this.store.sim === meta.sim) return; // a reconnect: same simulation
    const store = new Store('live/history/', () => this.onChange());
    store.setMeta(meta);
    this.store = store;
    // The history fills in the steps before this connection; a stale answer
    // (another simulation by now) is ignored by the store.
    store.load().catch(e => console.warn('history', e)).finally(() => this.onChange(true));
    this.onChange(true);
  }
}
