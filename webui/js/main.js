// Entry point of the diskpulse page: shows the daemon's health, the active
// alerts and the drives, refreshing every 30 seconds; a click on a drive (or
// #drive=ID in the address) opens its panel with trends, alerts and runs.
import { getAlerts, getDrives, getHealth } from './api.js';
import { postWithToken, renderAlerts, renderAlertsError } from './alerts_view.js';
import { renderDrivePanel } from './drive_view.js';
import { renderDrives, renderDrivesError } from './drives_view.js';
import { formatDuration } from './format.js';

const REFRESH_MS = 30000;

function showHealth(health, error) {
  const status = document.getElementById('status');
  const text = document.getElementById('status-text');
  if (error) {
    status.dataset.state = 'down';
    text.textContent = 'diskpulsed unreachable';
    status.title = error.message;
    return;
  }
  const ok = health.status === 'ok';
  status.dataset.state = ok ? 'ok' : 'degraded';
  text.textContent = ok
    ? `ok · up ${formatDuration(health.uptime_seconds)}`
    : `database: ${health.db}`;
  status.title = `status ${health.status}, database ${health.db}`;
  document.getElementById('version').textContent = `diskpulse ${health.version}`;
}

let driveNames = {};

function selectedDrive() {
  const m = /^#drive=(.+)$/.exec(window.location.hash);
  return m ? decodeURIComponent(m[1]) : '';
}

async function runNow(drive, button, status) {
  button.disabled = true;
  status.textContent = 'queueing…';
  try {
    const r = await postWithToken('/api/v1/runs', { drive: drive.id, test: 'seq' });
    status.textContent = `run #${r.id} queued`;
    setTimeout(() => showPanel(), 1500);
  } catch (err) {
    status.textContent = `not queued: ${err.message}`;
  } finally {
    button.disabled = false;
  }
}

async function showPanel() {
  const panel = document.getElementById('drive-panel');
  const id = selectedDrive();
  if (!id) {
    panel.hidden = true;
    panel.replaceChildren();
    return;
  }
  panel.hidden = false;
  await renderDrivePanel(panel, id, { onChange: () => refresh(), onRunNow: runNow });
}

async function refreshAlerts() {
  const container = document.getElementById('alerts');
  const count = document.getElementById('alert-count');
  try {
    const alerts = await getAlerts('active');
    renderAlerts(container, alerts, driveNames, () => refresh());
    const open = alerts.filter((a) => a.state === 'open').length;
    count.textContent = alerts.length === 0 ? ''
      : `${open} open${alerts.length > open ? `, ${alerts.length - open} acknowledged` : ''}`;
  } catch (err) {
    renderAlertsError(container, err);
    count.textContent = '';
  }
}

async function refresh() {
  const [health, drives] = await Promise.allSettled([getHealth(), getDrives()]);
  if (drives.status === 'fulfilled') {
    driveNames = Object.fromEntries(drives.value.map((d) => [d.id, d.name || d.id]));
  }
  if (health.status === 'fulfilled') showHealth(health.value, null);
  else if (health.reason && health.reason.body && health.reason.body.status) {
    showHealth(health.reason.body, null);  // 503 still carries the health document
  } else showHealth(null, health.reason);

  const container = document.getElementById('drives');
  const count = document.getElementById('drive-count');
  if (drives.status === 'fulfilled') {
    renderDrives(container, drives.value);
    const n = drives.value.length;
    const present = drives.value.filter((d) => d.present).length;
    count.textContent = n === 0 ? '' : `${present} present${n > present ? `, ${n - present} missing` : ''}`;
  } else {
    renderDrivesError(container, drives.reason);
    count.textContent = '';
  }
  await Promise.allSettled([refreshAlerts(), showPanel()]);
  document.getElementById('updated').textContent =
    `updated ${new Date().toLocaleTimeString()}`;
}

// A click on a drive row opens its panel.
document.getElementById('drives').addEventListener('click', (event) => {
  const row = event.target.closest('tr[data-drive-id]');
  if (row) window.location.hash = `drive=${encodeURIComponent(row.dataset.driveId)}`;
});
window.addEventListener('hashchange', () => {
  showPanel().then(() => {
    const panel = document.getElementById('drive-panel');
    if (!panel.hidden) panel.scrollIntoView({ behavior: 'smooth', block: 'start' });
  });
});

document.getElementById('refresh').addEventListener('click', () => refresh());
refresh();
setInterval(refresh, REFRESH_MS);
