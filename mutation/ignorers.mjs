// @ts-check
/**
 * Mutants StrykerJS need not make, each kind with its reason: code whose only
 * effect is what the interface document leaves open, so that no conforming
 * check could ever tell a mutant of it apart.
 *
 * `error-prose`: the words of an error, never its code or status.
 *  - the message argument of apiError(code, message, ...) and of new
 *    ApiError(code, message, ...), and the message of
 *    each entry of the error catalogue (emulator/errors.ts): "The shape of
 *    error response bodies: not shown";
 *  - the error_description of the token endpoint's OAuthError(status, error,
 *    description, ...): RFC 6749 5.2 makes it OPTIONAL human-readable text.
 * The error's code, its status and its headers stay mutated.
 *
 * `experiment-moves-left-open`: what the document leaves open about an
 * experiment's moves (its "States and transitions": "Allowed source states
 * for each target, and the failure when a move is invalid: not shown.
 * Whether started_at and ended_at are set by the moves: not shown."), in
 * emulator/routes/experiments.ts:
 *  - the emulator's table of allowed moves (TRANSITIONS) and the refusal of a
 *    move outside it (the `if` around allowedTargets): a server that takes
 *    every move to an allowed target conforms;
 *  - the statements that set started_at and ended_at.
 * The body's validation (the allowed targets, draft refused) stays mutated.
 *
 * `html-policy-prose`: the words of a custom text value's HTML violation, in
 * emulator/html-policy.ts: the message argument of fail(MESSAGE), which the
 * route answers only as the prose of its invalid_body error ("The shape of
 * error response bodies: not shown"). An empty message still refuses (the
 * callers compare with undefined); which inputs fail stays mutated.
 *
 * `html-allow-list-left-open`: which tags and attributes beyond the ones the
 * document names a custom text value may hold, in emulator/html-policy.ts:
 * "rich HTML limited to basic styling tags and hyperlinks" names no list, so
 * the allow-list's tags other than b, strong, i, em, u (the basic styling
 * tags every reading counts) and a (the hyperlink), its attributes common to
 * every tag (class, title, dir, lang, style) and a link's target and rel: a
 * server that refuses any of them conforms. What is refused (every other tag,
 * on* attributes, script URLs, script in CSS) stays mutated. So are left
 * out: which attributes an allowed tag carries besides on* (the `allowed`
 * test), which schemes an href may have besides the script ones
 * (LINK_SCHEMES), and whether an end tag that closes nothing is refused
 * (strayEndTag: it makes no element, HTML 13.2.6.4.7).
 *
 * `log-lines`: what the emulator writes on its own stderr
 * (process.stderr.write(...), and the `if` that decides whether): no answer
 * shows it.
 *
 * `event-context-left-open`: the context of an event's envelope, in
 * emulator/events.ts: the value of `context` in EventLog.append (the tenant,
 * the client, the connection, the request and its geo sample values) and the
 * caller's context requestContext returns. The document lists the members of
 * context with their types and marks none required ("Unless marked required,
 * a field may be absent"; Context, inside data), and shows no value; and
 * specversion, a string whose "Sample value" is 1.0. Mutants there remove a
 * member or change a string's value. That data has an object and a context,
 * and every other member of the envelope, stay mutated.
 *
 * `error-body-left-open`: what an error answer carries beyond its status, in
 * emulator/errors.ts ("The shape of error response bodies: not shown"):
 *  - the body ApiError.toBody returns (its members and their values);
 *  - which errorCode names a client error the catalogue gives no status of
 *    its own (nameOfClientError and its table FRAMEWORK_400): every name
 *    there is a 400. The names it returns stay mutated: an empty one is no
 *    error of the catalogue, and that answer is a 500;
 *  - the error object's name and its default message, which no answer shows
 *    but as prose.
 *
 * `which-4xx-left-open`: whether a client error the framework raises keeps
 * 413 or 415, in toApiError (emulator/errors.ts) and the token endpoint's
 * renderOAuthError (emulator/auth.ts): "Status codes for validation failures
 * ...: not shown". The tests `status === 413` and `status === 415` only;
 * that it is a 4xx, and every branch's error, stay mutated. In auth.ts also
 * the media type check of a body (hasBody, mediaTypeRefusal: 415, where
 * without it the parser refuses the body, or reads it and the route judges
 * it, as a lenient server does: what a server does with a type the operation
 * does not list is not shown) and
 * isApiPath (a path under {base_url} that no route serves, without a valid
 * token: 401 before it is found unknown, or 404).
 *
 * `connection-management`: whether a connection stays open after an error
 * answer, and how long the unread rest of a body over the limit is read
 * before it closes (keepConnectionIfBodyRead, drainUnreadBody, their bounds
 * in emulator/errors.ts, the call of the drain in emulator/index.ts): HTTP/1.1
 * lets a server close a connection after any answer (RFC 9112 9.3, 9.6), and
 * the document says nothing of connections. The answer stays mutated.
 *
 * `memory-bounds`: bounds on the emulator's own memory that a conformance run
 * never comes near, and that are no rule of the document: the rate limiter's
 * sweep at 50,000 live windows (emulator/rate-limit.ts), the verify cache's
 * capacity and its eviction (emulator/verify-cache.ts), the event log's
 * retention of 10,000 events and the oldest cursor it resumes from
 * (emulator/events.ts, and the refusal of an older one in
 * emulator/routes/events.ts: "how long a cursor stays valid: not shown"). The
 * limiter's windows, the cache's keying and expiry, and the log's events
 * stay mutated.
 *
 * `verify-cache-cost`: what a lookup of the verify cache costs, never what it
 * answers (emulator/verify-cache.ts): the entry a connection remembers (a
 * lookup without it goes to the map, which holds the same entry), the mark
 * of an entry the map no longer holds, the size and clear() no request calls;
 * in emulator/auth.ts, whether the bearer check looks in the cache at all.
 * A miss runs the full check. What a hit answers (the whole token string as
 * the key, the comparison with the remembered entry's token, the expiry)
 * stays mutated.
 *
 * `oauth-options-left-open`: what RFC 6749 and the document leave to the
 * token endpoint (emulator/auth.ts):
 *  - the requested scope (the `if` around its narrowing and its refusal):
 *    RFC 6749 3.3, the server "MAY fully or partially ignore the scope
 *    requested by the client";
 *  - a client_secret, or another client_id, in the body beside Basic
 *    credentials: RFC 6749 2.3 puts "MUST NOT use more than one
 *    authentication method in each request" on the client, and what a server
 *    does with such a request is not shown;
 *  - which audiences it takes beside the configured one, and a request
 *    without one (acceptedAudience and the two `if`s that call it or test
 *    the audience's presence): the document gives the audience a request
 *    carries and shows nothing of others;
 *  - Pragma: no-cache beside Cache-Control: no-store (RFC 9111 5.4 deprecates
 *    Pragma).
 * Client authentication, the grant type, Cache-Control, the token and its
 * claims stay mutated.
 *
 * `emulator-lifecycle`: the emulator's own start, shutdown and control
 * surface in emulator/index.ts (forceCloseConnections, the preClose hook
 * that ends open streams, close(), the control surface's registration and
 * URL, an IPv6 host's brackets): outside the interface, as the CLI and
 * control.ts are (mutation/not-mutated.json). The app's options that shape
 * answers (body limit, router, parsers, error handlers) stay mutated. And
 * in emulator/routes/events.ts what an event stream does once its client
 * is gone or the emulator closes: the listeners for the response's error
 * and close (the heartbeat timer cleared, the subscription ended), the
 * timer's unref and the handle close() ends the stream with. No answer
 * shows them; what the stream writes while open stays mutated.
 *
 * `event-stream-left-open`: what the document leaves open about the answer
 * of GET /events, in emulator/routes/events.ts: the head's Cache-Control,
 * Connection and X-Accel-Buffering (the document names the stream's media
 * type only), and the data of a heartbeat ("Payload shapes of the error
 * and offset-only messages: not shown"). The media type, the heartbeat's
 * event and id, and every event message stay mutated.
 */
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

