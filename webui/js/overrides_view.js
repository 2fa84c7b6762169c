// A drive's overrides (GET /api/v1/overrides?drive=ID): what is tuned for
// it and by whom — the config file's (read-only, with FILE:LINE) and those
// set here (deletable) — and a small form to set one: ignore an attribute,
// change its threshold, or mute the drive, an attribute or one kind of the
// drive's alerts (self-test, wear, missing...) for some days.
// Setting and deleting need the API token and are audited by the daemon.
import { getJson, postWithToken } from './api.js';
import { localTime as when } from './format.js';
import { el } from './dom.js';

export const getOverrides = (id) =>
  getJson(`/api/v1/overrides?drive=${encodeURIComponent(id)}`);

// "udma_crc_errors: ignored", "temperature: threshold 55", "muted until …".
function what(o) {
  const parts = [];
  if (o.device_type) parts.push(`smartctl -d ${o.device_type}`);
  if (o.ignore) parts.push('ignored');
  if (o.threshold !== undefined) parts.push(`threshold ${o.threshold}`);
  if (o.mute_until !== undefined) {
    parts.push(o.in_force ? `muted until ${when(o.mute_until)}` : `mute ended ${when(o.mute_until)}`);
  }
  const scope = o.attribute || (o.kind ? `${o.kind} alerts` : 'whole drive');
  return `${scope}: ${parts.join(', ')}`;
}

function selector(o) {
  if (o.drive) return 'this drive';
  if (o.serial) return `serial ${o.serial}`;
  if (o.pool) return `pool ${o.pool}`;
  return `model ${o.model}`;
}

function row(o, onChange, status) {
  const source = o.source === 'config'
    ? `config file ${o.where} (read-only)`
    : `${o.who} on ${when(o.at)}`;
  const item = el('li', { class: o.in_force ? 'override' : 'override muted', dataset: { overrideId: o.id } },
    el('strong', {}, what(o)),
    ` · ${selector(o)}`,
    o.reason ? ` · “${o.reason}”` : '',
    el('span', { class: 'muted small' }, ` · ${source}`),
    // An attribute the drive does not report (yet): the override waits.
    (o.warnings || []).map((w) => el('div', { class: 'small error override-warning' }, w)));
  if (o.source === 'api') {
    const del = el('button', { type: 'button', class: 'button', dataset: { deleteOverride: o.id } }, 'Delete');
    del.addEventListener('click', async () => {
      const reason = window.prompt('Delete this override? Reason:', '');
      if (reason === null) return;
      del.disabled = true;
      try {
        await postWithToken(`/api/v1/overrides/${encodeURIComponent(o.id)}`,
          reason.trim() ? { reason: reason.trim() } : {}, 'DELETE');
        onChange();
      } catch (err) {
        status.textContent = `not deleted: ${err.message}`;
        status.classList.add('error');
        del.disabled = false;
      }
    });
    item.append(' ', del);
  }
  return item;
}

// The kinds a drive's own alerts can have (a pool's are muted by pool).
const poolKinds = new Set(['pool', 'scrub']);

function form(d, attributes, kinds, onChange, status) {
  // "kind:wear" narrows a mute to one kind of alert; anything else is an attribute.
  const attribute = el('select', { id: 'override-attribute', 'aria-label': 'attribute or alert kind' },
    el('option', { value: '' }, 'whole drive'),
    kinds.filter((k) => !poolKinds.has(k)).map((k) => el('option', { value: `kind:${k}` }, `${k} alerts`)),
    attributes.map((a) => el('option', { value: a }, a)));
  const action = el('select', { id: 'override-action', 'aria-label': 'action' },
    el('option', { value: 'mute' }, 'mute for days'),
    el('option', { value: 'ignore' }, 'ignore'),
    el('option', { value: 'threshold' }, 'threshold'));
  const value = el('input', { id: 'override-value', type: 'number', min: '0', step: 'any', value: '7',
    'aria-label': 'days or threshold', class: 'narrow' });
  const reason = el('input', { id: 'override-reason', type: 'text', placeholder: 'why',
    'aria-label': 'reason', maxlength: '500' });
  const set = el('button', { type: 'button', class: 'button', id: 'override-set' }, 'Set override');
  set.addEventListener('click', async () => {
    const body = { drive: d.id };
    if (attribute.value.startsWith('kind:')) body.kind = attribute.value.slice(5);
    else if (attribute.value) body.attribute = attribute.value;
    if (action.value === 'ignore') body.ignore = true;
    else if (action.value === 'threshold') body.threshold = Number(value.value);
    else body.mute_days = Number(value.value);
    if (reason.value.trim()) body.reason = reason.value.trim();
    set.disabled = true;
    try {
      await postWithToken('/api/v1/overrides', body);
      onChange();
    } catch (err) {
      status.textContent = `not set: ${err.message}`;
      status.classList.add('error');
      set.disabled = false;
    }
  });
  return el('div', { class: 'actions' }, attribute, action, value, reason, set);
}

// Fills `box` (and the header's badge) for drive d; onChange re-renders.
export function renderOverrides(box, badge, d, answer, onChange) {
  box.replaceChildren();
  const status = el('span', { class: 'muted', id: 'override-status' });
  if (answer.status !== 'fulfilled') {
    box.append(el('p', { class: 'error' }, `Cannot load overrides: ${answer.reason.message}`));
    return;
  }
  const list = answer.value.overrides || [];
  const inForce = list.filter((o) => o.in_force);
  box.dataset.count = String(inForce.length);
  if (badge && inForce.length) {
    badge.hidden = false;
    badge.textContent = `${inForce.length} override${inForce.length > 1 ? 's' : ''} in force`;
  }
  box.append(
    list.length ? el('ul', { class: 'overrides' }, list.map((o) => row(o, onChange, status)))
      : el('p', { class: 'muted' }, 'No override: the global thresholds apply.'),
    form(d, answer.value.attributes || [], answer.value.kinds || [], onChange, status),
    status);
}
