// Entry point of the diskpulse page: the daemon's health, the overview (one
// card per drive, worst first, and the pool map) from one API call, the
// alerts, the schedule and runs, and — for #drive=ID in the address, set by
// a click on a card — the drive's own page. Refreshes every 30 seconds;
// when the daemon stops answering, one banner says so and the page retries
// every 5 seconds, keeping what it last showed.
import { getAlerts, getHealth, getOverview, postWithToken, setTokenAsker } from './api.js';
import { renderAlerts, renderAlertsError } from './alerts_view.js';
import { renderDrivePanel } from './drive_view.js';
import { el, nextTask } from './dom.js';
import { formatDuration, localTime } from './format.js';
import { bindOverviewControls, renderOverview, renderOverviewError, renderPools } from './overview_view.js';
import { renderSchedule } from './schedule_view.js';

const REFRESH_MS = 30000;
const RETRY_MS = 5000;

let driveNames = {};
let drives = [];
let lastGood = 0;
let timer = 0;

function banner(text) {
  const b = document.getElementById('banner');
  if (!text) {
    b.hidden = true;
    b.replaceChildren();
    return;
  }
  b.hidden = false;
  b.replaceChildren(el('strong', {}, text.title), ' ', text.detail);
}

function showHealth(health, error) {
  const status = document.getElementById('status');
  const text = document.getElementById('status-text');
  document.body.dataset.daemon = error ? 'down' : health.status === 'ok' ? 'ok' : 'degraded';
  if (error) {
    status.dataset.state = 'down';
    text.textContent = 'diskpulsed unreachable';
    status.title = error.message;
    const since = lastGood ? ` What you see is from ${new Date(lastGood).toLocaleTimeString()}.` : '';
    banner({ title: 'diskpulsed is not answering.',
      detail: `It may have stopped or restarted.${since} The page retries every ${RETRY_MS / 1000} s.` });
    return;
  }
  const ok = health.status === 'ok';
  // While the token is asked for, the status line says so (the asker set it).
  if (document.getElementById('token-form').hidden) {
    status.dataset.state = ok ? 'ok' : 'degraded';
    text.textContent = ok
      ? `ok · up ${formatDuration(health.uptime_seconds)}`
      : `database: ${health.db}`;
  }
  status.title = `status ${health.status}, database ${health.db}`;
  document.getElementById('version').textContent = `diskpulse ${health.version}`;
  // What discovery could not see (no drives passed into a container, SMART
  // refused), with how to let it: said on the page, not just as an empty list.
  const access = (health.discovery && health.discovery.access) || [];
  if (ok && access.length) banner({ title: 'diskpulsed cannot see everything.', detail: access.join(' ') });
  else if (ok) banner(null);
  else banner({ title: 'The database is not answering.', detail: `diskpulsed says: ${health.db}. Figures may be missing or stale.` });
}

// The cards start hidden (index.html) and are shown once their first answer
// is drawn, in page order: what comes later then appears below what is
// already on screen instead of pushing it down.
function reveal(...ids) {
  for (const id of ids) document.getElementById(id).hidden = false;
}

function selectedDrive() {
  const m = /^#drive=(.+)$/.exec(window.location.hash);
  return m ? decodeURIComponent(m[1]) : '';
}

// The overview's cards, put away while a drive's page is open: the drive
// page is a page of its own, and drawing the overview's cards, alert list
// and schedule beneath it doubled what a phone had to lay out.
const OVERVIEW_CARDS = ['drives-card', 'pools-card', 'alerts-card', 'schedule-card', 'settings-card'];
const OVERVIEW_BOXES = ['drives', 'pools', 'alerts', 'schedule'];

function putOverviewAway() {
  for (const id of OVERVIEW_CARDS) document.getElementById(id).hidden = true;
  for (const id of OVERVIEW_BOXES) {
    const box = document.getElementById(id);
    box.replaceChildren();
    box.dataset.state = 'loading';
  }
  for (const id of ['temps', 'settings-overrides']) document.getElementById(id).open = false;
  for (const id of ['temps-box', 'all-overrides-box']) document.getElementById(id).replaceChildren();
}

