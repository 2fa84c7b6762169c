// Alerts with their evidence and an "Acknowledge" button (a token-protected
// call: api.js asks for the token).
import { postWithToken } from './api.js';
import { el } from './dom.js';
import { formatAgo, formatValue, localTime } from './format.js';

const EVIDENCE_LABELS = [
  ['current', 'now'],
  ['baseline_median', 'baseline'],
  ['band_low', 'band low'],
  ['band_high', 'band high'],
  ['change_percent', 'change %'],
  ['slope_percent_per_month', 'trend %/month'],
  ['p_value', 'p'],
  ['peer_median', 'peers'],
  ['previous', 'before'],
  ['baseline_runs', 'baseline runs'],
];

// Flattens VerdictToJson's nested baseline {median, runs} and band {low, high}.
function flatEvidence(raw) {
  const e = { ...(raw || {}) };
  if (e.baseline && typeof e.baseline === 'object') {
    if (typeof e.baseline.median === 'number') e.baseline_median = e.baseline.median;
    if (typeof e.baseline.runs === 'number') e.baseline_runs = e.baseline.runs;
  }
  if (e.band && typeof e.band === 'object') {
    if (typeof e.band.low === 'number') e.band_low = e.band.low;
    if (typeof e.band.high === 'number') e.band_high = e.band.high;
  }
  return e;
}

function evidenceView(alert) {
  const e = flatEvidence(alert.evidence);
  const items = [];
  for (const [key, label] of EVIDENCE_LABELS) {
    if (typeof e[key] === 'number') {
      const unit = e.unit && !key.endsWith('percent') && !key.endsWith('month') && key !== 'p_value' &&
        key !== 'baseline_runs' ? ` ${e.unit}` : '';
      items.push(el('span', { class: 'ev' }, el('span', { class: 'muted' }, `${label} `),
        `${key === 'baseline_runs' ? e[key] : formatValue(e[key])}${unit}`));
    }
  }
  const runs = Array.isArray(e.runs) ? e.runs : [];
  const runList = runs.length
    ? el('div', { class: 'ev-runs muted' }, 'runs: ',
      runs.map((r) => el('span', { class: r.outside ? 'ev-run outside' : 'ev-run',
        title: r.at ? localTime(r.at) : '' },
      `#${r.run_id}${typeof r.value === 'number' ? ` ${formatValue(r.value)}` : ''}`)))
    : null;
  // An event's series (a drive's slowdown and peer verdicts, a box's
  // environment verdicts): each with its state.
  const members = Array.isArray(e.members) ? e.members : [];
  const memberList = members.length
    ? el('div', { class: 'ev-members muted small', 'data-members': members.length }, 'series: ',
      members.map((m, i) => {
        const v = m.verdict || {};
        const label = [v.test, v.series, v.metric].filter(Boolean).join(' ') || m.condition;
        const peer = String(m.condition || '').startsWith('peer:') ? ' (vs siblings)' : '';
        return el('span', { class: m.state === 'resolved' ? 'ev-member back' : 'ev-member' },
          `${i ? ', ' : ''}${label}${peer}${m.state === 'resolved' ? ' (back)' : ''}`);
      }))
    : null;
  return el('div', { class: 'evidence' }, items, runList, memberList);
}

// What the alert opened with and what happened to it since, folded away.
function historyView(alert) {
  const history = Array.isArray(alert.history) ? alert.history : [];
  const opened = alert.opened_summary && alert.opened_summary !== alert.summary
    ? el('div', { class: 'small' }, el('span', { class: 'muted' }, 'opened with: '), alert.opened_summary)
    : null;
  if (!history.length && !opened) return null;
  return el('details', { class: 'alert-history small' },
    el('summary', { class: 'muted' }, `history (${history.length})`),
    opened,
    el('ol', {}, history.map((h) => el('li', {},
      el('span', { class: 'muted', title: localTime(h.at) },
        `${formatAgo(h.at)} ${h.what}: `), h.summary))));
}

