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
