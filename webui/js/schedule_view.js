// Schedule and runs: what runs next on which drive (GET /api/v1/schedule,
// what `diskpulsed --show-schedule` prints), the recent runs of every drive
// with deferred and skipped ones and their reasons, and "Run now" for any
// test on any drive, with the run's live progress (GET /api/v1/runs/{id}).
import { getJson, getTests, postWithToken } from './api.js';
import { el, stacked } from './dom.js';
import { formatAgo, localTime } from './format.js';

// A <select> of the tests a drive can be asked for: the daemon's catalog
// (GET /api/v1/tests) less the pool- and vdev-level tests. Those (pool-write,
// parallel) run on a pool or a vdev, not on the drive a form names, so the
// daemon refuses them for a drive; they run on their schedule or from the
// CLI (`diskpulse run POOL --test pool-write`). pool-write is also the one
// test that writes, and a drive's button is no place to start that. Filled
// when the catalog arrives; until then, or when it cannot be had, it offers
// seq, the one test every drive has.
export function testSelect(attrs) {
  const select = el('select', attrs, el('option', { value: 'seq' }, 'seq'));
  getTests().then((catalog) => {
    const names = (catalog.tests || []).filter((t) => (t.scope || 'drive') === 'drive').map((t) => t.name);
    if (names.length === 0) return;
    const current = select.value;
    select.replaceChildren(...names.map((n) => el('option', { value: n, title: summaryOf(catalog, n) }, n)));
    select.value = names.includes(current) ? current : names[0];
  }).catch(() => { /* the one option stays; a run request still says what is wrong */ });
  return select;
}

function summaryOf(catalog, name) {
  const t = (catalog.tests || []).find((x) => x.name === name);
  return t ? t.summary : '';
}

const OUTCOME_CLASS = { ok: 'ok', failed: 'bad', cancelled: 'muted', skipped: 'warn', deferred: 'warn',
  running: 'accent', queued: 'muted' };

// The next run's cell: how soon, with the date as its title.
function whenCell(unix) {
  if (!unix) return el('td', {}, '–');
  const d = new Date(unix * 1000);
  const s = Math.round(unix - Date.now() / 1000);
  const rel = s <= 0 ? 'due now' : s < 3600 ? `in ${Math.ceil(s / 60)} min`
    : s < 86400 ? `in ${Math.round(s / 3600)} h` : `in ${Math.round(s / 86400)} d`;
  return el('td', { title: localTime(unix) }, rel);
}

