/**
 * Endpoints 7: PUT /keys/custom-signing — create or replace the whole set of
 * custom signing keys (a JWKS with at least one key). JSON or
 * form-urlencoded (bracket notation: `keys[0][kty]=EC&keys[0][x5c][0]=...`).
 *
 * Emulator choices where the document is silent:
 *  - each key is an object with a non-empty string `kty`; `oct` (a shared
 *    secret) and private-key members (d, p, q, dp, dq, qi, oth, k) are
 *    refused, since these are public signing keys;
 *  - success is 200 with `{ keys }`, the stored set;
 *  - GET /keys/custom-signing answers the set, or 404
 *    `inexistent_custom_signing_keys` when none is set (the seed sets none);
 *  - DELETE /keys/custom-signing removes the set (204, also when none is set),
 *    so careful clients can snapshot with GET and restore with PUT or DELETE.
 *    Neither GET nor DELETE is shown by the document: the `no-snapshot-routes`
 *    variant serves neither.
 */
import { operation } from '../../spec/operations.js';
import { managementScopes } from '../auth.js';
import type { EmulatorContext } from '../context.js';
import { apiError } from '../errors.js';
import type { Jwk } from '../state.js';
import { isPlainObject, JSON_OR_FORM, mediaTypeOf, validateBody, type RouteDef } from './shared.js';

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

function checkKeys(ctx: EmulatorContext, body: unknown): Jwk[] {
  validateBody('jwks', body);
  const keys = (body as { keys: unknown[] }).keys;
  keys.forEach((key, i) => {
    if (!isPlainObject(key)) throw apiError('invalid_body', `keys[${i}] must be an object`);
    if (typeof key['kty'] !== 'string' || key['kty'].length === 0) throw apiError('invalid_body', `keys[${i}].kty is required and must be a string`);
    if (key['kty'] === 'oct') throw apiError('invalid_body', `keys[${i}].kty oct is not a public key type`);
    // Fault keys-ec-refused: "`EC` is a value" of kty, yet EC keys are refused.
    if (ctx.faults.has('keys-ec-refused') && key['kty'] === 'EC') throw apiError('invalid_body', `keys[${i}].kty must be RSA`);
    for (const m of PRIVATE_MEMBERS) {
      if (Object.hasOwn(key, m)) throw apiError('invalid_body', `keys[${i}] must not hold the private member ${m}`);
    }
  });
  // A deep copy: the stored set shares nothing with the request.
  return JSON.parse(JSON.stringify(keys)) as Jwk[];
}

/** The JWKS answered for a set of keys (a copy; faults change only the copy). */
function render(ctx: EmulatorContext, keys: readonly Jwk[]): Record<string, unknown> {
  let answered: Record<string, unknown>[] = keys.map((k) => ({ ...k }));
  // Fault jwk-key-ops-string: key_ops is an array of strings.
  if (ctx.faults.has('jwk-key-ops-string')) answered = answered.map((k) => (Array.isArray(k['key_ops']) ? { ...k, key_ops: k['key_ops'].join(' ') } : k));
  // Fault jwk-x5c-string: the certificate chain the store attaches is answered as one string, not an array.
  if (ctx.faults.has('jwk-x5c-string')) answered = answered.map((k) => ({ ...k, x5c: Buffer.from(`conformance-chain-${String(k['kid'] ?? '')}`).toString('base64') }));
  // Fault keys-answer-as-map: keys is an array.
  if (ctx.faults.has('keys-answer-as-map')) return { keys: Object.fromEntries(answered.map((k, i) => [typeof k['kid'] === 'string' ? k['kid'] : String(i), k])) };
  return { keys: answered };
}

export function customSigningKeyRoutes(ctx: EmulatorContext): RouteDef[] {
  const url = '/api/v2/keys/custom-signing';
  const routes: RouteDef[] = [
    {
      method: 'PUT',
      url,
      scopes: operation('custom-signing-keys.put').scopes,
      contentTypes: JSON_OR_FORM,
      handler: (request, reply) => {
        const mime = mediaTypeOf(request);
        // Faults keys-json-415, keys-form-415: both media types are documented.
        if (mime === 'application/json' && ctx.faults.has('keys-json-415')) throw apiError('unsupported_media_type', 'Unsupported Media Type: use application/x-www-form-urlencoded');
        if (mime === 'application/x-www-form-urlencoded' && ctx.faults.has('keys-form-415')) throw apiError('unsupported_media_type', 'Unsupported Media Type: use application/json');
        // Variant form-jwks-unparsed: how a JWKS is form-encoded is not shown.
        if (mime === 'application/x-www-form-urlencoded' && ctx.variant === 'form-jwks-unparsed') throw apiError('invalid_body', 'A JWKS cannot be read from a form body');
        // Fault keys-empty-array-accepted: the keys array has minimum 1 item.
        const emptyLetIn = ctx.faults.has('keys-empty-array-accepted') && isPlainObject(request.body) && Array.isArray(request.body['keys']) && request.body['keys'].length === 0;
        let keys = emptyLetIn ? [] : checkKeys(ctx, request.body);
        // Fault keys-put-appends: a PUT replaces the entire set.
        if (ctx.faults.has('keys-put-appends')) keys = [...(ctx.state.customSigningKeys ?? []), ...keys];
        ctx.state.customSigningKeys = keys;
        // Variant success-codes: the success status code is not shown.
        if (ctx.variant === 'success-codes') void reply.code(201);
        return render(ctx, keys);
      },
    },
    {
      method: 'GET',
      url,
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
      scopes: managementScopes.deleteCustomSigningKeys,
      handler: (_request, reply) => {
        ctx.state.customSigningKeys = null;
        return reply.code(204).send();
      },
    },
  ];
  // Variant no-snapshot-routes: GET and DELETE /keys/custom-signing are not shown by the document.
  return ctx.variant === 'no-snapshot-routes' ? routes.filter((r) => r.method === 'PUT') : routes;
}