function alertItem(alert, driveName, onChange) {
  const ack = alert.state === 'open'
    ? el('button', { type: 'button', class: 'button small', 'data-ack': alert.id }, 'Acknowledge')
    : null;
  const status = el('span', { class: 'ack-status muted' });
  if (ack) {
    ack.addEventListener('click', async () => {
      ack.disabled = true;
      status.textContent = 'acknowledging…';
      try {
        await postWithToken(`/api/v1/alerts/${alert.id}/ack`);
        status.textContent = 'acknowledged';
        if (onChange) onChange();
      } catch (err) {
        status.textContent = `not acknowledged: ${err.message}`;
        status.classList.add('error');
        ack.disabled = false;
      }
    });
  }
  // What happened, how sure and what to do first (the daemon's words,
  // alert/alert_words.h); the statistics behind "details".
  return el('li', { class: `alert sev-${alert.severity}`, dataset: { alertId: alert.id, condition: alert.condition } },
    el('div', { class: 'alert-head' },
      el('span', { class: `chip sev ${alert.severity}` }, alert.severity),
      standingChip(alert),
      driveName ? el('strong', {}, driveName) : null,
      el('span', { class: 'alert-headline' }, alert.headline || alert.summary),
      el('span', { class: 'muted', title: localTime(alert.opened_at) },
        `opened ${formatAgo(alert.opened_at)}`),
      ack, status),
    alert.confidence ? el('div', { class: 'alert-confidence small' },
      el('span', { class: 'muted' }, 'How sure: '), alert.confidence) : null,
    alert.advice ? el('div', { class: 'alert-advice' },
      el('span', { class: 'muted' }, 'What to do: '), alert.advice) : null,
    detailsView(alert));
}

// The statistics behind an alert: its summary and rule up front, the
// evidence (every run and series) and history drawn when first opened. A
// long-lived alert carries dozens of runs and events, and drawing them for
// every alert on load made most of the page's elements.
function detailsView(alert) {
  const details = el('details', { class: 'alert-details small' },
    el('summary', { class: 'muted' }, 'details'),
    el('div', { class: 'alert-summary' }, alert.summary),
    el('div', { class: 'muted mono small' }, alert.condition));
  details.addEventListener('toggle', () => {
    if (!details.open || details.dataset.drawn) return;
    details.dataset.drawn = 'yes';
    details.append(...[evidenceView(alert), historyView(alert)].filter(Boolean));
  });
  return details;
}

// Where the alert stands for its owner (the daemon's "standing", the same
// value /metrics and MQTT show): a watch is opened but not told, a muted
// alert is held by an override until its expiry.
function standingChip(alert) {
  const standing = alert.standing || alert.state;
  if (standing === 'watching') {
    return el('span', { class: 'chip watch',
      title: 'not notified: it is notified if it still holds at the next scheduled run' }, 'watching');
  }
  if (standing === 'muted') {
    const until = alert.muted_until ? new Date(alert.muted_until * 1000).toLocaleDateString() : '';
    return el('span', { class: 'chip watch', title: 'an override holds its notifications' },
      until ? `muted until ${until}` : 'muted');
  }
  return el('span', { class: 'chip' }, standing);
}

// Who an alert is about: the drive's name, or "pool tank" for an alert on a
// pool itself ("pool:tank:state", "scrub:tank:overdue": no drive).
function subjectOf(alert, names) {
  if (alert.drive_id) return names[alert.drive_id] || alert.drive_id;
  const [kind, pool] = String(alert.condition || '').split(':');
  return ['pool', 'scrub', 'zfs'].includes(kind) && pool ? `pool ${pool}` : '';
}

// alerts: the API's list; names: drive id -> name.
export function renderAlerts(container, alerts, names = {}, onChange = null) {
  container.replaceChildren();
  if (!Array.isArray(alerts) || alerts.length === 0) {
    container.dataset.state = 'empty';
    container.append(el('p', { class: 'placeholder', id: 'alerts-empty' },
      'No open alerts: every drive is within its own baseline and SMART looks healthy.'));
    return;
  }
  container.dataset.state = 'list';
  const list = el('ul', { class: 'alerts' },
    alerts.slice(0, SHOWN_FIRST).map((a) => alertItem(a, subjectOf(a, names), onChange)));
  container.append(list);
  const rest = alerts.slice(SHOWN_FIRST);
  if (rest.length) {
    const more = el('button', { type: 'button', class: 'button small', id: 'alerts-more' },
      `Show ${rest.length} more`);
    more.addEventListener('click', () => {
      list.append(...rest.map((a) => alertItem(a, subjectOf(a, names), onChange)));
      more.remove();
    });
    container.append(more);
  }
}

// The newest alerts drawn at once (the list comes newest first); the rest
// on "Show N more": a year of resolved alerts would otherwise be drawn on
// every load.
const SHOWN_FIRST = 10;

export function renderAlertsError(container, error) {
  container.replaceChildren();
  container.dataset.state = 'error';
  container.append(el('p', { class: 'error' }, `Cannot load the alerts: ${error.message}`));
}
