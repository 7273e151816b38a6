// @ts-check
/**
 * Mutants StrykerJS need not make, each kind with its reason: code whose only
 * effect is what the interface document leaves open, so that no conforming
 * check could ever tell a mutant of it apart.
 *
 * `error-prose`: the words of an error, never its code or status.
 *  - the message argument of apiError(code, message, ...) and the message of
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

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'error-prose', { shouldIgnore }),
  declareValuePlugin(PluginKind.Ignore, 'experiment-moves-left-open', { shouldIgnore: shouldIgnoreMove }),
  declareValuePlugin(PluginKind.Ignore, 'html-policy-prose', { shouldIgnore: shouldIgnoreHtmlPolicyProse }),
];
