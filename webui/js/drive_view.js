// One drive's page: identity, SMART (health, attribute table with a
// sparkline per attribute and Backblaze-informed context, NVMe health log,
// self-test log, temperature history), a chart for every judged test —
// sequential, zones (outer/middle/inner), the seek profile, random IOPS and
// latency — each with the detector's band and its contended/partial marks,
// a time range (30 days, 1 year, all), its alerts with evidence, its runs
// with reasons, run-now for any test, re-baseline, its overrides, and an
// export of everything kept about it (CSV or JSON).
import {
  getAlerts, getDrive, getFile, getHistory, getRuns, getSmartHistory, getTests, postWithToken,
} from './api.js';
import { renderAlerts } from './alerts_view.js';
import { lineChart, sparkline } from './chart.js';
import { el, nextTask, saveFile, stacked } from './dom.js';
import { driveKind, formatBytes, formatPowerOn, formatTemp } from './format.js';
import { runsTable, startRun, testSelect } from './schedule_view.js';
import { getOverrides, renderOverrides } from './overrides_view.js';
import { getZfs, renderZfsSection } from './zfs_view.js';

// What the page charts: one chart per figure of each test that detection
// judges, from the daemon's catalog (GET /api/v1/tests), so chart titles and
// units are the ones alerts and /metrics use; every series of the answer
// (zones, strokes, queue depths) is a line of its own. Latencies stored in
// microseconds are drawn in milliseconds.
const CHART_ID = { mb_per_s: 'mbps', iops: 'iops', access_ms: 'access', p99_us: 'p99' };
export function chartsOf(catalog) {
  const charts = [];
  for (const t of (catalog && catalog.tests) || []) {
    if (!t.judged) continue;
    for (const m of t.metrics || []) {
      const micro = m.unit === 'us';
      charts.push({ id: `${t.name}-${CHART_ID[m.metric] || m.metric}`, title: m.title, test: t.name,
        metric: m.metric, unit: micro ? 'ms' : m.unit, scale: micro ? 1e-3 : undefined });
    }
  }
  return charts;
}

export const RANGES = [
  { id: '30d', label: '30 days', days: 30 },
  { id: '1y', label: '1 year', days: 365 },
  { id: 'all', label: 'All', days: 0 },
];
let range = '1y';

// The five attributes Backblaze's drive statistics single out: among their
// fleet, drives that failed showed a raw value above zero in one of them far
// more often than drives that kept working (Backblaze blog, "What SMART Stats
// Tell Us About Hard Drives", 2016). Context for people, not a verdict.
const BACKBLAZE = {
  5: 'Sectors already remapped to spares. In Backblaze\'s fleet a raw value above 0 was much more ' +
    'common in drives that later failed; a count that keeps rising matters more than its size.',
  187: 'Reads the drive could not correct. One of Backblaze\'s five failure signals: above 0 is worth watching.',
  188: 'Commands that timed out; cabling and power cause them too, yet Backblaze saw them more often in ' +
    'drives that failed.',
  197: 'Sectors waiting to be remapped after a failed read. One of Backblaze\'s five signals; they can ' +
    'clear when the sector is rewritten, but growth is a warning.',
  198: 'Sectors the drive\'s own offline scan could not read. One of Backblaze\'s five failure signals.',
};

// A label and its value; a value without a class of its own is text beside
// the label, not one more element.
function fact(label, value, cls = '') {
  const shown = value === undefined || value === null || value === '' ? '–' : value;
  return el('div', { class: 'fact' }, el('span', { class: 'muted' }, label),
    cls ? el('span', { class: cls }, shown) : shown);
}

function smartFacts(smart) {
  if (!smart) return [fact('SMART', 'no snapshot yet')];
  const health = smart.health_passed === true ? 'passed' : smart.health_passed === false ? 'FAILING' : '–';
  return [
    fact('SMART health', health, smart.health_passed === false ? 'error' : ''),
    fact('Temperature', formatTemp(smart.temperature_c)),
    fact('Power-on', typeof smart.power_on_hours === 'number'
      ? `${smart.power_on_hours} h (${formatPowerOn(smart.power_on_hours)})` : '–'),
    fact('Reallocated', smart.reallocated_sectors, smart.reallocated_sectors > 0 ? 'warn' : ''),
    fact('Pending', smart.pending_sectors, smart.pending_sectors > 0 ? 'warn' : ''),
    fact('CRC errors', smart.udma_crc_errors),
  ];
}

