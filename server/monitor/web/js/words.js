// Norms and tasks in plain words, for spectators who never read the rules
// (docs/rules.md, "Norms" and "Tasks").

// plural is "1 block", "3 blocks".
export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

// normRule says what a norm forbids and what breaking it costs, e.g. "A
// team may have at most 10 worker agents; if it has more, each of them
// loses 2 energy per step."
export function normRule(n) {
  const cost = `${n.punishment} energy per step`;
  const parts = n.requirements.map(r => {
    const type = r.type.toLowerCase();
    if (type === 'block') {
      const what = r.name === 'any' ? 'block' : `${r.name} block`;
      const limit = r.quantity === 0 ? `no ${what}s` : `at most ${plural(r.quantity, what)}`;
      return n.level === 'team'
        ? `A team may carry ${limit} in all; while it carries more, each of its agents loses ${cost}.`
        : `Each agent may carry ${limit} (everything attached to it counts); an agent carrying more loses ${cost}.`;
    }
    if (type === 'role') {
      return n.level === 'team'
        ? `A team may have at most ${plural(r.quantity, `${r.name} agent`)}; if it has more, each of them loses ${cost}.`
        : `No agent may hold the role ${r.name}; each one that does loses ${cost}.`;
    }
    return `${r.type} ${r.name} at most ${r.quantity}; breaking it costs ${cost}.`;
  });
  return parts.join(' ');
}

// normTiming is where a norm stands at step: announced, in force, or over;
// at the simulation's last step (last) nothing more comes: 'ended'.
export function normTiming(n, step, last = Infinity) {
  if (step >= last && n.start > last) return { phase: 'ended', text: `never in force: the simulation ended at step ${last}, before step ${n.start}` };
  if (step >= last && n.until > last) return { phase: 'ended', text: `the simulation ended at step ${last}, before step ${n.until}` };
  if (step < n.start) return { phase: 'announced', text: `announced: in force from step ${n.start} (in ${plural(n.start - step, 'step')}) to step ${n.until}` };
  if (step <= n.until) return { phase: 'in force', text: `in force until step ${n.until} (${plural(n.until - step, 'more step')})` };
  return { phase: 'over', text: `ended at step ${n.until}` };
}

// taskRule says what a task asks for: "2 blocks (b0, b1) in this shape",
// with its reward and deadline; at the simulation's last step (last) an
// open task is one nobody completed.
export function taskRule(t, step, last = Infinity) {
  const counts = new Map();
  for (const r of t.requirements) counts.set(r.type, (counts.get(r.type) ?? 0) + 1);
  const kinds = [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([type, n]) => (n > 1 ? `${n}× ${type}` : type)).join(', ');
  const left = t.deadline - step;
  return {
    what: `${plural(t.requirements.length, 'block')} (${kinds}) in this shape, delivered in a goal zone`,
    reward: `${t.reward} points`,
    when: step >= last ? `not completed: the simulation ended at step ${last}${t.deadline > last ? `, before the deadline (step ${t.deadline})` : ''}`
      : left >= 0 ? `until step ${t.deadline} (${plural(left, 'step')} left)` : `expired at step ${t.deadline}`,
  };
}
