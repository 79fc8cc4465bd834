// Talking to the service: the key lives in sessionStorage (this tab only, gone when it closes),
// goes out as the x-api-key header, never in a URL and never in a cookie.
const KEY_NAME = 'gleaner.apiKey';

export function apiKey() {
  return sessionStorage.getItem(KEY_NAME) || '';
}

export function setApiKey(key) {
  if (key) sessionStorage.setItem(KEY_NAME, key);
  else sessionStorage.removeItem(KEY_NAME);
}

// One call: {status, ok, headers, json (parsed when JSON), text, blob (when asked), ms}.
export async function call(method, path, { body, keyed = true, as = 'json', headers = {} } = {}) {
  const h = { ...headers };
  if (keyed && apiKey()) h['x-api-key'] = apiKey();
  if (body !== undefined) h['content-type'] = 'application/json';
  const started = performance.now();
  const response = await fetch(path, {
    method,
    headers: h,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'omit',
    cache: 'no-store',
  });
  const out = {
    status: response.status,
    ok: response.ok,
    headers: response.headers,
    ms: 0,
  };
  const type = response.headers.get('content-type') || '';
  if ((as === 'blob' || type.startsWith('image/')) && response.ok) {
    out.blob = await response.blob();
  } else {
    out.text = await response.text();
    if (type.includes('json')) {
      try { out.json = JSON.parse(out.text); } catch { out.json = undefined; }
    }
  }
  out.ms = Math.round(performance.now() - started);
  return out;
}

// The error of a failed call as one line.
export function errorLine(result) {
  if (result.json && result.json.error) {
    return result.status + ' ' + result.json.error.code + ': ' + result.json.error.message;
  }
  return 'HTTP ' + result.status;
}
