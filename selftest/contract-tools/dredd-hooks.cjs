/**
 * Dredd hooks for spec/openapi.json against the embedded emulator: only the
 * tokens and the fixture ids the document cannot hold. Everything else Dredd
 * sends comes from the document's own examples.
 *
 * Environment (set by selftest/contract-tools/dredd.test.ts):
 *   DREDD_TOKEN, DREDD_LIMITED_TOKEN, DREDD_RATE_LIMITED_TOKEN  bearer tokens
 *   DREDD_CLIENT_ID, DREDD_CLIENT_SECRET, DREDD_AUDIENCE         the token request
 *   DREDD_USER_ID, DREDD_UNKNOWN_USER_ID                         the 404 of the token-set listing
 * No hook prints a token: the Authorization header is redacted before Dredd reports.
 */
const hooks = require('hooks');

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`dredd-hooks: ${name} is not set`);
  return v;
};
const TOKEN_SETS = '/users/{id}/federated-connections-tokensets > List token sets of a user';
const TOKEN = '/oauth/token/ > Client-credentials token request > 200 > application/json';
const bearer = (t, token) => {
  t.request.headers.Authorization = `Bearer ${token}`;
};

hooks.beforeEach((t, done) => {
  if (t.name !== TOKEN) bearer(t, env('DREDD_TOKEN'));
  done();
});

// The documented errors of the token-set listing, each with the credential or fixture that causes it.
hooks.before(`${TOKEN_SETS} > 401`, (t, done) => {
  bearer(t, 'not-a-jwt');
  done();
});
hooks.before(`${TOKEN_SETS} > 403`, (t, done) => {
  bearer(t, env('DREDD_LIMITED_TOKEN'));
  done();
});
hooks.before(`${TOKEN_SETS} > 404`, (t, done) => {
  const from = encodeURIComponent(env('DREDD_USER_ID'));
  const to = encodeURIComponent(env('DREDD_UNKNOWN_USER_ID'));
  t.fullPath = t.fullPath.replace(from, to);
  t.request.uri = t.request.uri.replace(from, to);
  done();
});
hooks.before(`${TOKEN_SETS} > 429`, (t, done) => {
  // The test used up this client's rate limit before Dredd started.
  bearer(t, env('DREDD_RATE_LIMITED_TOKEN'));
  done();
});

// The token request: its client credentials, and its path on {auth_url} (Dredd ignores an operation's own servers).
hooks.before(TOKEN, (t, done) => {
  t.fullPath = '/oauth/token/';
  t.request.uri = '/oauth/token/';
  t.request.body = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: env('DREDD_CLIENT_ID'),
    client_secret: env('DREDD_CLIENT_SECRET'),
    audience: env('DREDD_AUDIENCE'),
  }).toString();
  done();
});

const REDACTED = 'Bearer [redacted]';
hooks.afterEach((t, done) => {
  for (const r of [t.request, t.test && t.test.request]) {
    if (r && r.headers && r.headers.Authorization) r.headers.Authorization = REDACTED;
  }
  if (t.name === TOKEN) {
    for (const r of [t.request, t.test && t.test.request]) if (r) r.body = '[redacted]';
    if (t.real) t.real.body = '[redacted]';
    if (t.test && t.test.actual) t.test.actual.body = '[redacted]';
  }
  done();
});
