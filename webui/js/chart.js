// A small hand-written SVG line chart for a drive's trend (no library, no
// network): one line per series over time, the detector's baseline band
// shaded behind it, contended points drawn hollow (orange) and partial
// points as hollow squares (grey) — those runs are never evidence.
// Pure DOM building; returns an <svg> element.

const NS = 'http://www.w3.org/2000/svg';
const W = 560;
const H = 210;
const PAD = { left: 56, right: 12, top: 12, bottom: 30 };
const COLORS = ['#1f6feb', '#8250df', '#1a7f37', '#bf3989', '#0a7c86', '#9a6700'];

function node(tag, attrs = {}, text) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text !== undefined) n.textContent = text;
  return n;
}

// "1.23k", "950", "0.42"
export function formatValue(v) {
  const a = Math.abs(v);
  if (a >= 10000) return `${(v / 1000).toFixed(a >= 100000 ? 0 : 1)}k`;
  if (a >= 100) return v.toFixed(0);
  if (a >= 10) return v.toFixed(1);
  return v.toFixed(2);
}

function niceTicks(lo, hi, count = 4) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) || raw;
  const ticks = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(t);
  return ticks;
}

function dateLabel(unix, spanDays) {
  const d = new Date(unix * 1000);
  if (spanDays < 2) return d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return d.toLocaleDateString([], { month: 'short', day: 'numeric' });
}

// series: [{key, samples: [{at, value, contended, partial, run_id}], baseline}]
// options: {scale (multiply values), unit (label), title}
export function lineChart(series, options = {}) {
  const scale = options.scale || 1;
  const svg = node('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: 'chart',
    role: 'img',
    'aria-label': options.title || 'trend',
  });
  const all = series.flatMap((s) => s.samples.map((p) => ({ ...p, value: p.value * scale })));
  if (all.length === 0) return svg;
  let tMin = Math.min(...all.map((p) => p.at));
  let tMax = Math.max(...all.map((p) => p.at));
  if (tMax === tMin) { tMin -= 3600; tMax += 3600; }
  let vMin = Math.min(...all.map((p) => p.value));
  let vMax = Math.max(...all.map((p) => p.value));
  for (const s of series) {
    if (s.baseline) {
      vMin = Math.min(vMin, s.baseline.low * scale);
      vMax = Math.max(vMax, s.baseline.high * scale);
    }
  }
  const margin = (vMax - vMin) * 0.08 || Math.abs(vMax) * 0.1 || 1;
  vMin = Math.max(0, vMin - margin);
  vMax += margin;
  const x = (t) => PAD.left + ((t - tMin) / (tMax - tMin)) * (W - PAD.left - PAD.right);
  const y = (v) => H - PAD.bottom - ((v - vMin) / (vMax - vMin)) * (H - PAD.top - PAD.bottom);

  const grid = node('g', { class: 'grid' });
  for (const t of niceTicks(vMin, vMax)) {
    grid.append(node('line', { x1: PAD.left, x2: W - PAD.right, y1: y(t), y2: y(t) }));
    grid.append(node('text', { x: PAD.left - 6, y: y(t) + 4, 'text-anchor': 'end' },
      formatValue(t)));
  }
  const spanDays = (tMax - tMin) / 86400;
  const xTicks = 5;
  for (let i = 0; i <= xTicks; i += 1) {
    const t = tMin + ((tMax - tMin) * i) / xTicks;
    grid.append(node('text', { x: x(t), y: H - 8, 'text-anchor': 'middle' }, dateLabel(t, spanDays)));
  }
  if (options.unit) {
    grid.append(node('text', { x: 4, y: PAD.top + 2, class: 'unit', 'dominant-baseline': 'hanging' },
      options.unit));
  }
  svg.append(grid);

  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    const g = node('g', { class: 'series', 'data-series': s.key });
    if (s.baseline) {
      const b = s.baseline;
      const band = node('rect', {
        class: 'band',
        x: PAD.left,
        width: W - PAD.left - PAD.right,
        y: y(b.high * scale),
        height: Math.max(1, y(b.low * scale) - y(b.high * scale)),
        fill: color,
      });
      band.append(node('title', {},
        `baseline ${formatValue(b.median * scale)} (${b.runs} runs${b.ready ? '' : ', still forming'}), ` +
        `band ${formatValue(b.low * scale)}–${formatValue(b.high * scale)}`));
      g.append(band);
      g.append(node('line', {
        class: 'median', x1: PAD.left, x2: W - PAD.right,
        y1: y(b.median * scale), y2: y(b.median * scale), stroke: color,
      }));
    }
    const good = s.samples.filter((p) => !p.contended && !p.partial);
    if (good.length > 1) {
      g.append(node('polyline', {
        class: 'line',
        stroke: color,
        points: good.map((p) => `${x(p.at).toFixed(1)},${y(p.value * scale).toFixed(1)}`).join(' '),
      }));
    }
    for (const p of s.samples) {
      const cx = x(p.at);
      const cy = y(p.value * scale);
      const when = new Date(p.at * 1000).toLocaleString();
      const flags = [p.contended ? 'contended' : '', p.partial ? 'partial' : ''].filter(Boolean);
      let mark;
      if (p.partial) {
        mark = node('rect', { class: 'pt partial', x: cx - 3.5, y: cy - 3.5, width: 7, height: 7 });
      } else if (p.contended) {
        mark = node('circle', { class: 'pt contended', cx, cy, r: 4 });
      } else {
        mark = node('circle', { class: 'pt', cx, cy, r: 2.8, fill: color });
      }
      mark.append(node('title', {},
        `${s.key}: ${formatValue(p.value * scale)} ${options.unit || ''} · ${when} · run ${p.run_id}` +
        (flags.length ? ` · ${flags.join(', ')} (not evidence)` : '')));
      g.append(mark);
    }
    svg.append(g);
  });
  return svg;
}
