/**
 * Endpoints 7: PUT /keys/custom-signing — create or replace the whole set of
 * custom signing keys (a JWKS with at least one key). JSON or
 * form-urlencoded (bracket notation: `keys[0][kty]=EC&keys[0][x5c][0]=...`).
 *
 * Emulator choices where the document is silent:
 *  - each key is an object with a non-empty string `kty`; private-key
 *    members (d, p, q, dp, dq, qi, oth, k) are refused, since these are
 *    public signing keys (so is an `oct` shared secret, by its `k`);
 *  - success is 200 with `{ keys }`, the stored set;
 *  - GET /keys/custom-signing answers the set, or 404
 *    `inexistent_custom_signing_keys` when none is set (the seed sets none);
 *  - DELETE /keys/custom-signing removes the set (204, also when none is set),
 *    so careful clients can snapshot with GET and restore with PUT or DELETE
 *    (neither is shown by the document).
 */
import { managementScopes } from '../auth.js';
import type { EmulatorContext } from '../context.js';
import { apiError } from '../errors.js';
import type { Jwk } from '../state.js';
import { JSON_OR_FORM, routePath, validateBody, type RouteDef, operationRoute } from './shared.js';

/** The private members of RFC 7518 (6.2.2 d; 6.3.2 d, p, q, dp, dq, qi, oth; 6.4.1 k): never taken. */
export const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;
/** The private members key `index` is checked for: `all`, unless a fault checks fewer. */
export type PrivateMembers = (
  index: number,
  key: Readonly<Record<string, unknown>>,
  all: readonly string[],
) => readonly string[];

/**
 * Each key checked: an object with a non-empty string kty (the jwks schema has made each key an object
 * already), holding none of `privateMembers(i, kty, PRIVATE_MEMBERS)` (an oct key is refused by its k).
 */
function checkKeys(body: unknown, privateMembers: PrivateMembers): Jwk[] {
  validateBody('jwks', body);
  const keys = (body as { keys: Array<Record<string, unknown>> }).keys;
  keys.forEach((key, i) => {
    if (typeof key['kty'] !== 'string' || key['kty'].length === 0)
      throw apiError('invalid_body', `keys[${i}].kty is required and must be a string`);
    for (const m of privateMembers(i, key, PRIVATE_MEMBERS)) {
      if (Object.hasOwn(key, m)) throw apiError('invalid_body', `keys[${i}] must not hold the private member ${m}`);
    }
  });
  // A deep copy: the stored set shares nothing with the request.
  return JSON.parse(JSON.stringify(keys)) as Jwk[];
}

export function customSigningKeyRoutes(ctx: EmulatorContext): RouteDef[] {
  const url = routePath('custom-signing-keys.put');
  return [
    {
      ...operationRoute('custom-signing-keys.put'),
      contentTypes: JSON_OR_FORM,
      handler: (request) => {
        // The keys sent, each checked (the fault layer alone reads the body otherwise or checks less).
        const keys = ctx.deviations.keysSent(request, checkKeys);
        const previous = ctx.state.customSigningKeys;
        // The PUT replaces the entire set.
        ctx.state.customSigningKeys = ctx.deviations.storedAfterPut(request, previous, keys);
        const written = ctx.state.customSigningKeys;
        return { keys: ctx.deviations.answerOfWrite(request, written, previous) };
      },
    },
    {
      method: 'GET',
      url,
      snapshot: true,
      scopes: managementScopes.readCustomSigningKeys,
      handler: () => {
        const keys = ctx.state.customSigningKeys;
        if (keys === null) throw apiError('inexistent_custom_signing_keys');
        return { keys };
      },
    },
    {
      method: 'DELETE',
      url,
      snapshot: true,
      scopes: managementScopes.deleteCustomSigningKeys,
      handler: (_request, reply) => {
        ctx.state.customSigningKeys = null;
        return reply.code(204).send();
      },
    },
  ];
}
