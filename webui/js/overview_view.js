// The first screen: one card per drive, worst first (the order and the
// status come from GET /api/v1/overview, which reads them from the stored
// alerts and SMART: the page judges nothing itself), and the pool map
// (pool -> vdev -> members with role, state, error counters, scrub/resilver).
import { sparkline } from './chart.js';
import { el, stacked } from './dom.js';
import { driveKind, formatAgo, formatBytes, formatNumber, formatPercent, formatPowerOn, formatTemp,
  localTime } from './format.js';

const STATUS_LABEL = {
  failing: 'failing', missing: 'missing', slowing: 'slowing', warning: 'warning',
  watching: 'watching', asleep: 'asleep', healthy: 'healthy',
};

function badge(status, reason) {
  const s = STATUS_LABEL[status] ? status : 'warning';
  return el('span', { class: `badge badge-${s}`, title: reason || '' }, STATUS_LABEL[s]);
}

function membership(d) {
  if (!Array.isArray(d.pools) || d.pools.length === 0) return 'not in a pool';
  return d.pools.map((p) => `${p.pool} / ${p.vdev} · ${p.role || 'data'}`).join(', ');
}

function readFigure(d) {
  const r = d.read;
  if (!r) return el('span', { class: 'muted' }, 'no read test yet');
  const value = `${formatNumber(r.value)} MB/s`;
  if (!r.good) {
    return el('span', { class: 'muted', title: 'the newest run was contended or partial: not evidence' },
      `${value} (not evidence)`);
  }
  if (typeof r.percent !== 'number') {
    return el('span', { title: 'baseline still forming' }, `${value} · baseline forming`);
  }
  const cls = r.percent < 90 ? 'bad' : r.percent < 95 ? 'warn' : '';
  return el('span', { class: cls, title: `${r.test} ${r.series}: ${value}, baseline ` +
      `${formatNumber(r.baseline_median)} MB/s${r.baseline_ready ? '' : ' (forming)'}` },
  `${formatPercent(r.percent)} of baseline`);
}

function alertsFigure(a) {
  if (!a || (a.open === 0 && a.acknowledged === 0)) return el('span', { class: 'muted' }, 'none');
  const parts = [];
  if (a.open) parts.push(`${a.open} open`);
  if (a.acknowledged) parts.push(`${a.acknowledged} acked`);
  return el('span', { class: a.open ? 'bad' : 'warn', title: (a.kinds || []).join(', ') },
    `${parts.join(', ')}${a.kinds && a.kinds.length ? ` (${a.kinds.join(', ')})` : ''}`);
}

// The label and the figure: a plain figure is text beside the label, not
// wrapped in an element of its own (nine cards of seven stats add up).
function stat(label, value) {
  return el('div', { class: 'stat' }, el('span', { class: 'stat-label' }, label), value);
}

function driveCard(d) {
  const name = d.name || d.id;
  return el('a', {
    class: `drive-card status-${d.status}`, href: `#drive=${encodeURIComponent(d.id)}`,
    dataset: { driveId: d.id, status: d.status },
  },
  el('div', { class: 'drive-card-head' },
    el('strong', { class: 'drive-name' }, name), badge(d.status, d.reason),
    el('span', { class: 'muted small drive-model' }, d.model || ''),
    d.serial ? el('span', { class: 'muted small mono drive-serial' }, `S/N ${d.serial}`) : null),
  el('div', { class: 'reason small', title: d.reason }, d.reason),
  el('div', { class: 'stats' },
    stat('Temp', formatTemp(d.temperature_c)),
    stat('Powered on', formatPowerOn(d.power_on_hours)),
    stat('Size', `${formatBytes(d.size_bytes)} ${driveKind(d) === '–' ? '' : driveKind(d)}`.trim()),
    stat('Pool', membership(d)),
    stat('Read', readFigure(d)),
    stat('Alerts', alertsFigure(d.alerts)),
    stat('SMART read', d.smart_at
      ? el('span', { class: 'smart-at', title: localTime(d.smart_at) }, formatAgo(d.smart_at))
      : el('span', { class: 'muted smart-at' }, 'not yet'))),
  cardSpark(d, name));
}

