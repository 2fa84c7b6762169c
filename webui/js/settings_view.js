// Settings: every override and mute in one list — what it tunes, for which
// drives, until when, who set it and why (GET /api/v1/overrides, the config
// file's with their FILE:LINE) — and a backup of the whole database
// (POST /api/v1/backup, the API token), saved as a file; and the overview's
// chart of every drive's temperature. Loaded when first opened, so the first
// screen does not pay for it.
import { getFile, getJson, getSmartHistory } from './api.js';
import { lineChart } from './chart.js';
import { localTime as when } from './format.js';
import { el, saveFile, stacked } from './dom.js';

function appliesTo(o, names) {
  if (o.drive) return names[o.drive] || o.drive;
  if (o.serial) return `serial ${o.serial}`;
  if (o.pool) return `pool ${o.pool}`;
  if (o.model) return `model ${o.model}`;
  return 'every drive';
}

function tuning(o) {
  const scope = o.attribute || (o.kind ? `${o.kind} alerts` : 'whole drive');
  const parts = [];
  if (o.device_type) parts.push(`smartctl -d ${o.device_type}`);
  if (o.ignore) parts.push('ignored');
  if (o.threshold !== undefined) parts.push(`threshold ${o.threshold}`);
  if (o.mute_until !== undefined) parts.push('muted');
  return `${scope}: ${parts.join(', ') || 'set'}`;
}

function expiry(o) {
  if (o.mute_until === undefined) return 'no end';
  return o.in_force ? `until ${when(o.mute_until)}` : `ended ${when(o.mute_until)}`;
}

function setBy(o) {
  return o.source === 'config' ? `config file ${o.where || ''}`.trim() : `${o.who || '?'} on ${when(o.at)}`;
}

export async function renderAllOverrides(container, names = {}) {
  container.replaceChildren(el('p', { class: 'placeholder' }, 'Loading overrides…'));
  let answer;
  try {
    answer = await getJson('/api/v1/overrides');
  } catch (err) {
    container.replaceChildren(el('p', { class: 'error' }, `Cannot load the overrides: ${err.message}`),
      el('button', { type: 'button', class: 'button', id: 'overrides-retry' }, 'Retry'));
    container.querySelector('#overrides-retry').addEventListener('click', () => renderAllOverrides(container, names));
    return;
  }
  const list = (answer && Array.isArray(answer.overrides)) ? answer.overrides : [];
  if (list.length === 0) {
    container.replaceChildren(el('p', { class: 'placeholder', id: 'overrides-none' },
      'No override or mute: every drive is judged by the shipped rules. A drive\'s page sets one.'));
    return;
  }
  container.replaceChildren(el('div', { class: 'table-wrap' }, stacked(el('table', { id: 'all-overrides' },
    el('thead', {}, el('tr', {}, ['Applies to', 'What', 'Expiry', 'Set by', 'Reason']
      .map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, list.map((o) => el('tr', { class: o.in_force === false ? 'muted' : '',
      dataset: { overrideId: o.id ?? '' } },
    el('td', {}, appliesTo(o, names)),
    el('td', { class: 'wrap' }, tuning(o)),
    el('td', { class: 'wrap expiry' }, expiry(o)),
    el('td', { class: 'wrap set-by' }, setBy(o)),
    el('td', { class: 'wrap' }, o.reason || '–'))))))));
}

// The database as a file: SQLite's online backup, taken while runs go on.
export async function saveBackup(button, status) {
  button.disabled = true;
  status.textContent = 'taking a backup…';
  status.classList.remove('error');
  try {
    const stamp = new Date().toISOString().slice(0, 10);
    const { blob, name } = await getFile('/api/v1/backup', `diskpulse-${stamp}.db`, 'POST');
    saveFile(blob, name);
    status.textContent = `${name} saved (${Math.round(blob.size / 1024)} KiB)`;
  } catch (err) {
    status.textContent = `no backup: ${err.message}`;
    status.classList.add('error');
  } finally {
    button.disabled = false;
  }
}

// One chart of every drive's temperature over the last 30 days, from each
// drive's SMART history (GET /api/v1/drives/{id}/smart, 120 points each).
export async function renderTemperatures(container, drives) {
  container.replaceChildren(el('p', { class: 'placeholder' }, 'Loading temperatures…'));
  const since = Math.floor(Date.now() / 1000) - 30 * 86400;
  const answers = await Promise.allSettled(drives.map((d) => getSmartHistory(d.id, since, 120)));
  const series = [];
  const failed = [];
  answers.forEach((a, i) => {
    const name = drives[i].name || drives[i].id;
    if (a.status !== 'fulfilled') {
      failed.push(name);
      return;
    }
    const temps = (a.value.figures && a.value.figures.temperature_c) || [];
    const samples = (a.value.at || []).map((at, k) => ({ at, value: temps[k], run_id: k }))
      .filter((p) => typeof p.value === 'number');
    if (samples.length) series.push({ key: name, samples, baseline: null });
  });
  container.replaceChildren(
    series.length
      ? el('figure', { class: 'chart-card', id: 'chart-all-temperatures', dataset: { series: series.length } },
        el('figcaption', {}, 'Temperature, last 30 days'),
        lineChart(series, { unit: '°C', title: 'Temperature of every drive', dots: false, minSpan: 10 }),
        el('div', { class: 'legend muted' }, series.map((s, i) => el('span', { class: `legend-${i % 6}` }, s.key))))
      : el('p', { class: 'placeholder' }, 'No temperature readings in the last 30 days.'),
    failed.length ? el('p', { class: 'error small' }, `Not loaded: ${failed.join(', ')} (close and open to try again).`) : null);
}
