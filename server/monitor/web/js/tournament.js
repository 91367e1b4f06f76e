// The tournament between the steps: TournamentFeed follows /live/tournament
// (who is connected, which simulation comes next and when, whether the
// tournament is over); renderWaiting shows it as the "waiting for agents"
// card with a countdown. A match of a league (the status names the
// league's page) ends with a link back to that page: its server ends with
// the match, so the card says so also when the feed is gone before the
// last document came.

import { el, teamSwatch } from './widgets.js';

export class TournamentFeed {
  constructor(onChange) {
    this.onChange = onChange;
    this.status = null; // the last document (server.TournamentStatus + now)
    this.offset = 0; // server clock − page clock, in ms
    this.gone = false; // the feed closed and has not come back
    this.connect();
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const dir = location.pathname.substring(0, location.pathname.lastIndexOf('/'));
    const ws = new WebSocket(`${proto}//${location.host}${dir}/live/tournament`);
    ws.onmessage = msg => {
      this.gone = false;
      this.status = JSON.parse(msg.data);
      this.offset = Date.parse(this.status.now) - Date.now();
      this.onChange();
    };
    ws.onclose = () => {
      if (this.status?.league && !this.gone) {
        this.gone = true;
        this.onChange();
      }
      setTimeout(() => this.connect(), 2000);
    };
  }

  // serverNow is the server's clock as this page estimates it.
  serverNow() {
    return Date.now() + this.offset;
  }

  // ended tells whether simulation sim is over according to the server.
  ended(sim) {
    const s = this.status;
    return !!s && s.name === sim && s.phase !== 'running';
  }

  // label names the running (or last) simulation within the tournament, or ''.
  label(sim) {
    const s = this.status;
    if (!s || s.name !== sim || s.match < 0) return '';
    return describePlace(s, s.match, s.simulation);
  }
}

// describePlace is "match 2 of 3 · simulation 1 of 2": no "of" when the
// tournament is endless, no match in a single match, no simulation when
// a match has only one.
function describePlace(s, match, simulation) {
  const parts = [];
  if (s.matches !== 1) parts.push(`match ${match + 1}${s.matches > 0 ? ` of ${s.matches}` : ''}`);
  if (s.simulations > 1) parts.push(`simulation ${simulation + 1} of ${s.simulations}`);
  return parts.join(' · ');
}

// countdown formats a duration in ms as m:ss or h:mm:ss.
export function countdown(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const two = n => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

// waitingShown tells whether the waiting card has something to say.
export function waitingShown(feed) {
  const s = feed?.status;
  return !!s && (s.phase === 'waiting' || s.phase === 'finished' || (s.phase === 'between' && !!s.next) || leagueMatchOver(feed));
}

// leagueMatchOver tells whether this is a league's match that has ended:
// finished, or its server gone.
function leagueMatchOver(feed) {
  const s = feed.status;
  return !!s.league && (s.phase === 'finished' || feed.gone);
}

// leagueLink is the league page's URL on the host this page was opened
// with: the match's server knows the page by the address it listens on,
// which may not be the one the viewer reaches it by.
function leagueLink(page) {
  const u = new URL(page, location.href);
  u.hostname = location.hostname;
  return u.href;
}

// renderWaiting fills box with the waiting card: what comes next, when,
// and per team who is connected and who is missing. teamIndex maps a team
// to its colour index (the order of the shown simulation, else the roster).
export function renderWaiting(box, feed, teamIndex) {
  const s = feed.status;
  box.replaceChildren();
  if (leagueMatchOver(feed)) {
    const back = el('a', 'league-link', 'back to the league');
    back.id = 'league-link';
    back.href = leagueLink(s.league);
    const played = `${s.completed} simulation${s.completed === 1 ? '' : 's'} played`;
    box.append(el('h2', '', s.phase === 'finished' ? 'Match over, the league goes on' : 'This match has ended, the league goes on'),
      el('p', 'small', `${played}.`), back);
    return;
  }
  if (s.phase === 'finished') {
    box.append(el('h2', '', 'The tournament is over'),
      el('p', 'small', `${s.completed} simulation${s.completed === 1 ? '' : 's'} played. Rewind with the timeline, or open the replays.`));
    return;
  }
  const next = s.next;
  const teams = next ? next.teams : (s.roster ?? []).map(r => r.team);
  const roster = (s.roster ?? []).filter(r => teams.includes(r.team))
    .map(r => ({ team: r.team, connected: r.connected ?? [], missing: r.missing ?? [] }));
  const missing = roster.reduce((n, r) => n + r.missing.length, 0);
  box.append(el('h2', '', missing > 0 ? 'Waiting for the agents' : s.phase === 'between' ? 'Next simulation' : 'Ready to start'));
  if (next) {
    const place = describePlace(s, next.match, next.simulation);
    box.append(el('div', 'next-sim', `${place ? `${place}: ` : ''}${next.teams.join(' vs ')}`));
    const when = el('div', 'when');
    when.id = 'countdown';
    if (next.startsAt) {
      const left = Date.parse(next.startsAt) - feed.serverNow();
      when.textContent = left > 0 ? `starts in ${countdown(left)}` : 'starting…';
    } else if (missing > 0) {
      when.textContent = `starts when all ${missing} missing agent${missing === 1 ? ' is' : 's are'} connected, or when the organizer launches it`;
    } else {
      when.textContent = 'starts when the organizer launches it';
    }
    box.append(when);
  }
  for (const r of roster) {
    const expected = r.connected.length + r.missing.length;
    const row = el('div', 'roster');
    row.dataset.team = r.team;
    const head = el('div', 'roster-head');
    head.append(teamSwatch(teamIndex(r.team)), el('b', '', r.team),
      el('span', r.missing.length ? 'count' : 'count ok', `${r.connected.length} / ${expected} connected`));
    const bar = el('div', 'meter');
    const fill = el('div');
    fill.style.width = `${expected ? (100 * r.connected.length) / expected : 0}%`;
    bar.append(fill);
    row.append(head, bar);
    if (r.missing.length) row.append(el('div', 'missing', `missing: ${r.missing.join(', ')}`));
    box.append(row);
  }
}
