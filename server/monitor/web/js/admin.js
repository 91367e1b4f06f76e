// Organizer controls on the live page: pause, continue, single step and stop
// through the server's admin API (/admin/...). The API needs the admin
// token; the page keeps it for this browser tab only (sessionStorage).
// When the server has no admin API (404), the controls stay hidden.

const KEY = 'massim-admin-token';

export class AdminControls {
  constructor(root, toggle, onChange) {
    this.root = root;
    this.toggle = toggle;
    this.onChange = onChange;
    this.status = null; // last /admin/status answer
    this.message = '';
    this.build();
    toggle.addEventListener('click', () => this.show(this.root.hidden));
  }

  // probe finds out whether the server offers the API at all.
  async probe() {
    const resp = await fetch('admin/status', { headers: this.headers() }).catch(() => null);
    if (!resp || resp.status === 404) return false;
    this.toggle.hidden = false;
    if (resp.ok) this.status = await resp.json();
    this.render();
    return true;
  }

  show(on) {
    this.root.hidden = !on;
    this.toggle.classList.toggle('on', on);
    clearInterval(this.timer);
    if (on) {
      this.refresh();
      this.timer = setInterval(() => this.refresh(), 1000); // keep the state line current
    }
  }

  headers() {
    const token = sessionStorage.getItem(KEY);
    return token ? { Authorization: `Bearer ${token}` } : {};
  }

  async refresh() {
    const resp = await fetch('admin/status', { headers: this.headers() }).catch(() => null);
    if (!resp) this.message = 'server unreachable';
    else if (resp.status === 401) this.message = 'enter the admin token';
    else if (resp.ok) {
      this.status = await resp.json();
      this.message = '';
    } else this.message = `status: HTTP ${resp.status}`;
    this.render();
  }

  async command(name) {
    const resp = await fetch(`admin/${name}`, { method: 'POST', headers: this.headers() }).catch(() => null);
    if (!resp) this.message = 'server unreachable';
    else if (resp.status === 401) this.message = 'wrong or missing admin token';
    else if (!resp.ok) this.message = (await resp.json().catch(() => ({}))).error || `${name}: HTTP ${resp.status}`;
    else this.message = '';
    await this.refresh();
    if (resp && !resp.ok) this.render();
  }

  build() {
    const form = document.createElement('form');
    form.innerHTML = `<input type="password" id="admin-token" placeholder="admin token" autocomplete="off">
      <button type="submit">Use</button>`;
    form.addEventListener('submit', e => {
      e.preventDefault();
      sessionStorage.setItem(KEY, form.querySelector('input').value);
      form.querySelector('input').value = '';
      this.refresh();
    });
    const buttons = document.createElement('div');
    buttons.className = 'admin-buttons';
    for (const name of ['pause', 'continue', 'step', 'stop']) {
      const b = document.createElement('button');
      b.id = `admin-${name}`;
      b.type = 'button';
      b.textContent = name;
      b.title = {
        pause: 'pause before the next step',
        continue: 'continue a paused tournament',
        step: 'run exactly one step while paused',
        stop: 'finish the current simulation, then end the tournament',
      }[name];
      b.addEventListener('click', () => {
        if (name === 'stop' && !confirm('End the tournament after the current simulation?')) return;
        this.command(name);
      });
      buttons.append(b);
    }
    this.line = document.createElement('div');
    this.line.id = 'admin-state';
    this.root.append(form, buttons, this.line);
  }

  render() {
    const s = this.status;
    let text = this.message;
    if (!text && s) {
      const state = s.stopping ? 'stopping after this simulation' : s.paused ? 'paused' : s.phase;
      text = `${state} · match ${s.match + 1}${s.matches > 0 ? '/' + s.matches : ''} · simulation ${s.simulation + 1}/${s.simulations} · step ${s.step}`;
    }
    this.line.textContent = text;
    this.onChange();
    const paused = !!(s && s.paused);
    this.root.querySelector('#admin-pause').disabled = paused;
    this.root.querySelector('#admin-continue').disabled = !paused;
    this.root.querySelector('#admin-step').disabled = !paused;
  }
}