function identityFacts(d) {
  const sectors = d.logical_block_size
    ? `${d.logical_block_size} / ${d.physical_block_size || d.logical_block_size} B` : '–';
  return [
    fact('Capacity', formatBytes(d.size_bytes)),
    fact('Type', driveKind(d)),
    fact('Device', d.dev_path, 'mono'),
    fact('State', d.present ? 'present' : 'missing', d.present ? '' : 'warn'),
    fact('Firmware', d.firmware, 'mono'),
    fact('WWN', d.wwn, 'mono'),
    fact('Sectors (logical / physical)', sectors),
    fact('Bus', d.transport ? d.transport.toUpperCase() : '–'),
    fact('Controller', d.controller, 'mono small'),
  ];
}

function poolFacts(pools) {
  if (!Array.isArray(pools) || pools.length === 0) return [fact('Pool', 'not in a pool')];
  return pools.map((p) => fact('Pool',
    `${p.pool} / ${p.vdev} · ${p.role || 'data'} (${p.state || '?'}` +
    `${p.checksum_errors ? `, ${p.checksum_errors} cksum errors` : ''}` +
    `${p.scan_state === 'in_progress' ? `, ${p.scan} running` : ''})`));
}

// since: the first time shown (0 = all). The band is the detector's own,
// formed from the start (since the re-baseline) whatever the range asked.
function chartCard(def, history, error, since) {
  const series = (history && Array.isArray(history.series) ? history.series : [])
    .map((s) => ({ ...s, samples: s.samples.filter((p) => p.at >= since) }))
    .filter((s) => s.samples.length > 0);
  const total = series.reduce((n, s) => n + (s.samples_total ?? s.samples.length), 0);
  let body;
  if (error) body = retryBox(error);
  else if (series.length === 0) body = el('p', { class: 'placeholder chart-empty' }, `No ${def.test} runs in this range.`);
  else if (series.every((s) => s.samples.every((p) => p.contended || p.partial))) {
    body = el('div', {},
      el('p', { class: 'placeholder small' }, `Only contended or partial ${def.test} runs: nothing here is evidence yet.`),
      lineChart(series, { unit: def.unit, scale: def.scale, title: def.title }));
  } else body = lineChart(series, { unit: def.unit, scale: def.scale, title: def.title });
  const legend = series.length > 1 || series.some((s) => s.baseline)
    ? el('div', { class: 'legend muted' },
      series.map((s) => el('span', {}, s.key,
        s.baseline ? ` · baseline ${s.baseline.ready ? '' : '(forming) '}` +
          `${(s.baseline.median * (def.scale || 1)).toFixed(def.scale ? 2 : 1)} ${def.unit}` +
          noiseText(s.baseline) : '')))
    : null;
  return el('figure', { class: 'chart-card', id: `chart-${def.id}`,
    dataset: { points: series.reduce((n, s) => n + s.samples.length, 0), total, series: series.length } },
  el('figcaption', {}, def.title), body, legend);
}

// A chart whose answer failed (a busy daemon, a slow link) says so and
// tries again by itself, 2, 4, 8... seconds apart; Retry tries now.
const RETRY_FIRST_MS = 2000;
const RETRY_MAX_MS = 30000;
const RETRY_ATTEMPTS = 6;

function retryBox(error) {
  return el('div', { class: 'chart-empty chart-retry', role: 'status' },
    el('p', { class: 'error' }, `Cannot load: ${error.message}`),
    el('p', { class: 'muted small retry-when' }, 'retrying…'),
    el('button', { type: 'button', class: 'button retry' }, 'Retry'));
}

// For a figure drawn with a retry box: load() again after a backoff (or at
// once on Retry) and put draw(value) in its place; a new failure waits
// twice as long. Stops when the figure left the page (another drive, a new
// range, a refresh drew it anew).
function keepTrying(figure, load, draw, attempt = 0) {
  const box = figure.querySelector('.chart-retry');
  if (!box) return;
  const wait = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** attempt);
  const when = box.querySelector('.retry-when');
  const button = box.querySelector('button.retry');
  let timer = 0;
  const go = async () => {
    clearTimeout(timer);
    if (!figure.isConnected) return;
    button.disabled = true;
    when.textContent = 'retrying now…';
    let drawn;
    try {
      drawn = draw(await load());
    } catch (err) {
      drawn = null;
      box.querySelector('.error').textContent = `Cannot load: ${err.message}`;
    }
    if (!figure.isConnected) return;
    if (drawn) {
      figure.replaceWith(drawn);
      keepTrying(drawn, load, draw, 0);  // drawn with an error again: start over
      return;
    }
    button.disabled = false;
    if (attempt + 1 < RETRY_ATTEMPTS) keepTrying(figure, load, draw, attempt + 1);
    else when.textContent = 'not retrying any more: Retry tries again.';
  };
  when.textContent = `retrying in ${Math.round(wait / 1000)} s…`;
  button.onclick = go;
  timer = setTimeout(go, wait);
}

