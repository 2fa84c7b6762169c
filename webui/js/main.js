// Entry point of the diskpulse page: shows the daemon's health and the
// drives, and refreshes both every 30 seconds.
import { getDrives, getHealth } from './api.js';
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

async function refresh() {
  const [health, drives] = await Promise.allSettled([getHealth(), getDrives()]);
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
  document.getElementById('updated').textContent =
    `updated ${new Date().toLocaleTimeString()}`;
}

document.getElementById('refresh').addEventListener('click', () => refresh());
refresh();
setInterval(refresh, REFRESH_MS);