async function showPanel(id) {
  const panel = document.getElementById('drive-panel');
  if (!id) {
    panel.hidden = true;
    panel.replaceChildren();
    return;
  }
  // Shown once its first screenful is drawn (an empty card that then grew
  // would push what is below it); the rest is added below, out of view.
  await renderDrivePanel(panel, id, { onChange: () => refresh(), onShown: () => { panel.hidden = false; } });
  panel.hidden = false;
}

// Brings the drive page into view with its title focused (a click on a
// card, or an address that names a drive). The scroll waits for a frame
// drawn with the panel in place: scrolled in the frame that inserts it, what
// the panel pushes down would count as moved under the reader's eyes.
function focusPanel() {
  requestAnimationFrame(() => requestAnimationFrame(scrollToPanel));
}

function scrollToPanel() {
  const panel = document.getElementById('drive-panel');
  if (panel.hidden) return;
  panel.scrollIntoView({ block: 'start' });
  const title = document.getElementById('drive-title');
  if (title) {
    title.tabIndex = -1;
    title.focus({ preventScroll: true });
  }
}

async function refreshAlerts() {
  const container = document.getElementById('alerts');
  const count = document.getElementById('alert-count');
  const state = document.getElementById('alert-state').value;
  try {
    const alerts = await getAlerts(state);
    renderAlerts(container, alerts, driveNames, () => refresh());
    const open = alerts.filter((a) => a.state === 'open').length;
    const acked = alerts.filter((a) => a.state === 'acknowledged').length;
    const parts = [];
    if (open) parts.push(`${open} open`);
    if (acked) parts.push(`${acked} acknowledged`);
    if (alerts.length - open - acked) parts.push(`${alerts.length - open - acked} resolved`);
    count.textContent = parts.join(', ');
  } catch (err) {
    renderAlertsError(container, err);
    count.textContent = '';
  }
}

async function refreshSchedule() {
  const container = document.getElementById('schedule');
  try {
    await renderSchedule(container, drives, () => refresh());
  } catch (err) {
    container.replaceChildren(el('p', { class: 'error' }, err.message));
  }
}

async function refresh() {
  clearTimeout(timer);
  // Health needs no token: it is shown as soon as it answers, so its banner
  // (a device not passed in, a failing sink) is there while the token is asked.
  const healthShown = getHealth().then((value) => { showHealth(value, null); return value; },
    (reason) => {
      if (reason && reason.body && reason.body.status) {
        showHealth(reason.body, null);  // 503 still carries the health document
        return reason.body;
      }
      showHealth(null, reason);
      return null;
    });
  const [health, overview] = await Promise.allSettled([healthShown, getOverview()]);
  const down = health.status !== 'fulfilled' || !health.value;
  // A token asked for meanwhile has been given: the status line is health's again.
  if (!down) showHealth(health.value, null);
  if (down) {
    // Keep what is shown; try again soon.
    if (!selectedDrive()) reveal('drives-card', 'pools-card');
    timer = setTimeout(refresh, RETRY_MS);
    return;
  }
  lastGood = Date.now();
  if (overview.status === 'fulfilled') {
    drives = overview.value.drives || [];
    driveNames = Object.fromEntries(drives.map((d) => [d.id, d.name || d.id]));
  }
  const driveId = selectedDrive();
  if (driveId) {
    putOverviewAway();
    const first = document.getElementById('drive-panel').hidden;
    await showPanel(driveId);
    if (first) focusPanel();
    finishRefresh();
    return;
  }
  await showPanel('');

  const container = document.getElementById('drives');
  const count = document.getElementById('drive-count');
  if (overview.status === 'fulfilled') {
    renderOverview(container, overview.value);
    // How long the first screen took from navigation (read by tests and benchmarks/page_draw).
    if (!document.body.dataset.overviewMs) {
      document.body.dataset.overviewMs = String(Math.round(performance.now()));
    }
    const n = drives.length;
    const present = drives.filter((d) => d.present).length;
    const bad = drives.filter((d) => d.status !== 'healthy' && d.status !== 'asleep').length;
    count.textContent = n === 0 ? '' : `${present} present${n > present ? `, ${n - present} missing` : ''}` +
      `${bad ? ` · ${bad} need a look` : ''}`;
    // The pool map in a task of its own, after the cards (shown together).
    await nextTask();
    renderPools(document.getElementById('pools'), overview.value.pools);
  } else {
    renderOverviewError(container, overview.reason);
    count.textContent = '';
  }
  reveal('drives-card', 'pools-card');
  await Promise.allSettled([refreshAlerts(), refreshSchedule()]);
  reveal('alerts-card', 'schedule-card', 'settings-card');
  finishRefresh();
}