const LEFT_OPEN =
  'error prose: "The shape of error response bodies: not shown" (the code, status and headers stay mutated)';

/** @param {import('@babel/core').NodePath} path */
function shouldIgnore(path) {
  const parent = path.parentPath;
  if (!parent) return undefined;
  // apiError(code, MESSAGE, ...)
  if (
    parent.isCallExpression() &&
    parent.node.callee.type === 'Identifier' &&
    parent.node.callee.name === 'apiError' &&
    parent.node.arguments[1] === path.node
  )
    return LEFT_OPEN;
  // new ApiError(code, MESSAGE, ...): the same words, given where the error is made
  if (
    parent.isNewExpression() &&
    parent.node.callee.type === 'Identifier' &&
    parent.node.callee.name === 'ApiError' &&
    parent.node.arguments[1] === path.node
  )
    return LEFT_OPEN;
  // new OAuthError(status, error, DESCRIPTION, ...)
  if (
    parent.isNewExpression() &&
    parent.node.callee.type === 'Identifier' &&
    parent.node.callee.name === 'OAuthError' &&
    parent.node.arguments[2] === path.node
  )
    return 'error_description: RFC 6749 5.2 makes it OPTIONAL human-readable text (status and error stay mutated)';
  // errorCatalogue = { code: { statusCode, message: MESSAGE } }
  if (
    parent.isObjectProperty() &&
    parent.node.value === path.node &&
    parent.node.key.type === 'Identifier' &&
    parent.node.key.name === 'message' &&
    path.findParent(
      (p) => p.isVariableDeclarator() && p.node.id.type === 'Identifier' && p.node.id.name === 'errorCatalogue',
    )
  )
    return LEFT_OPEN;
  return undefined;
}

