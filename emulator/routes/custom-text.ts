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
import { customTextKey } from '../state.js';
import { JSON_OR_FORM, param, validateBody, type RouteDef } from './shared.js';

export const LANGUAGES: readonly string[] = ['en'];
export const PAGES: readonly string[] = ['get-started'];
export const VALUE_MAX = 2000;
export const KEY_MAX = 255;

function target(ctx: EmulatorContext, request: Parameters<RouteDef['handler']>[0]) {
  const id = param(request, 'id');
  const language = param(request, 'language');
  const page = param(request, 'page');
  if (!LANGUAGES.includes(language)) throw apiError('invalid_uri', `language must be one of: ${LANGUAGES.join(', ')}`);
  if (!PAGES.includes(page)) throw apiError('invalid_uri', `page must be one of: ${PAGES.join(', ')}`);
  return { id, key: customTextKey(id, language, page), known: ctx.state.profiles.has(id) };
}

function checkText(body: unknown): Record<string, string> {
  validateBody('custom-text', body);
  const entries = Object.entries(body as Record<string, string>);
  for (const [k, v] of entries) {
    if (k.length === 0 || k.length > KEY_MAX) throw apiError('invalid_body', `text keys must be 1 to ${KEY_MAX} characters`);
    const why = htmlViolation(v);
    if (why !== undefined) throw apiError('invalid_body', `Value of ${k}: ${why}`);
  }
  // fromEntries defines own properties only: no key can reach a prototype.
  return Object.fromEntries(entries);
}

export function customTextRoutes(ctx: EmulatorContext): RouteDef[] {
  const url = '/api/v2/self-service-profiles/:id/custom-text/:language/:page';
  return [
    {
      method: 'PUT',
      url,
      scopes: operation('custom-text.put').scopes,
      contentTypes: JSON_OR_FORM,
      handler: (request) => {
        const t = target(ctx, request);
        const text = checkText(request.body);
        if (!t.known) throw apiError('inexistent_self_service_profile');
        ctx.state.customText.set(t.key, text);
        return text;
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
}
