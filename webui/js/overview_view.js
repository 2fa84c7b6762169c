// The first screen: one card per drive, worst first (the order and the
// status come from GET /api/v1/overview, which reads them from the stored
// alerts and SMART: the page judges nothing itself), and the pool map
// (pool -> vdev -> members with role, state, error counters, scrub/resilver).
import { sparkline } from './chart.js';
import { el } from './dom.js';
import { driveKind, formatBytes, formatNumber, formatPercent, formatPowerOn, formatTemp }
  from './format.js';

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

function stat(label, value) {
  return el('div', { class: 'stat' }, el('span', { class: 'stat-label' }, label), el('span', {}, value));
}

function driveCard(d) {
  const name = d.name || d.id;
  return el('a', {
    class: `drive-card status-${d.status}`, href: `#drive=${encodeURIComponent(d.id)}`,
    dataset: { driveId: d.id, status: d.status },
  },
  el('div', { class: 'drive-card-head' },
    el('strong', { class: 'drive-name' }, name), badge(d.status, d.reason),
    el('span', { class: 'muted small drive-model' }, d.model || '')),
  el('div', { class: 'reason small', title: d.reason }, d.reason),
  el('div', { class: 'stats' },
    stat('Temp', formatTemp(d.temperature_c)),
    stat('Age', formatPowerOn(d.power_on_hours)),
    stat('Size', `${formatBytes(d.size_bytes)} ${driveKind(d) === '–' ? '' : driveKind(d)}`.trim()),
    stat('Pool', membership(d)),
    stat('Read', readFigure(d)),
    stat('Alerts', alertsFigure(d.alerts))),
  el('div', { class: 'spark-wrap' },
    sparkline((d.trend || []).map(([at, value, flag]) => ({ at, value, contended: flag === 1, partial: flag === 2 })), { width: 240, height: 30,
      label: `${name} ${d.read ? d.read.test : 'seq'} MB/s over time` })));
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

export function renderOverview(container, overview) {
  container.replaceChildren();
  const drives = overview && Array.isArray(overview.drives) ? overview.drives : [];
  if (drives.length === 0) {
    container.dataset.state = 'empty';
    container.append(emptyState());
    return;
  }
  container.dataset.state = 'list';
  container.append(el('div', { class: 'drive-cards', id: 'drive-cards' }, drives.map(driveCard)));
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
      el('div', { class: 'table-wrap' }, el('table', { class: 'members' },
        el('thead', {}, el('tr', {}, ['Drive', 'Path', 'State', 'Read', 'Write', 'Cksum']
          .map((h, i) => el('th', { class: i >= 3 ? 'num' : i === 1 ? 'path' : '', scope: 'col' }, h)))),
        el('tbody', {}, (v.members || []).map(memberRow)))))));
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