const MOVES_LEFT_OPEN =
  'experiment moves: "Allowed source states for each target, and the failure when a move is invalid: not shown."';
const TIMESTAMPS_LEFT_OPEN = 'experiment moves: "Whether started_at and ended_at are set by the moves: not shown."';

/** Whether `node` (an expression) assigns experiment.started_at or experiment.ended_at. */
const setsRunTimestamp = (/** @type {any} */ node) =>
  node?.type === 'AssignmentExpression' &&
  node.left.type === 'MemberExpression' &&
  node.left.property.type === 'Identifier' &&
  (node.left.property.name === 'started_at' || node.left.property.name === 'ended_at');

/** @param {import('@babel/core').NodePath} path */
function shouldIgnoreMove(path) {
  const file = /** @type {string | undefined} */ (path.hub?.file?.opts?.filename);
  if (!file?.replaceAll('\\', '/').endsWith('emulator/routes/experiments.ts')) return undefined;
  // const TRANSITIONS = { draft: ['active'], ... }
  if (path.isVariableDeclarator() && path.node.id.type === 'Identifier' && path.node.id.name === 'TRANSITIONS')
    return MOVES_LEFT_OPEN;
  // if (!ctx.deviations.allowedTargets(...).includes(target)) throw apiError('invalid_transition', ...)
  if (
    path.isIfStatement() &&
    path.get('test').toString().includes('.allowedTargets(') &&
    path.get('consequent').toString().includes("'invalid_transition'")
  )
    return MOVES_LEFT_OPEN;
  // experiment.started_at ??= now; if (...) experiment.ended_at ??= now;
  if (path.isExpressionStatement() && setsRunTimestamp(path.node.expression)) return TIMESTAMPS_LEFT_OPEN;
  if (
    path.isIfStatement() &&
    path.node.consequent.type === 'ExpressionStatement' &&
    setsRunTimestamp(path.node.consequent.expression)
  )
    return TIMESTAMPS_LEFT_OPEN;
  return undefined;
}

const HTML_POLICY_PROSE =
  'html policy prose: the message of fail(...) is error prose, "The shape of error response bodies: not shown" (which inputs fail stays mutated)';

/** @param {import('@babel/core').NodePath} path */
function shouldIgnoreHtmlPolicyProse(path) {
  const file = /** @type {string | undefined} */ (path.hub?.file?.opts?.filename);
  if (!file?.replaceAll('\\', '/').endsWith('emulator/html-policy.ts')) return undefined;
  // fail(MESSAGE)
  const parent = path.parentPath;
  if (
    parent?.isCallExpression() &&
    parent.node.callee.type === 'Identifier' &&
    parent.node.callee.name === 'fail' &&
    parent.node.arguments[0] === path.node
  )
    return HTML_POLICY_PROSE;
  return undefined;
}

const LOG_LINE = 'a log line: what the emulator writes on its own stderr, which no answer shows';

