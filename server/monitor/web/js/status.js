// Status tables: every agent's last action and result, failures
// highlighted, sorted by team and agent number like the official status
// page. renderStatus works on a snapshot (the main page); startStatusPage
// follows /live/status (status.html).

import { el } from './widgets.js';

export function compareAgents(a, b) {
  if (a.team !== b.team) return a.team < b.team ? -1 : 1;
  const na = /(\d+)$/.exec(a.name), nb = /(\d+)$/.exec(b.name);
  if (na && nb && a.name.slice(0, na.index) === b.name.slice(0, nb.index)) return Number(na[1]) - Number(nb[1]);
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

// statusTable builds the table; onPick, when given, makes rows clickable.
export function statusTable(entities, withDetails, onPick) {
  const table = el('table');
  const head = el('tr');
  const cols = withDetails
    ? ['Team', 'Agent', 'Role', 'Energy', 'Last action', 'Parameters', 'Last action result']
    : ['Team', 'Agent', 'Last action', 'Last action result'];
  for (const c of cols) head.append(el('th', '', c));
  table.append(head);
  for (const a of [...entities].sort(compareAgents)) {
    const failed = a.actionResult && a.actionResult !== 'success';
    const tr = el('tr', (failed ? 'failed ' : '') + (onPick ? 'clickable' : ''));
    const cells = withDetails
      ? [a.team, a.name, a.role, a.deactivated ? `${a.energy} (deactivated)` : String(a.energy), a.action, (a.actionParams ?? []).join(', '), a.actionResult]
      : [a.team, a.name, a.action, a.actionResult];
    for (const c of cells) tr.append(el('td', '', c ?? ''));
    if (onPick) tr.addEventListener('click', () => onPick(a.name));
    table.append(tr);
  }
  return table;
}

export function renderStatus(box, snap, onPick) {
  box.replaceChildren();
  if (!snap) {
    box.append(el('p', 'small', 'no step yet'));
    return;
  }
  const failed = snap.entities.filter(a => a.actionResult && a.actionResult !== 'success').length;
  box.append(el('h3', '', `Step ${snap.step}: ${failed} failed actions`), statusTable(snap.entities, true, onPick));
}

export function startStatusPage(root) {
  const connect = () => {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const dir = location.pathname.substring(0, location.pathname.lastIndexOf('/'));
    const ws = new WebSocket(`${proto}//${location.host}${dir}/live/status`);
    ws.onmessage = msg => {
      const s = JSON.parse(msg.data);
      root.replaceChildren(el('h1', '', `Status: ${s.sim}`), el('h2', '', `Step ${s.step}/${s.steps - 1}`), statusTable(s.entities, false));
      window.massimStatus = { sim: s.sim, step: s.step, rows: s.entities.length };
    };
    ws.onclose = () => {
      root.prepend(el('p', 'bad', 'disconnected, retrying…'));
      setTimeout(connect, 2000);
    };
  };
  connect();
}
