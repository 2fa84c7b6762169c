// Talks to diskpulsed's REST API (same origin). Every call has a timeout and
// turns failures into an Error whose message is fit to show a person.

const TIMEOUT_MS = 8000;

export async function getJson(path) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  let response;
  try {
    response = await fetch(path, {
      headers: { Accept: 'application/json' },
      signal: controller.signal,
      cache: 'no-store',
    });
  } catch (err) {
    const why = err.name === 'AbortError' ? 'no answer in time' : 'cannot reach diskpulsed';
    throw new Error(`${path}: ${why}`);
  } finally {
    clearTimeout(timer);
  }
  let body = null;
  try {
    body = await response.json();
  } catch (err) {
    throw new Error(`${path}: answer is not JSON (HTTP ${response.status})`);
  }
  if (!response.ok) {
    const message = body && body.error ? body.error.message : `HTTP ${response.status}`;
    const err = new Error(`${path}: ${message}`);
    err.status = response.status;
    err.body = body;
    throw err;
  }
  return body;
}

export const getHealth = () => getJson('/api/v1/health');
export const getDrives = () => getJson('/api/v1/drives');

export const getDrive = (id) => getJson(`/api/v1/drives/${encodeURIComponent(id)}`);
export const getHistory = (id, test, metric, since = 0) =>
  getJson(`/api/v1/drives/${encodeURIComponent(id)}/history?test=${encodeURIComponent(test)}` +
    `&metric=${encodeURIComponent(metric)}&limit=2000${since ? `&since=${since}` : ''}`);
export const getSmartHistory = (id, since = 0, points = 300) =>
  getJson(`/api/v1/drives/${encodeURIComponent(id)}/smart?points=${points}` +
    (since ? `&since=${since}` : ''));
export const getOverview = () => getJson('/api/v1/overview');
export const getAlerts = (state = 'active', drive = '') =>
  getJson(`/api/v1/alerts?state=${encodeURIComponent(state)}` +
    (drive ? `&drive=${encodeURIComponent(drive)}` : ''));
export const getRuns = (drive, limit = 20) =>
  getJson(`/api/v1/runs?drive=${encodeURIComponent(drive)}&limit=${limit}`);

// POSTs a JSON body with the API token (mutating calls need it). Errors as
// getJson; a 401/403 error gets err.needsToken = true.
export async function postJson(path, body, token) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  let response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body || {}),
      signal: controller.signal,
      cache: 'no-store',
    });
  } catch (err) {
    const why = err.name === 'AbortError' ? 'no answer in time' : 'cannot reach diskpulsed';
    throw new Error(`${path}: ${why}`);
  } finally {
    clearTimeout(timer);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    const message = data && data.error ? data.error.message : `HTTP ${response.status}`;
    const err = new Error(message);
    err.status = response.status;
    err.needsToken = response.status === 401 || response.status === 403;
    throw err;
  }
  return data;
}