// What the series' noise lets the detector see: " · noise CV 2.1% · a 15% drop
// is seen within ~2 runs" (the detector's own figures, from the history call).
function noiseText(b) {
  if (!b.ready || !Number.isFinite(b.noise_percent)) return '';
  const d = b.detectable || {};
  const change = d.change_percent === 50 ? 'a 1.5× rise' : `a ${d.change_percent}% drop`;
  const seen = d.runs > 0 ? `${change} is seen within ~${d.runs} runs` : `${change} is not reliably seen at this noise`;
  // Pooled with the series that share its read path: their spread stands
  // behind a young baseline's (the detector's own estimate).
  const pooled = b.noise_pooled && Number.isFinite(b.noise_own_percent)
    ? ` (with its read path's other series; ${b.noise_own_percent.toFixed(1)}% alone)` : '';
  // Widened by the runs of an open change while they wait to join: the
  // baseline's first runs had agreed more closely than the series does.
  const waiting = b.noise_waiting_runs > 0
    ? ` (widened by ${b.noise_waiting_runs} runs not yet in the baseline)` : '';
  return ` · noise CV ${b.noise_percent.toFixed(1)}%${pooled}${waiting} · ${seen}`;
}

// "baseline since 31/10/2026 (firmware changed from A to B)", or the first runs.
function baselineFact(d) {
  const m = d.rebaseline;
  if (!m || !d.baseline_since) return fact('Detection', 'baseline from its first good runs');
  const when = new Date(d.baseline_since * 1000);
  return el('div', { class: 'fact', id: 'baseline-since', title: `${when.toLocaleString()} by ${m.who}` },
    el('span', { class: 'muted' }, 'Detection'),
    el('span', {}, `baseline since ${when.toLocaleDateString()}${m.test ? ` for ${m.test}` : ''}` +
      `${m.reason ? ` (${m.reason})` : ''}`));
}

// Asks for confirmation and a reason, then POSTs the re-baseline (the token
// is asked for when needed).
// The drive's export (GET /api/v1/drives/{id}/export) saved as a file: the
// download goes through fetch so it carries the token this tab keeps.
export const exportPath = (id, format) =>
  `/api/v1/drives/${encodeURIComponent(id)}/export?format=${format}`;

