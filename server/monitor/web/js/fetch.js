// The page's requests for a simulation's data (store.js): JSON documents,
// step records (a step, a segment, every segment at once), answers that
// index.html started before the modules loaded, and the worker that
// fetches the segments loaded in the background.

// getRecords resolves to the answer to url: {body, error}, its records and
// the server's reason when it could not read them whole. early is a
// response index.html started for it (takeEarly); else the worker fetches
// it when inWorker (and the browser gives the page a worker), else the
// page, with priority ('high' or 'low').
export function getRecords(url, early, inWorker, priority) {
  const worker = inWorker && !early ? segmentFetcher() : null;
  if (worker) return worker.get(new URL(url, location.href).href);
  return bodyOf(early ?? fetch(url, { cache: 'no-store', priority }), url);
}

// bodyOf reads an answer of records: its body and the server's reason
// when it could not read them whole.
async function bodyOf(response, what) {
  const r = await response;
  if (!r.ok) throw new Error(`${what}: ${r.status}`);
  return { body: new Uint8Array(await r.arrayBuffer()), error: r.headers.get('X-Replay-Error') };
}

// The segments loaded in the background are fetched by a worker: a body
// of ~100 KB reaches the page's thread in many pieces, each a task of its
// own (5–15 ms of its time during a seek right after opening, measured
// with TestTiming_SeekCPU), while a worker hands it over whole, in one
// message and without a copy. The worker is the script below.
const fetcherScript = `onmessage = async e => {
  const { id, url } = e.data;
  try {
    const r = await fetch(url, { cache: 'no-store', priority: 'low' });
    if (!r.ok) throw new Error(url + ': ' + r.status);
    const body = await r.arrayBuffer();
    postMessage({ id, body, error: r.headers.get('X-Replay-Error') }, [body]);
  } catch (err) {
    postMessage({ id, failed: String(err.message || err) });
  }
};`;

let fetcher; // SegmentFetcher, null when the browser gives the page no worker

function segmentFetcher() {
  if (fetcher === undefined) {
    try {
      fetcher = new SegmentFetcher();
    } catch (e) {
      console.warn('segment worker', e);
      fetcher = null;
    }
  }
  return fetcher;
}

class SegmentFetcher {
  constructor() {
    const src = URL.createObjectURL(new Blob([fetcherScript], { type: 'text/javascript' }));
    this.worker = new Worker(src);
    URL.revokeObjectURL(src);
    this.next = 0;
    this.waiting = new Map(); // id → {resolve, reject}
    this.worker.onmessage = e => {
      const { id, body, error, failed } = e.data;
      const w = this.waiting.get(id);
      this.waiting.delete(id);
      if (failed !== undefined) w?.reject(new Error(failed));
      else w?.resolve({ body: new Uint8Array(body), error });
    };
    // A worker that cannot run: what it was asked for fails (and is asked
    // for again later, by the page itself).
    this.worker.onerror = e => {
      e.preventDefault();
      fetcher = null;
      for (const w of this.waiting.values()) w.reject(new Error(`segment worker: ${e.message}`));
      this.waiting.clear();
    };
  }

  // get resolves to the answer to url: {body, error}.
  get(url) {
    return new Promise((resolve, reject) => {
      const id = this.next++;
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, url });
    });
  }
}

// takeEarly returns the response index.html started for this base and
// segment ('all': every segment) before the modules loaded, once; null
// when there is none.
export function takeEarly(base, g) {
  const early = window.massimEarly;
  if (!early || early.base !== base) return null;
  const p = g === 'all' ? early.all : early.segment === g ? early.seg : null;
  if (!p) return null;
  if (g === 'all') early.all = null;
  else early.seg = null;
  return p;
}

// getJSON reads the JSON document at url (index.html may have asked for a
// replay's index.json already).
export async function getJSON(url) {
  const early = window.massimEarly;
  const ahead = early && early.index && url === early.base + 'index.json' ? early.index : null;
  if (ahead) early.index = null;
  const r = await (ahead ?? fetch(url, { cache: 'no-store' }));
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.json();
}
