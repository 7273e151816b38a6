/**
 * Endpoints 8: PUT /self-service-profiles/{id}/custom-text/{language}/{page}
 * — set the text customizations of one profile, language and page; the body
 * replaces the whole map and the answer (200) is the resulting map. JSON or
 * form-urlencoded. GET on the same path reads the map (`{}` when none set).
 *
 * - language other than `en`, page other than `get-started` → 400 `invalid_uri`;
 * - unknown profile → 404 `inexistent_self_service_profile`;
 * - body not an object of string → string, a value over 2000 characters,
 *   an empty key, or HTML outside the allow-list of html-policy.ts → 400 `invalid_body`.
 */
import { operation } from '../../spec/operations.js';
import { managementScopes } from '../auth.js';
import type { EmulatorContext } from '../context.js';
import { apiError } from '../errors.js';
import { htmlViolation } from '../html-policy.js';
import { CLOSED_TEXT_KEYS, customTextKey } from '../state.js';
import { isPlainObject, JSON_OR_FORM, mediaTypeOf, param, validateBody, type RouteDef } from './shared.js';

export const LANGUAGES: readonly string[] = ['en'];
export const PAGES: readonly string[] = ['get-started'];
export const VALUE_MAX = 2000;
export const KEY_MAX = 255;
/** The suite's default text key (CONFORMANCE_CUSTOM_TEXT_KEY). */
const DEFAULT_TEXT_KEY = 'introduction';
/** The keys of the `custom-text-keys-closed` variant. */
const CLOSED_KEYS: readonly string[] = [DEFAULT_TEXT_KEY, ...CLOSED_TEXT_KEYS];

function target(ctx: EmulatorContext, request: Parameters<RouteDef['handler']>[0]) {
  const id = param(request, 'id');
  const language = param(request, 'language');
  const page = param(request, 'page');
  // Faults custom-text-any-language, custom-text-any-page: the path enums are en and get-started.
  if (!LANGUAGES.includes(language) && !ctx.faults.has('custom-text-any-language')) throw apiError('invalid_uri', `language must be one of: ${LANGUAGES.join(', ')}`);
  if (!PAGES.includes(page) && !ctx.faults.has('custom-text-any-page')) throw apiError('invalid_uri', `page must be one of: ${PAGES.join(', ')}`);
  return { id, key: customTextKey(id, language, page), known: ctx.state.profiles.has(id) };
}

/** Markup outside the allow-list removed: script and style elements with their content, then every tag (the `html-sanitised` variant). */
export function sanitise(value: string): string {
  return value
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]*>/g, '');
}

function checkText(ctx: EmulatorContext, raw: unknown): Record<string, string> {
  // Fault custom-text-non-string-accepted: numbers and booleans are stored as strings instead of refused.
  const body = ctx.faults.has('custom-text-non-string-accepted') && isPlainObject(raw)
    ? Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, typeof v === 'number' || typeof v === 'boolean' ? String(v) : v]))
    : raw;
  // Fault custom-text-2001-accepted: the schema is checked with every value cut to the limit.
  const checked = ctx.faults.has('custom-text-2001-accepted') && isPlainObject(body)
    ? Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v.slice(0, VALUE_MAX) : v]))
    : body;
  validateBody('custom-text', checked);
  const entries = Object.entries(body as Record<string, string>);
  const out: Array<[string, string]> = [];
  for (const [k, v] of entries) {
    if (k.length === 0 || k.length > KEY_MAX) throw apiError('invalid_body', `text keys must be 1 to ${KEY_MAX} characters`);
    // Variant custom-text-keys-closed: a tenant may allow only its own set of keys (not shown by the document);
    // the key the suite is configured with (CONFORMANCE_CUSTOM_TEXT_KEY, default introduction) is one of them.
    if (ctx.variant === 'custom-text-keys-closed' && !CLOSED_KEYS.includes(k)) throw apiError('invalid_body', `Unknown text key ${k}: allowed keys are ${CLOSED_KEYS.join(', ')}`);
    // Fault custom-text-key-refused: the one key a tenant configured for the suite is refused, though its value is within the limits.
    if (ctx.faults.has('custom-text-key-refused') && k === DEFAULT_TEXT_KEY && !/<[a-z]/i.test(v)) throw apiError('invalid_body', `Unknown text key ${k}`);
    // Fault custom-text-links-refused: hyperlinks are allowed.
    if (ctx.faults.has('custom-text-links-refused') && /<a[\s>]/i.test(v)) throw apiError('invalid_body', `Value of ${k}: hyperlinks are not allowed`);
    // Fault custom-text-script-stored: the allow-list is skipped.
    const why = ctx.faults.has('custom-text-script-stored') ? undefined : htmlViolation(v);
    if (why !== undefined) {
      // Variant html-sanitised: markup outside the allow-list is removed instead of refused.
      if (ctx.variant === 'html-sanitised') {
        out.push([k, sanitise(v)]);
        continue;
      }
      throw apiError('invalid_body', `Value of ${k}: ${why}`);
    }
    out.push([k, v]);
  }
  // fromEntries defines own properties only: no key can reach a prototype.
  return Object.fromEntries(out);
}

/** The map as answered (a copy; faults change only the copy). */
function render(ctx: EmulatorContext, text: Record<string, string>): Record<string, unknown> {
  // Fault custom-text-values-as-objects: values are strings.
  if (ctx.faults.has('custom-text-values-as-objects')) return Object.fromEntries(Object.entries(text).map(([k, v]) => [k, { text: v }]));
  return { ...text };
}

export function customTextRoutes(ctx: EmulatorContext): RouteDef[] {
  const url = '/api/v2/self-service-profiles/:id/custom-text/:language/:page';
  const routes: RouteDef[] = [
    {
      method: 'PUT',
      url,
      scopes: operation('custom-text.put').scopes,
      contentTypes: JSON_OR_FORM,
      handler: (request, reply) => {
        const mime = mediaTypeOf(request);
        // Faults custom-text-json-415, custom-text-form-415: both media types are documented.
        if (mime === 'application/json' && ctx.faults.has('custom-text-json-415')) throw apiError('unsupported_media_type', 'Unsupported Media Type: use application/x-www-form-urlencoded');
        if (mime === 'application/x-www-form-urlencoded' && ctx.faults.has('custom-text-form-415')) throw apiError('unsupported_media_type', 'Unsupported Media Type: use application/json');
        const t = target(ctx, request);
        const text = checkText(ctx, request.body);
        if (!t.known) throw apiError('inexistent_self_service_profile');
        const previous = ctx.state.customText.get(t.key) ?? {};
        // Variant custom-text-merges: "set" may merge into the stored map.
        const resulting = ctx.variant === 'custom-text-merges' ? { ...previous, ...text } : text;
        ctx.state.customText.set(t.key, resulting);
        // Variant success-codes: the success status code is not shown.
        if (ctx.variant === 'success-codes') void reply.code(201);
        // Fault custom-text-answers-previous-map: not the resulting map.
        if (ctx.faults.has('custom-text-answers-previous-map')) return render(ctx, previous);
        return render(ctx, resulting);
      },
    },
    {
      method: 'GET',
      url,
      scopes: managementScopes.readCustomText,
      handler: (request) => {
        const t = target(ctx, request);
        if (!t.known) throw apiError('inexistent_self_service_profile');
        return ctx.state.customText.get(t.key) ?? {};
      },
    },
  ];
  // Variant no-snapshot-routes: reading custom text is not shown by the document.
  return ctx.variant === 'no-snapshot-routes' ? routes.filter((r) => r.method === 'PUT') : routes;
}
