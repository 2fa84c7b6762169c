// The drive page's "ZFS's own view" section: the member's average disk wait
// as ZFS measured it between our tests (GET /api/v1/drives/{id}/zfs), beside
// the median of its vdev siblings in the same sampling, ZFS's SLOW count,
// whether ZFS sits it out of reads (OpenZFS 2.4 sit_out), and the
// distribution of its read disk waits beside its siblings' (zpool iostat -w
// over the samplings shown). It judges nothing: a "watch" verdict, when there is one, is among the
// drive's alerts. Drives that are no ZFS member show nothing.
import { getJson } from './api.js';
import { localTime as when } from './format.js';
import { el } from './dom.js';

const ms = (s) => (typeof s === 'number' ? `${(s * 1000).toFixed(s < 0.01 ? 2 : 1)} ms` : '–');
const sitText = (v) => (v === true ? 'yes' : v === false ? 'no' : '–');
// "8 ms", "131 µs": a bucket's upper bound, as zpool labels it.
const bucketLabel = (s) => (s >= 1 ? `${Math.round(s)} s` : s >= 1e-3 ? `${Math.round(s * 1e3)} ms`
  : s >= 1e-6 ? `${Math.round(s * 1e6)} µs` : `${Math.round(s * 1e9)} ns`);

// The member's read disk waits and its siblings', each as shares of its own
// I/Os, one row per bucket from the first to the last that has any.
function histogramTable(h) {
  const sum = (a) => a.reduce((x, y) => x + y, 0);
  const mine = sum(h.read);
  const theirs = sum(h.siblings_read);
  if (!mine && !theirs) return null;
  let first = h.read.length;
  let last = -1;
  h.read.forEach((c, i) => {
    if (c || h.siblings_read[i]) { first = Math.min(first, i); last = Math.max(last, i); }
  });
  const share = (c, n) => (n ? (100 * c) / n : 0);
  // Widths through the CSSOM: the page's CSP refuses style attributes.
  const bar = (pct, cls) => {
    const node = el('span', { class: `zfs-bar ${cls}`, role: 'presentation' });
    node.style.width = `${Math.max(pct, 0.5).toFixed(1)}%`;
    return node;
  };
  const rows = [];
  for (let i = first; i <= last; i += 1) {
    const a = share(h.read[i], mine);
    const b = share(h.siblings_read[i], theirs);
    rows.push(el('tr', {},
      el('td', { class: 'num' }, `≤ ${bucketLabel(h.bucket_upper_seconds[i])}`),
      el('td', { class: 'num' }, `${a.toFixed(1)}%`), el('td', {}, bar(a, 'mine')),
      el('td', { class: 'num' }, `${b.toFixed(1)}%`), el('td', {}, bar(b, 'siblings'))));
  }
  return el('table', { class: 'small', id: 'zfs-histogram' },
    el('caption', {}, `Read disk waits over ${Math.round(h.seconds / 3600)} h: this drive (${mine} I/Os) and its ${h.siblings} siblings (${theirs})`),
    el('thead', {}, el('tr', {},
      el('th', {}, 'Wait'), el('th', {}, 'This drive'), el('th', {}, ''),
      el('th', {}, 'Siblings'), el('th', {}, ''))),
    el('tbody', {}, rows));
}

// Asked together with the rest of the drive page, so that the section is
// drawn with it rather than pushed in between its parts afterwards.
export const getZfs = (driveId) =>
  getJson(`/api/v1/drives/${encodeURIComponent(driveId)}/zfs?limit=12`);

// answer: a settled getZfs() ({status, value | reason}).
export function renderZfsSection(box, answer) {
  if (answer.status !== 'fulfilled') {
    box.hidden = false;
    box.replaceChildren(el('p', { class: 'error' }, `Cannot load ZFS samples: ${answer.reason.message}`));
    return;
  }
  const z = answer.value;
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
      el('td', { class: 'num' }, ms(s.disk_wait_read_p99_seconds)),
      el('td', { class: 'num' }, s.slow_ios === null ? '–' : String(s.slow_ios)),
      el('td', { class: s.sit_out ? 'num warn' : 'num' }, sitText(s.sit_out)));
  });
  const histogram = z.histogram ? histogramTable(z.histogram) : null;
  box.replaceChildren(
    el('h3', {}, 'ZFS\'s own view'),
    el('p', { class: 'muted small', id: 'zfs-summary' },
      `${z.pool} / ${z.vdev} / ${z.member}: disk wait ${ms(newest.disk_wait_seconds)}` +
      (ratio === null ? '' : `, ${ratio.toFixed(1)}× its siblings' median ${ms(newest.siblings_median_seconds)}`) +
      (slow === null ? '' : `; SLOW ${slow}`) +
      (z.sit_out === true ? '; ZFS sits it out of reads as slower than its siblings (sit_out)' : '') +
      '. Sampled every inventory.zfs_sample_minutes (zpool iostat -l over 5 s and -w, zpool status -s, zpool get sit_out).'),
    el('table', { class: 'small', id: 'zfs-samples' },
      el('thead', {}, el('tr', {},
        el('th', {}, 'Sampled'), el('th', {}, 'Disk wait'), el('th', {}, 'Siblings\' median (n)'),
        el('th', {}, 'Ratio'), el('th', {}, 'Read p99'), el('th', {}, 'SLOW'),
        el('th', {}, 'Sat out'))),
      el('tbody', {}, rows)),
    ...(histogram ? [histogram] : []));
}