function exportButton(d, format, status) {
  const button = el('button', { type: 'button', class: 'button', id: `export-${format}`,
    title: `Everything kept about this drive (runs, SMART, alerts) as ${format.toUpperCase()}` },
  `Export ${format.toUpperCase()}`);
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const { blob, name } = await getFile(exportPath(d.id, format), `diskpulse-${d.id}.${format}`);
      saveFile(blob, name);
      status.textContent = `${name} saved`;
      status.classList.remove('error');
    } catch (err) {
      status.textContent = `not exported: ${err.message}`;
      status.classList.add('error');
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

async function rebaseline(d, button, status, onChange) {
  const reason = window.prompt(`Re-baseline ${d.name || d.id}?\n\nIts baselines form anew from ` +
    'the next good runs and its open slowdown and trend alerts are resolved; the history is ' +
    'kept. Do this after a firmware update or another deliberate change.\n\nReason:', '');
  if (reason === null) return;  // cancelled
  button.disabled = true;
  status.textContent = 're-baselining…';
  try {
    const r = await postWithToken(`/api/v1/drives/${encodeURIComponent(d.id)}/rebaseline`,
      reason.trim() ? { reason: reason.trim() } : {});
    const n = Array.isArray(r.resolved_alerts) ? r.resolved_alerts.length : 0;
    status.textContent = `re-baselined${n ? `, ${n} alert${n > 1 ? 's' : ''} resolved` : ''}`;
    if (onChange) onChange();
  } catch (err) {
    status.textContent = `not re-baselined: ${err.message}`;
    status.classList.add('error');
  } finally {
    button.disabled = false;
  }
}

// Retires a drive that is gone for good (replaced, sold): asks first, with a
// reason, then every alert of it resolves as retired and its missing alert
// stops. Offered only for a drive discovery no longer sees (the daemon
// refuses a present one).
function forgetButton(d, status, onChange) {
  const button = el('button', { type: 'button', class: 'button', id: 'drive-forget',
    title: 'Retire this drive: gone for good (replaced, sold); its history stays' }, 'Forget');
  button.addEventListener('click', async () => {
    const reason = window.prompt(`Forget ${d.name || d.id}?\n\nDo this only for a drive taken ` +
      'out for good. Its alerts resolve as retired and no "missing" alert is raised for it any ' +
      'more; its history is kept, and it is watched again if it ever comes back.\n\n' +
      'Reason (e.g. replaced by serial ...):', '');
    if (reason === null) return;  // cancelled
    button.disabled = true;
    status.textContent = 'forgetting…';
    try {
      const r = await postWithToken(`/api/v1/drives/${encodeURIComponent(d.id)}/forget`,
        reason.trim() ? { reason: reason.trim() } : {});
      const n = Array.isArray(r.resolved_alerts) ? r.resolved_alerts.length : 0;
      status.textContent = `forgotten${n ? `, ${n} alert${n > 1 ? 's' : ''} resolved` : ''}`;
      status.classList.remove('error');
      if (onChange) onChange();
    } catch (err) {
      status.textContent = `not forgotten: ${err.message}`;
      status.classList.add('error');
      button.disabled = false;
    }
  });
  return button;
}

// The drive's own flags on an attribute, and Backblaze's context for the five.
function attributeStatus(a) {
  if (a.when_failed === 'now') return { cls: 'bad', text: 'failing now', why: 'the drive flags this attribute as failing now (value at or below its threshold)' };
  if (a.when_failed === 'past') return { cls: 'warn', text: 'failed before', why: 'the drive says this attribute was below its threshold in the past' };
  if (typeof a.value === 'number' && typeof a.thresh === 'number' && a.thresh > 0 && a.value <= a.thresh) {
    return { cls: 'bad', text: 'at threshold', why: `normalised value ${a.value} is at or below the threshold ${a.thresh}` };
  }
  const count = rawShown(a);
  if (BACKBLAZE[a.id] && typeof count === 'number' && count > 0) {
    return { cls: 'warn', text: `raw ${count}`, why: BACKBLAZE[a.id] };
  }
  return { cls: 'ok', text: 'ok', why: 'above its threshold; not flagged by the drive' };
}

// The number smartctl's raw string starts with (26 of "26 (Min/Max 18/41)"):
// what a packed raw value means; the raw number where there is no string.
function rawShown(a) {
  return typeof a.raw_shown === 'number' ? a.raw_shown : a.raw;
}

// The raw cell: the string as smartctl prints it and, where the 48-bit
// number behind it packs more than that (a temperature with its minimum and
// maximum, a spin-up time with its average), the number beside it.
function rawCell(a) {
  const number = typeof a.raw === 'number' ? String(a.raw) : '–';
  const text = a.raw_string || number;
  return el('td', { class: 'num mono' }, text, text !== number && typeof a.raw === 'number'
    ? el('span', { class: 'muted small raw48', title: 'the 48-bit raw value smartctl decodes' }, ` ${number}`)
    : null);
}

// The newest value a sparkline draws ("" when none), for tests and tools.
function drawnLast(samples) {
  const drawn = samples.filter((p) => typeof p.value === 'number');
  return drawn.length ? String(drawn[drawn.length - 1].value) : '';
}

// The SMART history's time axis: its figures and attributes are arrays
// aligned with it (null where a snapshot does not report one).
function smartTimes(history) {
  return history && Array.isArray(history.at) ? history.at : [];
}

function attributeTable(smart, history) {
  const attrs = smart && Array.isArray(smart.attributes) ? smart.attributes : [];
  if (attrs.length === 0) {
    return el('p', { class: 'placeholder', id: 'attributes-empty' },
      smart ? 'This drive reports no ATA attributes (NVMe and SCSI drives report a health log instead).'
        : 'No SMART data yet: the drive has not been read (asleep, no smartctl, or not root).');
  }
  const at = smartTimes(history);
  const byId = {};
  for (const h of (history && history.attributes) || []) byId[h.id] = h;
  return el('div', { class: 'table-wrap' }, stacked(el('table', { id: 'attributes-table' },
    el('thead', {}, el('tr', {}, ['ID', 'Attribute', 'Value', 'Worst', 'Thresh', 'Raw', 'Status', 'History']
      .map((h, i) => el('th', { scope: 'col', class: i >= 2 && i <= 5 ? 'num' : '' }, h)))),
    el('tbody', {}, attrs.map((a) => {
      const st = attributeStatus(a);
      const h = byId[a.id];
      // Counters and packed raw values are drawn by the number smartctl shows;
      // other attributes by their normalised value.
      const shown = h && Array.isArray(h.raw_shown) ? h.raw_shown : [];
      const byRaw = h && (BACKBLAZE[a.id] || shown.some((v, i) => typeof v === 'number' && v !== h.raw[i]));
      const samples = h ? at.map((t, i) => ({ at: t,
        value: byRaw && typeof shown[i] === 'number' ? shown[i]
          : byRaw && typeof h.raw[i] === 'number' ? h.raw[i] : h.value[i] })) : [];
      const context = BACKBLAZE[a.id];
      return el('tr', { dataset: { attr: a.id }, class: context ? 'backblaze' : '' },
        el('td', { class: 'num' }, String(a.id)),
        el('td', {}, a.name, context ? el('span', { class: 'chip bb', title: context }, 'Backblaze') : null,
          context ? el('div', { class: 'muted small wrap bb-text' }, context) : null),
        el('td', { class: 'num' }, a.value ?? '–'),
        el('td', { class: 'num' }, a.worst ?? '–'),
        el('td', { class: 'num' }, a.thresh ?? '–'),
        rawCell(a),
        el('td', {}, el('span', { class: `chip ${st.cls}`, title: st.why }, st.text)),
        el('td', { dataset: { sparkLast: drawnLast(samples) } }, sparkline(samples, { width: 100, height: 22, empty: '–', last: false,
          label: `${a.name} ${byRaw ? 'raw' : 'normalised'} over time` })));
    })))));
}

function nvmeLog(smart) {
  const n = smart && smart.nvme;
  if (!n) return null;
  return el('div', { class: 'facts', id: 'nvme-log' },
    fact('Critical warning', n.critical_warning, n.critical_warning > 0 ? 'error' : ''),
    fact('Percentage used', typeof n.percentage_used === 'number' ? `${n.percentage_used}%` : null),
    fact('Available spare', typeof n.available_spare === 'number'
      ? `${n.available_spare}% (threshold ${n.available_spare_threshold ?? '–'}%)` : null),
    fact('Media errors', n.media_errors, n.media_errors > 0 ? 'warn' : ''),
    fact('Unsafe shutdowns', n.unsafe_shutdowns),
    fact('Error log entries', n.num_err_log_entries));
}

function selfTests(smart) {
  const tests = smart && Array.isArray(smart.self_tests) ? smart.self_tests : [];
  if (tests.length === 0) return el('p', { class: 'placeholder small', id: 'selftests-empty' }, 'No self-test logged.');
  return el('div', { class: 'table-wrap' }, stacked(el('table', { id: 'selftest-table' },
    el('thead', {}, el('tr', {}, ['Type', 'Status', 'Result', 'At power-on hour']
      .map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, tests.slice(0, 10).map((t) => el('tr', {},
      el('td', {}, t.type || '–'),
      el('td', { class: 'wrap' }, t.status || '–'),
      el('td', {}, el('span', { class: `chip ${t.passed === false ? 'bad' : t.passed ? 'ok' : ''}` },
        t.passed === false ? 'failed' : t.passed ? 'passed' : '–')),
      el('td', { class: 'num' }, t.lifetime_hours ?? '–')))))));
}

function temperatureCard(history, error) {
  const temps = (history && history.figures && history.figures.temperature_c) || [];
  const samples = [];
  smartTimes(history).forEach((at, i) => {
    if (typeof temps[i] === 'number') samples.push({ at, value: temps[i], run_id: samples.length });
  });
  let body;
  if (error) body = retryBox(error);
  else if (samples.length === 0) body = el('p', { class: 'placeholder chart-empty' }, 'No temperature readings in this range.');
  else {
    body = lineChart([{ key: 'temperature', samples, baseline: null }],
      { unit: '°C', title: 'Temperature', dots: false, minSpan: 10 });
  }
  return el('figure', { class: 'chart-card', id: 'chart-temperature', dataset: { points: samples.length } },
    el('figcaption', {}, 'Temperature'), body);
}

function rangeButtons(onPick) {
  return el('div', { class: 'range', role: 'group', 'aria-label': 'time range' },
    RANGES.map((r) => {
      const b = el('button', { type: 'button', class: `button small${r.id === range ? ' active' : ''}`,
        'aria-pressed': r.id === range ? 'true' : 'false', dataset: { range: r.id } }, r.label);
      b.addEventListener('click', () => { range = r.id; onPick(); });
      return b;
    }));
}

function runNowControls(d, onChange) {
  const test = testSelect({ id: 'drive-run-test', 'aria-label': 'test to run' });
  const go = el('button', { type: 'button', class: 'button', id: 'run-now',
    title: 'Queue this test on this drive now (needs the API token)' }, 'Run now');
  const box = el('span', { class: 'muted run-status', id: 'run-now-status', 'aria-live': 'polite' });
  go.addEventListener('click', () => startRun(d.id, test.value, go, box, onChange));
  return [test, go, box];
}

// The drive page is built a part at a time, each in a task of its own: built
// at once it was one task of a fifth of a second on a slow phone (and the
// layout of all of it another), during which a tap waited. The part the
// screen shows first comes first; the rest follows below it, out of view.

// The latest drawing of each panel: an older one still under way stops
// at its next part (another drive, a new range, a refresh began anew).
const drawing = new WeakMap();

// Loads everything about one drive into container. onChange: called after
// an alert was acknowledged or a run finished (to refresh the page).
// onShown: called once the first screenful is in place (the caller shows
// the panel then); container.dataset.state is 'loaded' once every part is.
export async function renderDrivePanel(container, driveId, { onChange, onShown } = {}) {
  const days = RANGES.find((r) => r.id === range).days;
  const since = days ? Math.floor(Date.now() / 1000) - days * 86400 : 0;
  // A chart is at most the screen wide: about one run per pixel column is
  // all it can show (the daemon keeps each stretch's extremes).
  const points = Math.max(100, Math.min(800, Math.round(document.documentElement.clientWidth || 800)));
  let charts = [];
  let chartsError = null;
  try {
    charts = chartsOf(await getTests());
  } catch (err) {
    chartsError = err;
  }
  const [drive, alerts, runs, smartHistory, zfs, overrides, ...histories] = await Promise.allSettled([
    getDrive(driveId),
    getAlerts('active', driveId),
    getRuns(driveId, 8),
    getSmartHistory(driveId, since),
    getZfs(driveId),
    getOverrides(driveId),
    ...charts.map((c) => getHistory(driveId, c.test, c.metric, { since, points })),
  ]);
  if (container.querySelector('#run-now[disabled]')) return;  // a run is being followed
  const token = {};
  drawing.set(container, token);
  const redraw = () => renderDrivePanel(container, driveId, { onChange });
  // The last run-now's outcome stays in view across the refresh it causes.
  const lastRun = container.dataset.ref === driveId ? container.querySelector('#run-now-status') : null;
  // So does an action's word (forgotten, re-baselined, exported).
  const lastStatus = container.dataset.ref === driveId ? container.querySelector('#panel-status') : null;
  container.replaceChildren();
  if (drive.status !== 'fulfilled') {
    container.dataset.state = 'error';
    container.append(el('p', { class: 'error' }, `Cannot load drive ${driveId}: ${drive.reason.message}`));
    if (onShown) onShown();
    return;
  }
  const d = drive.value;
  container.dataset.state = 'drawing';
  container.dataset.driveId = d.id;
  container.dataset.ref = driveId;
  const status = el('span', { class: 'muted', id: 'panel-status' });
  if (lastStatus) {
    status.textContent = lastStatus.textContent;
    status.className = lastStatus.className;
  }
  const rebase = el('button', { type: 'button', class: 'button', id: 'rebaseline',
    title: 'Start this drive\'s baselines anew, e.g. after a firmware update (needs the API token)' },
  'Re-baseline');
  rebase.addEventListener('click', () => rebaseline(d, rebase, status, onChange));
  const sh = smartHistory.status === 'fulfilled' ? smartHistory.value : null;
  const paths = Array.isArray(d.stable_paths) ? d.stable_paths : [];
  const chartBox = el('div', { class: 'charts' }, chartsError
    ? el('p', { class: 'error', id: 'charts-error' }, `Cannot load the test catalog: ${chartsError.message}`)
    : null);
  const chartOf = (c, i) => chartCard(c, histories[i].status === 'fulfilled' ? histories[i].value : null,
    histories[i].status === 'rejected' ? histories[i].reason : null, since);
  container.append(...[
    el('div', { class: 'card-head wrap-head' },
      el('h2', { id: 'drive-title' }, d.name || d.id),
      el('span', { class: 'muted' }, [d.model, d.serial].filter(Boolean).join(' · ')),
      el('span', { class: 'badge badge-watch', id: 'override-badge', hidden: true }),
      el('a', { href: '#', class: 'button', id: 'drive-close' }, 'Close')),
    el('div', { class: 'actions' }, ...runNowControls(d, onChange), rebase,
      exportButton(d, 'csv', status), exportButton(d, 'json', status),
      d.present || d.forgotten_at ? null : forgetButton(d, status, onChange), status),
    el('div', { class: 'facts' }, ...identityFacts(d), baselineFact(d), ...smartFacts(d.smart), ...poolFacts(d.pools)),
    paths.length ? el('details', { class: 'paths small' }, el('summary', {}, `Stable paths (${paths.length})`),
      el('ul', { class: 'mono' }, paths.map((p) => el('li', {}, p)))) : null,
    el('div', { class: 'section-head' }, el('h3', {}, 'Trends'), rangeButtons(redraw)),
    el('p', { class: 'muted small' },
      'Shaded: the detector\'s baseline band. Hollow orange: contended run; hollow grey square: ' +
      'partial run — neither counts as evidence.'),
    chartBox,
  ].filter(Boolean));
  const box = container.querySelector('#run-now-status');
  if (lastRun && box) {
    box.replaceChildren(...lastRun.childNodes);
    if (lastRun.dataset.outcome) box.dataset.outcome = lastRun.dataset.outcome;
  }
  // The first chart with the head: what a phone's screen shows first.
  if (charts.length) chartBox.append(chartOf(charts[0], 0));
  if (onShown) onShown();
  // Then the other charts, one a task, and the rest of the page below them.
  const parts = [
    ...charts.slice(1).map((c, i) => () => chartBox.append(chartOf(c, i + 1))),
    () => chartBox.append(temperatureCard(sh, smartHistory.status === 'rejected' ? smartHistory.reason : null)),
    () => container.append(el('h3', {}, 'SMART attributes'), attributeTable(d.smart, sh)),
    () => container.append(...[
      d.smart && d.smart.nvme ? el('h3', {}, 'NVMe health log') : null,
      nvmeLog(d.smart),
      el('h3', {}, 'Self-test log'),
      selfTests(d.smart),
      el('div', { id: 'drive-zfs', hidden: true }),
      el('h3', {}, 'Overrides'),
      el('div', { id: 'drive-overrides' }),
      el('h3', {}, 'Alerts'),
      el('div', { id: 'drive-alerts' }),
      el('h3', {}, 'Recent runs'),
      runs.status === 'fulfilled' ? runsTable(runs.value)
        : el('p', { class: 'error' }, `Cannot load runs: ${runs.reason.message}`),
    ].filter(Boolean)),
  ];
  for (const part of parts) {
    await nextTask();
    if (drawing.get(container) !== token) return;
    part();
  }
  charts.forEach((c, i) => {
    if (histories[i].status !== 'rejected') return;
    keepTrying(container.querySelector(`#chart-${c.id}`),
      () => getHistory(driveId, c.test, c.metric, { since, points }),
      (value) => chartCard(c, value, null, since));
  });
  if (smartHistory.status === 'rejected') {
    keepTrying(container.querySelector('#chart-temperature'), () => getSmartHistory(driveId, since),
      (value) => temperatureCard(value, null));
  }
  renderZfsSection(container.querySelector('#drive-zfs'), zfs);
  renderOverrides(container.querySelector('#drive-overrides'), container.querySelector('#override-badge'),
    d, overrides, redraw);
  const alertBox = container.querySelector('#drive-alerts');
  if (alerts.status === 'fulfilled') renderAlerts(alertBox, alerts.value, { [d.id]: d.name || d.id }, onChange);
  else alertBox.append(el('p', { class: 'error' }, alerts.reason.message));
  container.dataset.state = 'loaded';
}
