// A small hand-written SVG line chart for a drive's trend (no library, no
// network): one line per series over time, the detector's baseline band
// shaded behind it, contended points drawn hollow (orange) and partial
// points as hollow squares (grey) — those runs are never evidence; runs
// recognised afterwards as unseen interference hollow in the series' colour
// (judged, never part of the baseline).
// Pure DOM building; returns an <svg> element.

import { dateFormat, formatValue, localTime } from './format.js';

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
  if (spanDays < 2) return dateFormat('time', { hour: '2-digit', minute: '2-digit' }).format(d);
  if (spanDays > 200) return dateFormat('month', { year: 'numeric', month: 'short' }).format(d);
  return dateFormat('day', { month: 'short', day: 'numeric' }).format(d);
}

// More points than a chart is pixels wide draw nothing a reader can see; a
// line is thinned to this many (largest-triangle buckets) and keeps its shape.
const LINE_POINTS = 160;
// Up to this many runs (half a year of weekly ones) a series shows a dot per good run.
const DOT_LIMIT = 26;

// Largest-triangle-three-buckets: keeps the first and last point and, from
// each of (max - 2) buckets between, the point that spans the largest
// triangle with the point kept before it and the next bucket's mean, so
// peaks and dips survive the thinning. points: [{at, value}] in time order.
export function downsample(points, max) {
  if (points.length <= max || max < 3) return points;
  const out = [points[0]];
  const size = (points.length - 2) / (max - 2);
  let kept = points[0];
  for (let b = 0; b < max - 2; b += 1) {
    const start = Math.floor(b * size) + 1;
    const end = Math.min(Math.floor((b + 1) * size) + 1, points.length - 1);
    const nextEnd = Math.min(Math.floor((b + 2) * size) + 1, points.length);
    let meanAt = 0;
    let meanValue = 0;
    for (let i = end; i < nextEnd; i += 1) {
      meanAt += points[i].at;
      meanValue += points[i].value;
    }
    const n = Math.max(1, nextEnd - end);
    meanAt /= n;
    meanValue /= n;
    let best = points[start];
    let bestArea = -1;
    for (let i = start; i < end; i += 1) {
      const area = Math.abs((kept.at - meanAt) * (points[i].value - kept.value) -
        (kept.at - points[i].at) * (meanValue - kept.value));
      if (area > bestArea) {
        bestArea = area;
        best = points[i];
      }
    }
    out.push(best);
    kept = best;
  }
  out.push(points[points.length - 1]);
  return out;
}

// series: [{key, samples: [{at, value, contended, partial, run_id}], baseline}]
// options: {scale (multiply values), unit (label), title, dots (false: no
// marks for good points, only the line), minSpan (smallest value range
// drawn, so 37 vs 38 °C is not a full-height zigzag)}
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
  if (options.minSpan && vMax - vMin < options.minSpan) {
    const mid = (vMax + vMin) / 2;
    vMin = mid - options.minSpan / 2;
    vMax = mid + options.minSpan / 2;
  }
  const margin = (vMax - vMin) * 0.08 || Math.abs(vMax) * 0.1 || 1;
  // Rates start at 0; a series that goes below (a -40 °C reading) keeps its own floor.
  vMin = vMin >= 0 ? Math.max(0, vMin - margin) : vMin - margin;
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
      const line = node('polyline', {
        class: 'line',
        stroke: color,
        points: downsample(good, LINE_POINTS)
          .map((p) => `${x(p.at).toFixed(1)},${y(p.value * scale).toFixed(1)}`).join(' '),
      });
      if (s.samples.length > DOT_LIMIT) {
        const lastGood = good[good.length - 1];
        line.append(node('title', {}, `${s.key}: ${good.length} good runs, the newest ` +
          `${formatValue(lastGood.value * scale)} ${options.unit || ''} on ` +
          `${dateFormat('date', {}).format(new Date(lastGood.at * 1000))}`));
      }
      g.append(line);
    }
    // A dense series is a line: a dot (and its tooltip) per run would cost
    // two elements a run, thousands on a drive page of years, for marks a
    // finger cannot single out. Flagged runs keep their marks.
    const dotGood = options.dots !== false && s.samples.length <= DOT_LIMIT;
    for (const p of s.samples) {
      const cx = x(p.at);
      const cy = y(p.value * scale);
      const flags = [p.contended ? 'contended' : '', p.partial ? 'partial' : ''].filter(Boolean);
      let mark;
      if (p.partial) {
        mark = node('rect', { class: 'pt partial', x: cx - 3.5, y: cy - 3.5, width: 7, height: 7 });
      } else if (p.contended) {
        mark = node('circle', { class: 'pt contended', cx, cy, r: 4 });
      } else if (p.interfered) {
        mark = node('circle', { class: 'pt interfered', cx, cy, r: 3.5, stroke: color });
      } else if (!dotGood) {
        continue;  // a dense series (temperature, years of runs): the line says it all
      } else {
        mark = node('circle', { class: 'pt', cx, cy, r: s.samples.length > 120 ? 1.7 : 2.8, fill: color });
      }
      mark.append(node('title', {},
        `${s.key}: ${formatValue(p.value * scale)} ${options.unit || ''} · ${localTime(p.at)} · run ${p.run_id}` +
        (flags.length ? ` · ${flags.join(', ')} (not evidence)` : '') +
        (p.interfered && !flags.length
          ? ' · interference: every read path of the drive was worse then (kept out of the baseline)'
          : '')));
      g.append(mark);
    }
    svg.append(g);
  });
  return svg;
}

// A small inline trend line (no axes) for the overview and attribute rows.
// points: [{at, value, contended?, partial?}]; flagged points are left out
// of the line and drawn hollow. Returns an <svg> or a text node when there
// is nothing to draw. options.last = false leaves out the dot on the newest
// point (the attribute rows: thirty of them, the cell says the value).
export function sparkline(points, options = {}) {
  const w = options.width || 120;
  const h = options.height || 28;
  const label = options.label || 'trend';
  const pts = (Array.isArray(points) ? points : [])
    .filter((p) => typeof p.value === 'number' && Number.isFinite(p.value));
  if (pts.length < 2) {
    return document.createTextNode(options.empty === undefined ? 'no trend yet' : options.empty);
  }
  const svg = node('svg', { viewBox: `0 0 ${w} ${h}`, width: w, height: h, class: 'spark',
    role: 'img', 'aria-label': label });
  const t0 = pts[0].at;
  const t1 = pts[pts.length - 1].at;
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of pts) {
    if (p.value < lo) lo = p.value;
    if (p.value > hi) hi = p.value;
  }
  if (!(hi > lo)) { lo -= 1; hi += 1; }
  const x = (t) => (t1 > t0 ? ((t - t0) / (t1 - t0)) * (w - 4) + 2 : w / 2);
  const y = (v) => h - 3 - ((v - lo) / (hi - lo)) * (h - 6);
  const good = pts.filter((p) => !p.contended && !p.partial);
  if (good.length > 1) {
    svg.append(node('polyline', { class: 'spark-line',
      points: good.map((p) => `${x(p.at).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ') }));
  }
  for (const p of pts) {
    if (p.contended || p.partial) {
      svg.append(node('circle', { class: 'spark-flag', cx: x(p.at).toFixed(1), cy: y(p.value).toFixed(1), r: 2 }));
    }
  }
  const last = pts[pts.length - 1];
  if (options.last !== false) svg.append(node('circle', { class: 'spark-last', cx: x(last.at).toFixed(1), cy: y(last.value).toFixed(1), r: 2.2 }));
  return svg;
}