// The read trend under the stats; "no trend yet" as a line of its own.
function cardSpark(d, name) {
  const spark = sparkline((d.trend || []).map(([at, value, flag]) => ({ at, value, contended: flag === 1, partial: flag === 2 })),
    { width: 240, height: 30, label: `${name} ${d.read ? d.read.test : 'seq'} MB/s over time` });
  if (!(spark instanceof Element)) return el('div', { class: 'spark-wrap' }, spark);
  spark.classList.add('spark-wrap');
  return spark;
}

function emptyState() {
  return el(
    'div',
    { class: 'empty', id: 'drives-empty' },
    el('p', { class: 'lead' },
      el('strong', {}, 'No drives discovered yet:'),
      ' diskpulsed lists every disk it finds here after its first inventory scan, and keeps ' +
      'each one\'s history even if it goes away.'),
    el('p', {}, 'If this stays empty:'),
    el('ul', {},
      el('li', {}, 'run diskpulsed as root, so it can read the drives\' identity and SMART data;'),
      el('li', {}, 'check ', el('code', {}, 'inventory.exclude'), ' in the configuration;'),
      el('li', {}, 'or name disks and files to watch in ', el('code', {}, 'targets'), ';'),
      el('li', {}, 'or try ', el('code', {}, 'diskpulsed --demo'), ' to see the page on simulated drives.'),
    ),
  );
}

// The overview's own order (the daemon's: worst first) or another one, and
// a filter on what a card says (name, model, serial, pool, status, reason).
const SORTS = {
  status: null,
  name: (a, b) => String(a.name || a.id).localeCompare(String(b.name || b.id), undefined, { numeric: true }),
  temperature: (a, b) => num(b.temperature_c) - num(a.temperature_c),
  read: (a, b) => num(a.read && a.read.percent, Infinity) - num(b.read && b.read.percent, Infinity),
  powered: (a, b) => num(b.power_on_hours) - num(a.power_on_hours),
  smart: (a, b) => num(a.smart_at, Infinity) - num(b.smart_at, Infinity),
};

function num(v, missing = -Infinity) {
  return typeof v === 'number' && Number.isFinite(v) ? v : missing;
}

function cardText(d) {
  return [d.name, d.id, d.model, d.serial, d.status, d.reason, d.dev_path, membership(d)]
    .filter(Boolean).join(' ').toLowerCase();
}

// The drives shown, in order: filter words must all appear in a card's text.
export function arrangeDrives(drives, { sort = 'status', filter = '' } = {}) {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = drives.filter((d) => words.every((w) => cardText(d).includes(w)));
  const compare = SORTS[sort];
  return compare ? [...shown].sort(compare) : shown;
}

let lastOverview = null;

function arrangement() {
  const sort = document.getElementById('drive-sort');
  const filter = document.getElementById('drive-filter');
  return { sort: sort ? sort.value : 'status', filter: filter ? filter.value : '' };
}

export function renderOverview(container, overview) {
  lastOverview = overview;
  container.replaceChildren();
  const drives = overview && Array.isArray(overview.drives) ? overview.drives : [];
  if (drives.length === 0) {
    container.dataset.state = 'empty';
    container.append(emptyState());
    return;
  }
  container.dataset.state = 'list';
  const shown = arrangeDrives(drives, arrangement());
  container.append(el('div', { class: 'drive-cards', id: 'drive-cards' }, shown.map(driveCard)));
  if (shown.length < drives.length) {
    container.append(el('p', { class: 'muted small', id: 'drives-filtered' },
      `${shown.length} of ${drives.length} drives match the filter.`));
  }
}

