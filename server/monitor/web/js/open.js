// Opening a replay file in the page itself (docs/publishing.md): by URL
// (?src=…, a plain GET of the whole file: any static host serves it), by
// dropping a file onto the page or choosing one with the file picker (read
// locally, uploaded nowhere). replayfile.js reads it; the page then shows
// it as a replay the server serves.

import { ReplayFile } from './replayfile.js';
import { el } from './widgets.js';

// staticSite tells whether the page is a published copy (massim publish):
// no server behind it, so no live feed, admin API or replay library to ask.
export const staticSite = document.documentElement.hasAttribute('data-static');

// fetchReplay reads the replay at url (relative to the page): {name, file}.
// index.html may have started the request before the modules loaded.
export async function fetchReplay(src) {
  const early = window.massimEarly;
  let body = null;
  if (early && early.src === src && early.file) {
    body = early.file;
    early.file = null;
  }
  const url = new URL(src, location.href);
  body ??= fetch(url, { cache: 'no-cache' }).then(r => {
    if (!r.ok) throw new Error(`${r.status} ${r.statusText}`.trim());
    return r.arrayBuffer();
  });
  const name = decodeURIComponent(url.pathname.split('/').pop() || src);
  return { name, file: new ReplayFile(new Uint8Array(await body)) };
}

// readLocalFile reads a dropped or chosen File: {name, file}.
export async function readLocalFile(f) {
  return { name: f.name, file: new ReplayFile(new Uint8Array(await f.arrayBuffer())) };
}

// acceptDrops calls onFile with a file dropped anywhere on the page.
export function acceptDrops(onFile) {
  const hasFiles = e => [...(e.dataTransfer?.types ?? [])].includes('Files');
  document.addEventListener('dragover', e => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    document.body.classList.add('dropping');
  });
  document.addEventListener('dragleave', e => {
    if (!e.relatedTarget) document.body.classList.remove('dropping');
  });
  document.addEventListener('drop', e => {
    document.body.classList.remove('dropping');
    const f = e.dataTransfer?.files?.[0];
    if (!f) return;
    e.preventDefault();
    onFile(f);
  });
}

// renderOpen shows the card of a page without a replay: a file picker and
// the hint that a file may be dropped.
export function renderOpen(box, onFile, problem = '') {
  const input = el('input');
  input.type = 'file';
  input.id = 'open-file';
  input.accept = '.mreplay,application/octet-stream';
  input.onchange = () => input.files[0] && onFile(input.files[0]);
  const label = el('label', 'open-pick', 'Choose a replay file… ');
  label.append(input);
  box.replaceChildren(
    el('h2', '', 'Open a replay'),
    el('p', '', 'Drop a compact replay (.mreplay) onto this page, or choose one. It is read in this browser and sent nowhere.'),
    label,
  );
  if (problem) box.append(el('p', 'bad', problem));
}