function finishRefresh() {
  document.getElementById('updated').textContent =
    `updated ${new Date().toLocaleTimeString()}`;
  document.body.dataset.loaded = 'yes';
  timer = setTimeout(refresh, REFRESH_MS);
}

// The daemon's refusal in an owner's words: the header it wants is its
// business, not theirs.
function tokenWhy(why) {
  if (/wrong token/.test(why)) return 'That token was not accepted. Try again.';
  return 'This diskpulse shows its drives only with a token.';
}

// The daemon wants a token for reads: the form under the top bar asks for
// it, and the status says so rather than "connecting…".
setTokenAsker((why) => new Promise((resolve) => {
  const form = document.getElementById('token-form');
  const input = document.getElementById('token-input');
  document.getElementById('token-why').textContent = tokenWhy(why || '');
  const status = document.getElementById('status');
  status.dataset.state = 'degraded';
  document.getElementById('status-text').textContent = 'waiting for a token';
  input.value = '';
  form.hidden = false;
  input.focus();
  form.onsubmit = (event) => {
    event.preventDefault();
    form.hidden = true;
    form.onsubmit = null;
    resolve(input.value.trim());
  };
}));

// Another drive, or back to the overview: drawn anew from fresh answers.
// A link within the overview (the top bar's) only scrolls; leaving a drive's
// page for one of the overview's headings scrolls there once it is drawn.
window.addEventListener('hashchange', () => {
  const id = selectedDrive();
  const fromDrive = !document.getElementById('drive-panel').hidden;
  if (!id && !fromDrive) return;
  refresh().then(() => {
    if (id) {
      focusPanel();
      return;
    }
    const name = window.location.hash.slice(1);
    const target = name ? document.getElementById(decodeURIComponent(name)) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  });
});

document.getElementById('refresh').addEventListener('click', () => refresh());
bindOverviewControls(document.getElementById('drives'));
// The settings' code is fetched when first used.
document.getElementById('backup').addEventListener('click', async (event) => {
  const button = event.currentTarget;  // null once the import below has been awaited
  const { saveBackup } = await import('./settings_view.js');
  saveBackup(button, document.getElementById('backup-status'));
});
document.getElementById('temps').addEventListener('toggle', async (event) => {
  if (!event.currentTarget.open) return;
  const { renderTemperatures } = await import('./settings_view.js');
  renderTemperatures(document.getElementById('temps-box'), drives.filter((d) => d.present));
});
document.getElementById('settings-overrides').addEventListener('toggle', async (event) => {
  if (!event.currentTarget.open) return;
  const { renderAllOverrides } = await import('./settings_view.js');
  renderAllOverrides(document.getElementById('all-overrides-box'), driveNames);
});
document.getElementById('alert-state').addEventListener('change', () => refreshAlerts());
document.getElementById('alert-test').addEventListener('click', async (event) => {
  const button = event.currentTarget;
  const status = document.getElementById('alert-test-status');
  button.disabled = true;
  status.textContent = 'sending…';
  try {
    const r = await postWithToken('/api/v1/alerts/test', {});
    const sinks = Array.isArray(r.sinks) ? r.sinks : [];
    status.textContent = sinks.length === 0 ? 'No notification channel is configured (alerts.sinks).'
      : sinks.map((s) => `${s.sink}: ${s.ok ? 'sent' : `failed (${s.error || "?"})`}`).join(' · ');
  } catch (err) {
    status.textContent = `not sent: ${err.message}`;
  } finally {
    button.disabled = false;
  }
});
refresh();
// The browser's date formats (ICU's locale data) take ~50 ms to load on a
// slow phone the first time one is used: loaded now, while the first
// answers are on their way, not in the task that draws the cards.
setTimeout(() => localTime(0), 0);
