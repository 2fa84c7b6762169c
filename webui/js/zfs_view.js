// The drive page's "ZFS's own view" section: the member's average disk wait
// as ZFS measured it between our tests (GET /api/v1/drives/{id}/zfs), beside
// the median of its vdev siblings in the same sampling, and ZFS's SLOW count.
// It judges nothing: a "watch" verdict, when there is one, is among the
// drive's alerts. Drives that are no ZFS member show nothing.
import { getJson } from './api.js';
import { el } from './dom.js';

const ms = (s) => (typeof s === 'number' ? `${(s * 1000).toFixed(s < 0.01 ? 2 : 1)} ms` : '–');
const when = (at) => new Date(at * 1000).toLocaleString();

export async function renderZfsSection(box, driveId) {
  let z;
  try {
    z = await getJson(`/api/v1/drives/${encodeURIComponent(driveId)}/zfs?limit=12`);
  } catch (err) {
    box.replaceChildren(el('p', { class: 'error' }, `Cannot load ZFS samples: ${err.message}`));
    return;
  }
  if (!z.samples || !z.samples.length) {
    box.replaceChildren();
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const newest = z.samples[z.samples.length - 1];
  const ratio = typeof newest.disk_wait_seconds === 'number' && newest.siblings_median_seconds > 0
    ? newest.disk_wait_seconds / newest.siblings_median_seconds : null;
  const slow = newest.slow_ios;
  const rows = z.samples.slice().reverse().map((s) => {
    const r = typeof s.disk_wait_seconds === 'number' && s.siblings_median_seconds > 0
      ? s.disk_wait_seconds / s.siblings_median_seconds : null;
    return el('tr', { class: r !== null && r >= 2 ? 'warn' : '' },
      el('td', {}, when(s.at)),
      el('td', { class: 'num' }, ms(s.disk_wait_seconds)),
      el('td', { class: 'num' }, `${ms(s.siblings_median_seconds)} (${s.siblings})`),
      el('td', { class: 'num' }, r === null ? '–' : `${r.toFixed(1)}×`),
      el('td', { class: 'num' }, s.slow_ios === null ? '–' : String(s.slow_ios)));
  });
  box.replaceChildren(
    el('h3', {}, 'ZFS\'s own view'),
    el('p', { class: 'muted small', id: 'zfs-summary' },
      `${z.pool} / ${z.vdev} / ${z.member}: disk wait ${ms(newest.disk_wait_seconds)}` +
      (ratio === null ? '' : `, ${ratio.toFixed(1)}× its siblings' median ${ms(newest.siblings_median_seconds)}`) +
      (slow === null ? '' : `; SLOW ${slow}`) +
      '. Sampled with every discovery pass (zpool iostat -l over 5 s, zpool status -s).'),
    el('table', { class: 'small', id: 'zfs-samples' },
      el('thead', {}, el('tr', {},
        el('th', {}, 'Sampled'), el('th', {}, 'Disk wait'), el('th', {}, 'Siblings\' median (n)'),
        el('th', {}, 'Ratio'), el('th', {}, 'SLOW'))),
      el('tbody', {}, rows)));
}