// Sorting and filtering redraw the cards from the last answer (no new call).
export function bindOverviewControls(container) {
  for (const id of ['drive-sort', 'drive-filter']) {
    const control = document.getElementById(id);
    if (control) control.addEventListener('input', () => renderOverview(container, lastOverview));
  }
}

export function renderOverviewError(container, error) {
  container.replaceChildren();
  container.dataset.state = 'error';
  container.append(
    el('div', { class: 'empty' },
      el('h3', { class: 'error' }, 'Cannot load the drives'),
      el('p', {}, error.message),
      el('p', {}, 'The page retries by itself; "Refresh" tries now.')),
  );
}

function counter(v) {
  return typeof v === 'number' ? String(v) : '–';
}

function memberRow(m) {
  const errors = [m.read_errors, m.write_errors, m.checksum_errors].some((v) => v > 0);
  const name = m.drive_name
    ? el('a', { href: `#drive=${encodeURIComponent(m.drive_id)}` }, m.drive_name)
    : el('span', { class: 'muted' }, m.container ? '(nested vdev)' : 'not mapped');
  return el('tr', { class: errors ? 'has-errors' : '', dataset: { member: m.path } },
    el('td', {}, name),
    el('td', { class: 'mono small path', title: m.path }, m.path),
    el('td', {}, el('span', { class: `chip state-${String(m.state || '').toLowerCase()}` }, m.state || '–')),
    el('td', { class: 'num' }, counter(m.read_errors)),
    el('td', { class: 'num' }, counter(m.write_errors)),
    el('td', { class: `num${m.checksum_errors > 0 ? ' bad' : ''}` }, counter(m.checksum_errors)));
}

function scanView(scan) {
  if (!scan || !scan.function || scan.function === 'none') return el('span', { class: 'muted' }, 'no scrub yet');
  if (scan.state === 'in_progress') {
    const pct = typeof scan.percent === 'number' ? scan.percent : 0;
    return el('span', { class: 'scan' },
      `${scan.function} ${pct.toFixed(1)}% `,
      el('progress', { max: 100, value: pct, 'aria-label': `${scan.function} progress` }));
  }
  return el('span', { class: 'muted', title: scan.text || '' }, `${scan.function} ${scan.state}`);
}

function poolView(p) {
  const ok = p.state === 'ONLINE';
  return el('section', { class: 'pool', dataset: { pool: p.name } },
    el('div', { class: 'pool-head' },
      el('strong', {}, p.name),
      el('span', { class: `chip ${ok ? 'ok' : 'bad'}` }, p.state || '?'),
      scanView(p.scan)),
    p.errors && p.errors !== 'No known data errors' ? el('p', { class: 'error small' }, p.errors) : null,
    (p.vdevs || []).map((v) => el('div', { class: 'vdev', dataset: { vdev: v.name, role: v.role || 'data' } },
      el('div', { class: 'vdev-head small' },
        el('span', { class: `chip role role-${v.role || 'data'}` }, v.role || 'data'),
        el('span', { class: 'mono' }, v.name),
        v.type && v.type !== 'disk' ? el('span', { class: 'muted' }, v.type) : null,
        el('span', { class: 'muted' }, v.state || '')),
      el('div', { class: 'table-wrap' }, stacked(el('table', { class: 'members' },
        el('thead', {}, el('tr', {}, ['Drive', 'Path', 'State', 'Read', 'Write', 'Cksum']
          .map((h, i) => el('th', { class: i >= 3 ? 'num' : i === 1 ? 'path' : '', scope: 'col' }, h)))),
        el('tbody', {}, (v.members || []).map(memberRow))))))));
}

export function renderPools(container, pools) {
  container.replaceChildren();
  if (!Array.isArray(pools) || pools.length === 0) {
    container.dataset.state = 'empty';
    container.append(el('p', { class: 'placeholder' }, 'No ZFS pool or md array seen.'));
    return;
  }
  container.dataset.state = 'list';
  container.append(...pools.map(poolView));
}