/** Whether `node` (a statement) is process.stderr.write(...). */
const writesStderr = (/** @type {any} */ node) =>
  node?.type === 'ExpressionStatement' &&
  node.expression.type === 'CallExpression' &&
  node.expression.callee.type === 'MemberExpression' &&
  node.expression.callee.property.type === 'Identifier' &&
  node.expression.callee.property.name === 'write' &&
  node.expression.callee.object.type === 'MemberExpression' &&
  node.expression.callee.object.object.type === 'Identifier' &&
  node.expression.callee.object.object.name === 'process' &&
  node.expression.callee.object.property.type === 'Identifier' &&
  node.expression.callee.object.property.name === 'stderr';

/** @param {import('@babel/core').NodePath} path */
function shouldIgnoreLogLine(path) {
  if (writesStderr(path.node)) return LOG_LINE;
  if (path.isIfStatement() && !path.node.alternate && writesStderr(path.node.consequent)) return LOG_LINE;
  return undefined;
}

const CONTEXT_LEFT_OPEN =
  'event context: the document lists its members with their types, marks none required ("Unless marked required, a field may be absent") and shows no value (data keeps its object and context, which stay mutated)';

/** @param {import('@babel/core').NodePath} path */
function shouldIgnoreEventContext(path) {
  const file = /** @type {string | undefined} */ (path.hub?.file?.opts?.filename);
  if (!file?.replaceAll('\\', '/').endsWith('emulator/events.ts')) return undefined;
  const parent = path.parentPath;
  // envelope = { specversion: '1.0', ..., data: { object, context: { ... } } } in EventLog.append
  if (
    parent?.isObjectProperty() &&
    parent.node.value === path.node &&
    parent.node.key.type === 'Identifier' &&
    (parent.node.key.name === 'context' || parent.node.key.name === 'specversion') &&
    path.findParent((p) => p.isClassMethod() && p.node.key.type === 'Identifier' && p.node.key.name === 'append')
  )
    return parent.node.key.name === 'context'
      ? CONTEXT_LEFT_OPEN
      : 'specversion: a string whose "Sample value" is 1.0 (Event envelope); no value is required';
  // function requestContext(...) { return { client, connection, request }; }: the caller's part of the context
  if (
    path.isReturnStatement() &&
    path.findParent(
      (p) => p.isFunctionDeclaration() && p.node.id?.type === 'Identifier' && p.node.id.name === 'requestContext',
    )
  )
    return CONTEXT_LEFT_OPEN;
  return undefined;
}

const ALLOW_LIST_LEFT_OPEN =
  'html allow-list: "rich HTML limited to basic styling tags and hyperlinks" names no list; beyond b, strong, i, em, u and a (with href), a server may refuse any tag or attribute';
const NAMED_TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'a']);

/** @param {import('@babel/core').NodePath} path */
function shouldIgnoreAllowList(path) {
  const file = /** @type {string | undefined} */ (path.hub?.file?.opts?.filename);
  if (!file?.replaceAll('\\', '/').endsWith('emulator/html-policy.ts')) return undefined;
  // const NAME = new Set([ ... ])
  const declarator = path.findParent((p) => p.isVariableDeclarator());
  const name =
    declarator?.node.type === 'VariableDeclarator' && declarator.node.id.type === 'Identifier'
      ? declarator.node.id.name
      : undefined;
  if (name === 'COMMON_ATTRIBUTES' && path.isArrayExpression()) return ALLOW_LIST_LEFT_OPEN;
  // Which attributes an allowed tag carries besides on* (const allowed = ...; if (!allowed) ...), which schemes an
  // href may have besides the script ones (LINK_SCHEMES and its test), and whether an end tag that closes nothing
  // is refused (strayEndTag: it makes no element, HTML 13.2.6.4.7). Event handlers, script URLs in any attribute
  // and script in CSS stay mutated.
  if (['allowed', 'LINK_SCHEMES'].includes(declaredName(path) ?? '')) return ALLOW_LIST_LEFT_OPEN;
  if (path.isIfStatement()) {
    const test = path.get('test').toString();
    if (test === '!allowed' || test === "name === 'href' && !LINK_SCHEMES.test(squashed)") return ALLOW_LIST_LEFT_OPEN;
  }
  if (path.isFunctionDeclaration() && declaredName(path) === 'strayEndTag') return ALLOW_LIST_LEFT_OPEN;
  if (!path.isStringLiteral() || !path.parentPath?.isArrayExpression()) return undefined;
  if (name === 'ALLOWED_TAGS' && !NAMED_TAGS.has(path.node.value)) return ALLOW_LIST_LEFT_OPEN;
  if (name === 'LINK_ATTRIBUTES' && path.node.value !== 'href') return ALLOW_LIST_LEFT_OPEN;
  return undefined;
}

