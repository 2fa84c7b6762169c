// One drive's panel: identity, latest SMART, pool membership, trend charts
// (MB/s, IOPS, p99 latency, access time) with the detector's baseline band,
// its alerts with evidence and ack, its recent runs with outcome/reason, and
// a "Re-baseline" button (after a firmware update, a new cable, ...).
import { getAlerts, getDrive, getHistory, getRuns } from './api.js';
import { postWithToken, renderAlerts } from './alerts_view.js';
import { lineChart } from './chart.js';
import { el } from './dom.js';
import { driveKind, formatAgo, formatBytes } from './format.js';

// What the page charts: one chart per (test, metric).
export const CHARTS = [
  { id: 'seq-mbps', title: 'Sequential read', test: 'seq', metric: 'mb_per_s', unit: 'MB/s' },
  { id: 'random-iops', title: 'Random read IOPS', test: 'random', metric: 'iops', unit: 'IOPS' },
  { id: 'random-p99', title: 'Random read p99 latency', test: 'random', metric: 'p99_us',
    unit: 'ms', scale: 1e-3 },
  { id: 'seek-access', title: 'Access time (seek)', test: 'seek', metric: 'access_ms', unit: 'ms' },
];

function fact(label, value, cls = '') {
  return el('div', { class: 'fact' }, el('span', { class: 'muted' }, label),
    el('span', { class: cls }, value === undefined || value === null || value === '' ? '–' : value));
}

function smartFacts(smart) {
  if (!smart) return [fact('SMART', 'no snapshot yet')];
  const health = smart.health_passed === true ? 'passed' : smart.health_passed === false ? 'FAILING' : '–';
  return [
    fact('SMART health', health, smart.health_passed === false ? 'error' : ''),
    fact('Temperature', typeof smart.temperature_c === 'number' ? `${smart.temperature_c} °C` : '–'),
    fact('Power-on', typeof smart.power_on_hours === 'number' ? `${smart.power_on_hours} h` : '–'),
    fact('Reallocated', smart.reallocated_sectors, smart.reallocated_sectors > 0 ? 'warn' : ''),
    fact('Pending', smart.pending_sectors, smart.pending_sectors > 0 ? 'warn' : ''),
    fact('CRC errors', smart.udma_crc_errors),
  ];
}

function poolFacts(pools) {
  if (!Array.isArray(pools) || pools.length === 0) return [fact('Pool', 'not in a pool')];
  return pools.map((p) => fact('Pool',
    `${p.pool} / ${p.vdev} (${p.state || '?'}` +
    `${p.checksum_errors ? `, ${p.checksum_errors} cksum errors` : ''}` +
    `${p.scan_state === 'in_progress' ? `, ${p.scan} running` : ''})`));
}

