// Talks to diskpulsed's REST API (same origin). Every call has a timeout and
// turns failures into an Error whose message is fit to show a person.

const TIMEOUT_MS = 8000;

// One request with a timeout; a failure becomes an Error whose message is fit
// to show a person, with err.status and err.body, and err.needsToken = true
// when the daemon refused the call for want of a (valid) token.
async function requestJson(path, { method = 'GET', body, token } = {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
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
    if (response.ok) throw new Error(`${path}: answer is not JSON (HTTP ${response.status})`);
  }
  if (!response.ok) {
    const message = data && data.error ? data.error.message : `HTTP ${response.status}`;
    const err = new Error(`${path}: ${message}`);
    err.status = response.status;
    err.body = data;
    err.needsToken = response.status === 401 || response.status === 403;
    throw err;
  }
  return data;
}

// Reads carry the session's token when there is one. A daemon that listens
// on the network may answer a read 401 (docs/api.md, reads from the network): the
// token is then asked for once (one question for every read waiting on it),
// kept for the session, and the read is tried again.
export async function getJson(path) {
  // The head's preloads of the first two answers go out without a token; the
  // browser may hand a refused one to the first fetch even though that one
  // carries the token, so a refusal of a token is believed the second time.
  let doubted = false;
  for (;;) {
    const token = getToken();
    try {
      return await requestJson(path, { token });
    } catch (err) {
      if (err.status !== 401) throw err;
      if (token && !doubted) {
        doubted = true;
        continue;
      }
      doubted = true;
      setToken('');
      setToken(await askTokenOnce(err.body && err.body.error ? err.body.error.message : err.message));
    }
  }
}

let tokenAsker = (why) => Promise.resolve(window.prompt(`${why}\n\nAPI token:`) || '');
let pendingAsk = null;

// fn(why) -> Promise of the token the person gave ('' for none); main.js puts
// a form on the page.
export function setTokenAsker(fn) {
  tokenAsker = fn;
}

function askTokenOnce(why) {
  if (!pendingAsk) {
    pendingAsk = tokenAsker(why).then((token) => {
      pendingAsk = null;
      if (!token) throw new Error('this diskpulse answers only with a token, and none was given');
      return token;
    }, (err) => {
      pendingAsk = null;
      throw err;
    });
  }
  return pendingAsk;
}

export const getHealth = () => getJson('/api/v1/health');

// The tests the daemon knows (its one catalog: names, kinds, judged or not,
// figures with units). Asked once a page load; asked again after a failure.
let testsPromise = null;
export function getTests() {
  if (!testsPromise) {
    testsPromise = getJson('/api/v1/tests').catch((err) => {
      testsPromise = null;
      throw err;
    });
  }
  return testsPromise;
}
export const getDrives = () => getJson('/api/v1/drives');

export const getDrive = (id) => getJson(`/api/v1/drives/${encodeURIComponent(id)}`);
// points: thinned by the daemon to about what a chart that wide can show
// (each stretch's lowest and highest run, so a dip survives); 0: every run.
export const getHistory = (id, test, metric, { since = 0, points = 0 } = {}) =>
  getJson(`/api/v1/drives/${encodeURIComponent(id)}/history?test=${encodeURIComponent(test)}` +
    `&metric=${encodeURIComponent(metric)}&limit=${points ? 10000 : 2000}` +
    `${since ? `&since=${since}` : ''}${points ? `&points=${points}` : ''}`);
export const getSmartHistory = (id, since = 0, points = 300) =>
  getJson(`/api/v1/drives/${encodeURIComponent(id)}/smart?points=${points}` +
    (since ? `&since=${since}` : ''));
export const getOverview = () => getJson('/api/v1/overview');
export const getAlerts = (state = 'active', drive = '') =>
  getJson(`/api/v1/alerts?state=${encodeURIComponent(state)}` +
    (drive ? `&drive=${encodeURIComponent(drive)}` : ''));
export const getRuns = (drive, limit = 20) =>
  getJson(`/api/v1/runs?drive=${encodeURIComponent(drive)}&limit=${limit}`);

// POSTs a JSON body (mutating calls need the API token).
export const postJson = (path, body, token) =>
  requestJson(path, { method: 'POST', body: body || {}, token });

// The API token: asked for once and kept in sessionStorage for this tab only.
const TOKEN_KEY = 'diskpulse.api_token';

export function getToken() {
  try {
    return sessionStorage.getItem(TOKEN_KEY) || '';
  } catch (err) {
    return '';
  }
}

export function setToken(token) {
  try {
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
  } catch (err) {
    /* storage disabled: the token is asked for again next time */
  }
}

// A file to download (a drive's export): read as the page's other reads are,
// with the session's token and the token asked for on a 401, and handed back
// as a Blob with the file name the daemon gives it.
// method 'POST': a file the daemon makes on request (the database backup).
export async function getFile(path, fallbackName, method = 'GET') {
  for (let asked = false; ; asked = true) {
    const token = getToken();
    let response;
    try {
      response = await fetch(path, {
        method,
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        cache: 'no-store',
      });
    } catch (err) {
      throw new Error(`${path}: cannot reach diskpulsed`);
    }
    if (response.ok) {
      const disposition = response.headers.get('Content-Disposition') || '';
      const named = /filename="([^"]+)"/.exec(disposition);
      return { blob: await response.blob(), name: named ? named[1] : fallbackName };
    }
    let message = `HTTP ${response.status}`;
    try {
      const data = await response.json();
      if (data && data.error) message = data.error.message;
    } catch (err) {
      /* not JSON: the status says it */
    }
    if (response.status !== 401 || asked) throw new Error(`${path}: ${message}`);
    setToken('');
    setToken(await askTokenOnce(message));
  }
}

// Calls a token-protected endpoint (POST, or `method`), asking for the token
// when there is none or the daemon refused it.
export async function postWithToken(path, body, method = 'POST') {
  let token = getToken();
  for (let attempt = 0; attempt < 2; attempt += 1) {
    if (!token) {
      token = window.prompt('API token (api_token in diskpulsed\'s configuration):') || '';
      if (!token) throw new Error('no API token given');
      setToken(token);
    }
    try {
      return await requestJson(path, { method, body: body || {}, token });
    } catch (err) {
      if (!err.needsToken) throw err;
      setToken('');
      token = '';
      if (attempt === 1 || err.status === 403) throw err;
    }
  }
  throw new Error('not authorised');
}