/** The file a path is in, with forward slashes. */
const fileOf = (/** @type {import('@babel/core').NodePath} */ path) =>
  /** @type {string | undefined} */ (path.hub?.file?.opts?.filename)?.replaceAll('\\', '/');

/** The name of the function, method or variable `path` is declared by, if it is one. */
function declaredName(/** @type {import('@babel/core').NodePath} */ path) {
  const n = /** @type {any} */ (path.node);
  if ((path.isFunctionDeclaration() || path.isVariableDeclarator()) && n.id?.type === 'Identifier') return n.id.name;
  if ((path.isClassMethod() || path.isClassProperty()) && n.key?.type === 'Identifier') return n.key.name;
  return undefined;
}

const insideDeclared = (/** @type {import('@babel/core').NodePath} */ path, /** @type {Set<string>} */ names) =>
  names.has(declaredName(path) ?? '') || path.findParent((p) => names.has(declaredName(p) ?? '')) !== null;

const ERROR_BODY = 'error body: "The shape of error response bodies: not shown" (the status stays mutated)';

/** @param {import('@babel/core').NodePath} path */
function shouldIgnoreErrorBody(path) {
  if (!fileOf(path)?.endsWith('emulator/errors.ts')) return undefined;
  // toBody() { return { statusCode, error, message, errorCode }; }
  if (path.isReturnStatement() && path.findParent((p) => p.isClassMethod() && declaredName(p) === 'toBody'))
    return ERROR_BODY;
  // this.name = 'ApiError'; super(message ?? errorCatalogue[errorCode].message)
  if (path.isExpressionStatement() && path.toString().startsWith('this.name ='))
    return "the error object's name, which no answer shows";
  if (path.isLogicalExpression() && path.parentPath?.isCallExpression() && path.parentPath.node.callee.type === 'Super')
    return LEFT_OPEN;
  // The errorCode of a 400: the table, and the tests that choose among the names; the names returned stay
  // mutated (emptied, one is no error of the catalogue: a 500).
  if (declaredName(path) === 'FRAMEWORK_400') return `${ERROR_BODY}: which errorCode names a 400`;
  if (path.findParent((p) => p.isFunctionDeclaration() && declaredName(p) === 'nameOfClientError')) {
    const parent = path.parentPath;
    if (parent?.isIfStatement() && parent.node.test === path.node) return `${ERROR_BODY}: which errorCode names a 400`;
    if (path.isConditionalExpression()) return `${ERROR_BODY}: which errorCode names a 400`;
  }
  return undefined;
}

/** @param {import('@babel/core').NodePath} path */
function shouldIgnoreWhich4xx(path) {
  const file = fileOf(path);
  // auth.ts: the media type check of a body (hasBody, mediaTypeRefusal): a body of a type the operation does not
  // list is refused there with 415, or else by the parser or the route's validation with 400.
  if (file?.endsWith('emulator/auth.ts') && ['hasBody', 'mediaTypeRefusal'].includes(declaredName(path) ?? ''))
    return 'a body of a media type the operation does not list: refused 415 here, or else refused by the parser or read by it and judged by the route (a lenient server); the document lists the types an operation takes, not what it does with others';
  // if (status === 413) ...; if (status === 415) ... in toApiError and the token endpoint's renderOAuthError: the test only
  const parent = path.parentPath;
  if (
    parent?.isIfStatement() &&
    parent.node.test === path.node &&
    /^status === 41[35]$/.test(path.toString()) &&
    path.findParent(
      (p) => p.isFunctionDeclaration() && ['toApiError', 'renderOAuthError'].includes(declaredName(p) ?? ''),
    )
  )
    return 'which 4xx: "Status codes for validation failures ...: not shown" (that it is a 4xx stays mutated)';
  // isApiPath (auth.ts): whether a path under {base_url} that no route serves is authenticated before it is found unknown
  if (file?.endsWith('emulator/auth.ts') && declaredName(path) === 'isApiPath')
    return 'which 4xx answers a path under {base_url} that no route serves without a valid token: 401 (authenticated first) or 404 (found unknown first), both refusals; the document shows neither';
  return undefined;
}

