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

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, 'error-prose', { shouldIgnore })];