function scheduleTable(plan) {
  const targets = plan && Array.isArray(plan.targets) ? plan.targets : [];
  if (targets.length === 0) {
    return el('p', { class: 'placeholder', id: 'schedule-empty' }, 'Nothing scheduled: no drive matches a schedule.');
  }
  const rows = [...targets].sort((a, b) => ((a.due || [])[0] || Infinity) - ((b.due || [])[0] || Infinity));
  // The soonest few; the rest on request (a big box has hundreds of rows
  // a phone would draw for nobody).
  const shown = scheduleShowAll ? rows.slice(0, 500) : rows.slice(0, SCHEDULE_ROWS);
  const more = rows.length > shown.length
    ? el('button', { type: 'button', class: 'button small', id: 'schedule-all' }, `Show all ${rows.length}`)
    : null;
  if (more) {
    more.addEventListener('click', () => {
      scheduleShowAll = true;
      more.parentElement.replaceWith(scheduleTable(plan));
    });
  }
  return el('div', {}, el('div', { class: 'table-wrap' }, stacked(el('table', { id: 'schedule-table' },
    el('thead', {}, el('tr', {}, ['Target', 'Schedule', 'Tests', 'Last run', 'Next', 'Then']
      .map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, shown.map((t) => el('tr', {},
      el('td', {}, t.label || t.target),
      el('td', { class: 'muted' }, t.schedule),
      el('td', {}, (t.tests || []).join(', ')),
      el('td', {}, t.last_run ? formatAgo(t.last_run) : 'never'),
      whenCell((t.due || [])[0]),
      el('td', { class: 'muted' }, (t.due || []).slice(1).map((d) => localTime(d)).join(' · ')))))))), more);
}

// As many as the recent runs below: a phone's screenful each.
const SCHEDULE_ROWS = 8;
let scheduleShowAll = false;

// Runs with outcome and reason; with `names` (drive id -> name) a drive column.
export function runsTable(runs, { names = null, id = 'runs-table' } = {}) {
  if (!Array.isArray(runs) || runs.length === 0) {
    return el('p', { class: 'placeholder', id: `${id}-empty` },
      'No runs yet: scheduled tests appear here when they run (or run one now).');
  }
  const heads = ['Run', ...(names ? ['Drive'] : []), 'Test', 'Trigger', 'Started', 'Outcome', 'Reason / flags'];
  return el('div', { class: 'table-wrap' }, stacked(el('table', { id },
    el('thead', {}, el('tr', {}, heads.map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, runs.map((r) => {
      const flags = [r.contended ? 'contended' : '', r.partial ? 'partial' : ''].filter(Boolean);
      const outcome = r.outcome === 'running' ? `running ${Math.round((r.progress || 0) * 100)}%` : r.outcome;
      return el('tr', { dataset: { runId: r.id, outcome: r.outcome } },
        el('td', { class: 'num' }, `#${r.id}`),
        names ? el('td', {}, names[r.drive_id] || r.drive_id || 'pool') : null,
        el('td', {}, r.test),
        el('td', { class: 'muted' }, r.trigger),
        el('td', { title: localTime(r.started_at) }, formatAgo(r.started_at)),
        el('td', {}, el('span', { class: `chip ${OUTCOME_CLASS[r.outcome] || ''}` }, outcome)),
        el('td', { class: 'wrap' }, [r.reason, flags.length ? `(${flags.join(', ')}: not evidence)` : '']
          .filter(Boolean).join(' ')));
    })))));
}

// Polls the run until it ends, showing its progress in `box`.
export async function follow(id, box, onDone) {
  const bar = el('progress', { max: 100, value: 0, id: 'run-progress', 'aria-label': `run ${id} progress` });
  const text = el('span', { id: 'run-progress-text' }, `run #${id} queued`);
  box.replaceChildren(bar, ' ', text);
  for (let i = 0; i < 900; i += 1) {
    let run;
    try {
      run = await getJson(`/api/v1/runs/${id}`);
    } catch (err) {
      text.textContent = `run #${id}: ${err.message}`;
      return;
    }
    const r = run.run || run;
    bar.value = Math.round((r.progress || 0) * 100);
    text.textContent = `run #${id} ${r.test}: ${r.outcome}` +
      (r.outcome === 'running' ? ` ${bar.value}%` : '') + (r.reason ? ` (${r.reason})` : '');
    box.dataset.outcome = r.outcome;
    if (!r.active) {
      if (onDone) onDone();
      return;
    }
    await new Promise((resolve) => { setTimeout(resolve, 1000); });
  }
}

// Queues `test` on the drive (asking for the API token when needed) and
// follows the run in `box`; `button` is disabled meanwhile.
export async function startRun(driveId, test, button, box, onDone) {
  button.disabled = true;
  box.textContent = 'queueing…';
  try {
    const r = await postWithToken('/api/v1/runs', { drive: driveId, test });
    await follow(r.id, box, onDone);
  } catch (err) {
    box.textContent = `not queued: ${err.message}`;
  } finally {
    button.disabled = false;
  }
}

function runNowForm(drives, onDone) {
  const drive = el('select', { id: 'run-drive', 'aria-label': 'drive' },
    drives.map((d) => el('option', { value: d.id }, d.name || d.id)));
  const test = testSelect({ id: 'run-test', 'aria-label': 'test' });
  const go = el('button', { type: 'submit', class: 'button', id: 'run-go' }, 'Run now');
  const box = el('div', { class: 'run-status small', id: 'run-status', 'aria-live': 'polite' });
  const form = el('form', { class: 'run-form', id: 'run-form' },
    el('label', {}, 'Drive ', drive), el('label', {}, 'Test ', test), go, box);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    startRun(drive.value, test.value, go, box, onDone);
  });
  return form;
}

// drives: the overview's drives (for names and the run-now form).
export async function renderSchedule(container, drives, onDone) {
  const names = Object.fromEntries((drives || []).map((d) => [d.id, d.name || d.id]));
  // The catalog too, so the form's test list is whole when it is drawn
  // (a list that fills in later widens the select and moves the button).
  const [plan, runs] = await Promise.allSettled([
    getJson('/api/v1/schedule?count=3'), getJson('/api/v1/runs?limit=8'), getTests()]);
  const keepForm = container.querySelector('#run-form');
  const busy = keepForm && keepForm.querySelector('#run-go').disabled;
  container.replaceChildren(
    busy ? keepForm : runNowForm((drives || []).filter((d) => d.present), onDone),
    el('h3', {}, 'Next runs'),
    plan.status === 'fulfilled' ? scheduleTable(plan.value)
      : el('p', { class: 'error' }, `Cannot load the schedule: ${plan.reason.message}`),
    el('h3', {}, 'Recent runs'),
    runs.status === 'fulfilled' ? runsTable(runs.value, { names, id: 'all-runs-table' })
      : el('p', { class: 'error' }, `Cannot load the runs: ${runs.reason.message}`));
  container.dataset.state = 'loaded';
}