const CONNECTIONS =
  'connections: HTTP/1.1 lets a server close one after any answer (RFC 9112 9.3, 9.6); the document says nothing of them (the answer stays mutated)';

/** @param {import('@babel/core').NodePath} path */
function shouldIgnoreConnections(path) {
  const file = fileOf(path);
  if (file?.endsWith('emulator/errors.ts')) {
    const name = declaredName(path);
    if (name && ['keepConnectionIfBodyRead', 'drainUnreadBody', 'DRAIN_MAX_BYTES', 'DRAIN_MAX_MS'].includes(name))
      return CONNECTIONS;
  }
  // if (e.statusCode === 413) await drainUnreadBody(request.raw);
  if (file?.endsWith('emulator/index.ts') && path.isIfStatement() && path.toString().includes('drainUnreadBody('))
    return CONNECTIONS;
  return undefined;
}

const MEMORY =
  "a bound on the emulator's own memory, which a conformance run never comes near and no rule of the document sets";

const RETENTION =
  'event retention: how many events the log keeps (10,000), and so the oldest cursor it resumes from ("how long a cursor stays valid: not shown"); a run never fills it';

/** @param {import('@babel/core').NodePath} path */
function shouldIgnoreMemoryBounds(path) {
  const file = fileOf(path);
  // rate-limit.ts: if (this.windows.size >= SWEEP_AT) this.sweep(now); private sweep(now) { ... }
  if (file?.endsWith('emulator/rate-limit.ts')) {
    if (declaredName(path) === 'sweep' || declaredName(path) === 'SWEEP_AT') return MEMORY;
    if (path.isIfStatement() && path.get('test').toString() === 'this.windows.size >= SWEEP_AT') return MEMORY;
  }
  // events.ts: the log's retention (RETAINED events), and the oldest cursor it resumes from
  if (file?.endsWith('emulator/events.ts')) {
    if (path.isIfStatement() && path.get('test').toString() === 'this.entries.length > RETAINED') return RETENTION;
    if (declaredName(path) === 'oldestResumable') return RETENTION;
  }
  // routes/events.ts: a cursor older than the oldest the log resumes from, refused
  if (
    file?.endsWith('emulator/routes/events.ts') &&
    path.isIfStatement() &&
    path.get('test').toString() === 'seq < ctx.events.oldestResumable'
  )
    return RETENTION;
  // verify-cache.ts: the capacity's check in the constructor, and the eviction in set()
  if (file?.endsWith('emulator/verify-cache.ts')) {
    if (path.isIfStatement() && /this\.capacity|capacity < 1/.test(path.get('test').toString())) return MEMORY;
  }
  return undefined;
}

const CACHE_COST =
  'what a verify-cache lookup costs, not what it answers: a miss runs the full check (the key, the token comparison and the expiry stay mutated)';

/** @param {import('@babel/core').NodePath} path */
function shouldIgnoreCacheCost(path) {
  // auth.ts: if (known !== undefined) return admitCached(...): a token not looked up in the cache is verified, as a miss is
  if (fileOf(path)?.endsWith('emulator/auth.ts'))
    return path.isIfStatement() && path.get('test').toString() === 'known !== undefined' ? CACHE_COST : undefined;
  if (!fileOf(path)?.endsWith('emulator/verify-cache.ts')) return undefined;
  const name = declaredName(path);
  // get size() and clear(): no request calls them
  if (name === 'size' || name === 'clear') return CACHE_COST;
  const source =
    path.isConditionalExpression() || path.isExpressionStatement() || path.isUnaryExpression() ? path.toString() : '';
  // let hit = holder === undefined ? undefined : this.recent.get(holder); if (holder !== undefined) this.recent.set(holder, hit);
  if (path.isConditionalExpression() && source.includes('this.recent.get(')) return CACHE_COST;
  if (path.isIfStatement() && path.get('test').toString() === 'holder !== undefined') return CACHE_COST;
  // The held mark: e.held = false (drop, clear); held: true (set); !hit.held (get)
  if (path.isExpressionStatement() && /^e\.held = /.test(source)) return CACHE_COST;
  if (path.isObjectProperty() && path.node.key.type === 'Identifier' && path.node.key.name === 'held')
    return CACHE_COST;
  if (path.isUnaryExpression() && source === '!hit.held') return CACHE_COST;
  // set(): the previous entry of the same token dropped before it is replaced
  if (path.isIfStatement() && path.get('test').toString() === 'previous !== undefined') return CACHE_COST;
  return undefined;
}