function chartCard(def, history) {
  const series = history && Array.isArray(history.series) ? history.series : [];
  const body = series.length === 0
    ? el('p', { class: 'placeholder chart-empty' }, `No ${def.test} runs yet.`)
    : lineChart(series, { unit: def.unit, scale: def.scale, title: def.title });
  const legend = series.length > 1 || series.some((s) => s.baseline)
    ? el('div', { class: 'legend muted' },
      series.map((s) => el('span', {}, s.key,
        s.baseline ? ` · baseline ${s.baseline.ready ? '' : '(forming) '}` +
          `${(s.baseline.median * (def.scale || 1)).toFixed(def.scale ? 2 : 1)} ${def.unit}` : '')))
    : null;
  return el('figure', { class: 'chart-card', id: `chart-${def.id}`,
    dataset: { points: series.reduce((n, s) => n + s.samples.length, 0) } },
  el('figcaption', {}, def.title), body, legend);
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

const OUTCOME_CLASS = { ok: 'ok', failed: 'bad', cancelled: 'muted', skipped: 'warn', deferred: 'warn',
  running: 'accent', queued: 'muted' };

function runsTable(runs) {
  if (!Array.isArray(runs) || runs.length === 0) {
    return el('p', { class: 'placeholder', id: 'runs-empty' },
      'No runs yet: scheduled tests appear here when they run (or run one now).');
  }
  return el('div', { class: 'table-wrap' }, el('table', { id: 'runs-table' },
    el('thead', {}, el('tr', {}, ['Run', 'Test', 'Trigger', 'Started', 'Outcome', 'Reason / flags']
      .map((h) => el('th', {}, h)))),
    el('tbody', {}, runs.map((r) => {
      const flags = [r.contended ? 'contended' : '', r.partial ? 'partial' : ''].filter(Boolean);
      const outcome = r.outcome === 'running' ? `running ${Math.round((r.progress || 0) * 100)}%` : r.outcome;
      return el('tr', { dataset: { runId: r.id } },
        el('td', { class: 'num' }, `#${r.id}`),
        el('td', {}, r.test),
        el('td', { class: 'muted' }, r.trigger),
        el('td', { title: new Date(r.started_at * 1000).toLocaleString() }, formatAgo(r.started_at)),
        el('td', {}, el('span', { class: `chip ${OUTCOME_CLASS[r.outcome] || ''}` }, outcome)),
        el('td', {}, [r.reason, flags.length ? `(${flags.join(', ')}: not evidence)` : '']
          .filter(Boolean).join(' ')));
    }))));
}

// Loads everything about one drive into container. onChange: called after
// an alert was acknowledged or a run requested (to refresh the page).
export async function renderDrivePanel(container, driveId, { onChange, onRunNow } = {}) {
  container.dataset.state = 'loading';
  const [drive, alerts, runs, ...histories] = await Promise.allSettled([
    getDrive(driveId),
    getAlerts('active', driveId),
    getRuns(driveId, 15),
    ...CHARTS.map((c) => getHistory(driveId, c.test, c.metric)),
  ]);
  container.replaceChildren();
  if (drive.status !== 'fulfilled') {
    container.dataset.state = 'error';
    container.append(el('p', { class: 'error' }, `Cannot load drive ${driveId}: ${drive.reason.message}`));
    return;
  }
  const d = drive.value;
  container.dataset.state = 'loaded';
  container.dataset.driveId = d.id;
  const runNow = el('button', { type: 'button', class: 'button', id: 'run-now',
    title: 'Queue a sequential read test now (needs the API token)' }, 'Run seq test now');
  const runStatus = el('span', { class: 'muted', id: 'run-now-status' });
  if (onRunNow) runNow.addEventListener('click', () => onRunNow(d, runNow, runStatus));
  const rebase = el('button', { type: 'button', class: 'button', id: 'rebaseline',
    title: 'Start this drive\'s baselines anew, e.g. after a firmware update (needs the API token)' },
  'Re-baseline');
  rebase.addEventListener('click', () => rebaseline(d, rebase, runStatus, onChange));
  container.append(
    el('div', { class: 'card-head' },
      el('h2', { id: 'drive-title' }, d.name || d.id),
      el('span', { class: 'muted' }, [d.model, d.serial].filter(Boolean).join(' · ')),
      runNow, rebase, runStatus,
      el('a', { href: '#', class: 'button', id: 'drive-close' }, 'Close')),
    el('div', { class: 'facts' },
      fact('Capacity', formatBytes(d.size_bytes)),
      fact('Type', driveKind(d)),
      fact('Device', d.dev_path, 'mono'),
      fact('State', d.present ? 'present' : 'missing', d.present ? '' : 'warn'),
      fact('Firmware', d.firmware, 'mono'),
      baselineFact(d),
      ...smartFacts(d.smart),
      ...poolFacts(d.pools)),
    el('h3', {}, 'Trends'),
    el('p', { class: 'muted small' },
      'Shaded: the detector\'s baseline band. Hollow orange: contended run; hollow grey square: ' +
      'partial run — neither counts as evidence.'),
    el('div', { class: 'charts' }, CHARTS.map((c, i) =>
      chartCard(c, histories[i].status === 'fulfilled' ? histories[i].value : null))),
    el('h3', {}, 'Alerts'),
    el('div', { id: 'drive-alerts' }),
    el('h3', {}, 'Recent runs'),
    runs.status === 'fulfilled' ? runsTable(runs.value)
      : el('p', { class: 'error' }, `Cannot load runs: ${runs.reason.message}`),
  );
  const alertBox = container.querySelector('#drive-alerts');
  if (alerts.status === 'fulfilled') renderAlerts(alertBox, alerts.value, { [d.id]: d.name || d.id }, onChange);
  else alertBox.append(el('p', { class: 'error' }, alerts.reason.message));
}
