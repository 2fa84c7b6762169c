// The drives table, its empty state ("no drives discovered yet: ...") and its
// error state.
import { el } from './dom.js';
import { driveKind, formatAgo, formatBytes } from './format.js';

const COLUMNS = [
  { title: 'Drive' },
  { title: 'Model' },
  { title: 'Serial' },
  { title: 'Capacity', num: true },
  { title: 'Type' },
  { title: 'Bus' },
  { title: 'Device' },
  { title: 'State' },
  { title: 'Last seen' },
];

function driveRow(drive) {
  const state = drive.present
    ? el('span', { class: 'chip ok' }, 'present')
    : el('span', { class: 'chip bad', title: 'known from history, not seen now' }, 'missing');
  return el(
    'tr',
    { class: drive.present ? '' : 'missing', dataset: { driveId: drive.id } },
    el('td', {}, el('strong', {}, drive.name || drive.id)),
    el('td', {}, drive.model || '–'),
    el('td', { class: 'mono' }, drive.serial || '–'),
    el('td', { class: 'num' }, formatBytes(drive.size_bytes)),
    el('td', {}, driveKind(drive)),
    el('td', {}, drive.transport ? drive.transport.toUpperCase() : '–'),
    el('td', { class: 'mono', title: (drive.stable_paths || []).join('\n') }, drive.dev_path || '–'),
    el('td', {}, state),
    el('td', { title: drive.last_seen ? new Date(drive.last_seen * 1000).toLocaleString() : '' },
      formatAgo(drive.last_seen)),
  );
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
      el('li', {}, 'or name disks and files to watch in ', el('code', {}, 'targets'), '.'),
    ),
  );
}

export function renderDrives(container, drives) {
  container.replaceChildren();
  if (!Array.isArray(drives) || drives.length === 0) {
    container.dataset.state = 'empty';
    container.append(emptyState());
    return;
  }
  container.dataset.state = 'list';
  const head = el('tr', {}, COLUMNS.map((c) => el('th', { class: c.num ? 'num' : '' }, c.title)));
  const table = el(
    'table',
    { id: 'drives-table' },
    el('thead', {}, head),
    el('tbody', {}, drives.map(driveRow)),
  );
  container.append(el('div', { class: 'table-wrap' }, table));
}

export function renderDrivesError(container, error) {
  container.replaceChildren();
  container.dataset.state = 'error';
  container.append(
    el('div', { class: 'empty' },
      el('h2', { class: 'error' }, 'Cannot load the drives'),
      el('p', {}, error.message),
      el('p', {}, 'The page retries by itself; "Refresh" tries now.')),
  );
}