const SCOPE_MAY_BE_IGNORED =
  'the scope a token request asks for: RFC 6749 3.3, the server "MAY fully or partially ignore the scope requested by the client"';
const ONE_METHOD =
  'a second client authentication method beside Basic: RFC 6749 2.3 "The client MUST NOT use more than one authentication method in each request", a requirement on the client; what the server does with one is not shown';
const AUDIENCES =
  'which audiences the token endpoint takes beside the configured one, and a request without one: the document gives the audience a request carries and shows nothing of others (a server may default it)';
const PRAGMA =
  'Pragma: no-cache beside Cache-Control: no-store (RFC 9111 5.4 deprecates Pragma; Cache-Control stays mutated)';

/** @param {import('@babel/core').NodePath} path */
function shouldIgnoreOAuthOptions(path) {
  if (!fileOf(path)?.endsWith('emulator/auth.ts')) return undefined;
  if (path.isIfStatement()) {
    const test = path.get('test').toString();
    // if (params['scope'] !== undefined && ctx.deviations.honoursRequestedScope) { ...narrowed or refused... }
    if (test === "params['scope'] !== undefined && ctx.deviations.honoursRequestedScope") return SCOPE_MAY_BE_IGNORED;
    // Inside the Basic branch: a client_secret or another client_id in the body as well
    if (test === "params['client_secret'] !== undefined") return ONE_METHOD;
    if (test === "params['client_id'] !== undefined && params['client_id'] !== basic.id") return ONE_METHOD;
    // if (!audience) ...; if (!acceptedAudience(audience, ctx.origin)) ...
    if (test === '!audience' || test === '!acceptedAudience(audience, ctx.origin)') return AUDIENCES;
  }
  if (declaredName(path) === 'acceptedAudience') return AUDIENCES;
  // reply.header('cache-control', 'no-store').header('pragma', 'no-cache')
  if (path.isStringLiteral() && path.node.value === 'no-cache') {
    const call = path.parentPath;
    const first = call?.isCallExpression() ? /** @type {any} */ (call.node.arguments[0]) : undefined;
    if (first?.type === 'StringLiteral' && first.value === 'pragma') return PRAGMA;
  }
  return undefined;
}

const LIFECYCLE =
  "the emulator's own start, shutdown and control surface (outside the interface, as the CLI and control.ts are): no answer of an operation or of the token endpoint shows them";

/** @param {import('@babel/core').NodePath} path */
function shouldIgnoreLifecycle(path) {
  if (!fileOf(path)?.endsWith('emulator/index.ts')) return undefined;
  // forceCloseConnections: true; close: () => (closing ??= app.close()...)
  if (path.isObjectProperty() && path.node.key.type === 'Identifier') {
    const key = path.node.key.name;
    if (key === 'forceCloseConnections') return LIFECYCLE;
    if (key === 'close' && path.findParent((p) => declaredName(p) === 'startEmulator')) return LIFECYCLE;
  }
  // app.addHook('preClose', ...): the open streams ended on close()
  if (path.isExpressionStatement() && path.toString().startsWith("app.addHook('preClose'")) return LIFECYCLE;
  // if (resolved.control) registerControl(app, ctx); resolved.control ? `${authUrl}${CONTROL_PREFIX}` : undefined
  if (path.isIfStatement() && path.get('test').toString() === 'resolved.control') return LIFECYCLE;
  if (path.isConditionalExpression() && path.get('test').toString() === 'resolved.control') return LIFECYCLE;
  // hostForUrl: an IPv6 host bracketed in the URL; the emulator listens on 127.0.0.1
  if (declaredName(path) === 'hostForUrl') return LIFECYCLE;
  return undefined;
}

