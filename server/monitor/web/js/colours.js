// Colours and shapes: any number of teams gets distinct (colour, shape)
// pairs; block types get their own palette.

const teamColours = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#17becf', '#e377c2', '#8c564b', '#bcbd22', '#7f7f7f'];
const shapes = ['circle', 'square', 'triangle', 'diamond', 'hexagon', 'star', 'pentagon'];

export const colours = {
  background: '#f4f1ea',
  grid: 'rgba(0,0,0,0.08)',
  obstacle: '#3b3b3b',
  goal: 'rgba(214, 39, 40, 0.22)',
  role: 'rgba(31, 119, 180, 0.20)',
  clear: 'rgba(255, 170, 0, 0.25)',
  clearLine: '#e08800',
  vision: 'rgba(0, 0, 0, 0.55)',
  link: '#555',
  selected: '#111',
  deactivated: '#bbb',
  dim: 'rgba(30, 30, 40, 0.45)', // outside the selected agent's vision
  frame: '#222', // around the map itself, between it and its copies
  copyWash: 'rgba(244, 241, 234, 0.45)', // over the copies of the torus
  copyHatch: 'rgba(60, 60, 60, 0.5)', // their hatching
};

export function teamStyle(index) {
  return {
    colour: teamColours[index % teamColours.length],
    shape: shapes[(index + Math.floor(index / teamColours.length)) % shapes.length],
  };
}

// blockColour is stable per block type index.
export function blockColour(index) {
  const hue = (index * 67 + 40) % 360;
  return `hsl(${hue}, 70%, 60%)`;
}

// rgba of a CSS colour as numbers (for the 1-pixel-per-cell terrain image).
const probe = typeof document !== 'undefined' ? document.createElement('canvas').getContext('2d') : null;
export function rgba(css) {
  probe.clearRect(0, 0, 1, 1);
  probe.fillStyle = css;
  probe.fillRect(0, 0, 1, 1);
  return Array.from(probe.getImageData(0, 0, 1, 1).data);
}

// drawShape draws a filled shape of size s (cell size) centred at cx, cy.
export function drawShape(ctx, shape, cx, cy, s) {
  const r = s * 0.42;
  ctx.beginPath();
  switch (shape) {
    case 'square':
      ctx.rect(cx - r * 0.85, cy - r * 0.85, r * 1.7, r * 1.7);
      break;
    case 'triangle':
      polygon(ctx, cx, cy + r * 0.15, r * 1.1, 3, -Math.PI / 2);
      break;
    case 'diamond':
      polygon(ctx, cx, cy, r * 1.05, 4, 0);
      break;
    case 'hexagon':
      polygon(ctx, cx, cy, r, 6, 0);
      break;
    case 'pentagon':
      polygon(ctx, cx, cy, r, 5, -Math.PI / 2);
      break;
    case 'star':
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        const rr = i % 2 ? r * 0.5 : r * 1.05;
        const x = cx + rr * Math.cos(a), y = cy + rr * Math.sin(a);
        if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y);
      }
      ctx.closePath();
      break;
    default:
      ctx.arc(cx, cy, r, 0, 2 * Math.PI);
  }
}

function polygon(ctx, cx, cy, r, n, start) {
  for (let i = 0; i < n; i++) {
    const a = start + (i * 2 * Math.PI) / n;
    const x = cx + r * Math.cos(a), y = cy + r * Math.sin(a);
    if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y);
  }
  ctx.closePath();
}