const STREAM_RESOURCES =
  "an event stream's own resources once its client is gone or the emulator closes (the listeners for the response's error and close, the timer's unref, the handle close() ends it with): no answer shows them";

/** @param {import('@babel/core').NodePath} path */
function shouldIgnoreStreamResources(path) {
  if (!fileOf(path)?.endsWith('emulator/routes/events.ts')) return undefined;
  // res.on('error', ...); res.on('close', ...); timer.unref(); ctx.streams.add(handle);
  if (
    path.isExpressionStatement() &&
    /^(res\.on\('(error|close)'|timer\.unref\(|ctx\.streams\.add\()/.test(path.toString())
  )
    return STREAM_RESOURCES;
  if (declaredName(path) === 'handle') return STREAM_RESOURCES;
  return undefined;
}

const STREAM_HEAD_LEFT_OPEN =
  'the head of the events stream beyond its media type: the document names text/event-stream only (Cache-Control, Connection and X-Accel-Buffering are not shown; the media type stays mutated)';
const HEARTBEAT_DATA_LEFT_OPEN =
  'the data of a heartbeat: "Payload shapes of the error and offset-only messages: not shown" (its event and id stay mutated)';

/** @param {import('@babel/core').NodePath} path */
function shouldIgnoreEventStreamLeftOpen(path) {
  if (!fileOf(path)?.endsWith('emulator/routes/events.ts')) return undefined;
  if (!path.isObjectProperty()) return undefined;
  const key =
    path.node.key.type === 'Identifier'
      ? path.node.key.name
      : path.node.key.type === 'StringLiteral'
        ? path.node.key.value
        : '';
  // headers: { 'content-type': ..., 'cache-control': ..., connection: ..., 'x-accel-buffering': ... } in openStream
  if (
    ['cache-control', 'connection', 'x-accel-buffering'].includes(key) &&
    path.findParent((p) => declaredName(p) === 'openStream')
  )
    return STREAM_HEAD_LEFT_OPEN;
  // const heartbeatFrame = (offset) => ({ event: OFFSET_ONLY, id: offset, data: { offset } })
  if (key === 'data' && path.findParent((p) => declaredName(p) === 'heartbeatFrame')) return HEARTBEAT_DATA_LEFT_OPEN;
  return undefined;
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'error-prose', { shouldIgnore }),
  declareValuePlugin(PluginKind.Ignore, 'experiment-moves-left-open', { shouldIgnore: shouldIgnoreMove }),
  declareValuePlugin(PluginKind.Ignore, 'html-policy-prose', { shouldIgnore: shouldIgnoreHtmlPolicyProse }),
  declareValuePlugin(PluginKind.Ignore, 'html-allow-list-left-open', { shouldIgnore: shouldIgnoreAllowList }),
  declareValuePlugin(PluginKind.Ignore, 'log-lines', { shouldIgnore: shouldIgnoreLogLine }),
  declareValuePlugin(PluginKind.Ignore, 'event-context-left-open', { shouldIgnore: shouldIgnoreEventContext }),
  declareValuePlugin(PluginKind.Ignore, 'error-body-left-open', { shouldIgnore: shouldIgnoreErrorBody }),
  declareValuePlugin(PluginKind.Ignore, 'which-4xx-left-open', { shouldIgnore: shouldIgnoreWhich4xx }),
  declareValuePlugin(PluginKind.Ignore, 'connection-management', { shouldIgnore: shouldIgnoreConnections }),
  declareValuePlugin(PluginKind.Ignore, 'memory-bounds', { shouldIgnore: shouldIgnoreMemoryBounds }),
  declareValuePlugin(PluginKind.Ignore, 'verify-cache-cost', { shouldIgnore: shouldIgnoreCacheCost }),
  declareValuePlugin(PluginKind.Ignore, 'oauth-options-left-open', { shouldIgnore: shouldIgnoreOAuthOptions }),
  declareValuePlugin(PluginKind.Ignore, 'emulator-lifecycle', {
    shouldIgnore: (/** @type {import('@babel/core').NodePath} */ path) =>
      shouldIgnoreLifecycle(path) ?? shouldIgnoreStreamResources(path),
  }),
  declareValuePlugin(PluginKind.Ignore, 'event-stream-left-open', { shouldIgnore: shouldIgnoreEventStreamLeftOpen }),
];
