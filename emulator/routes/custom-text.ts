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
import { managementScopes } from '../auth.js';
import type { EmulatorContext } from '../context.js';
import { apiError } from '../errors.js';
import { htmlViolation } from '../html-policy.js';
import { customTextKey } from '../state.js';
import { JSON_OR_FORM, param, routePath, validateBody, type RouteDef, operationRoute } from './shared.js';

export const LANGUAGES: readonly string[] = ['en'];
export const PAGES: readonly string[] = ['get-started'];
export const VALUE_MAX = 2000;
export const KEY_MAX = 255;

function target(ctx: EmulatorContext, request: Parameters<RouteDef['handler']>[0]) {
  const id = param(request, 'id');
  const language = param(request, 'language');
  const page = ctx.deviations.customTextPage(param(request, 'page'));
  if (!LANGUAGES.includes(language) && !ctx.deviations.acceptsCustomTextLanguage(language, LANGUAGES))
    throw apiError('invalid_uri', `language must be one of: ${LANGUAGES.join(', ')}`);
  if (!PAGES.includes(page) && !ctx.deviations.acceptsCustomTextPage(page, PAGES))
    throw apiError('invalid_uri', `page must be one of: ${PAGES.join(', ')}`);
  return { id, key: customTextKey(id, language, page), known: ctx.state.profiles.has(id) };
}

function checkText(ctx: EmulatorContext, request: Parameters<RouteDef['handler']>[0]): Record<string, string> {
  // The body as read (the fault layer alone reads a form or JSON body otherwise, or checks less).
  const { checked, kept, checksMarkup } = ctx.deviations.customTextSent(request, VALUE_MAX);
  validateBody('custom-text', checked);
  const out: Array<[string, string]> = [];
  for (const [i, [k, v]] of Object.entries(kept as Record<string, string>).entries()) {
    if (k.length === 0 || k.length > KEY_MAX)
      throw apiError('invalid_body', `text keys must be 1 to ${KEY_MAX} characters`);
    const why = checksMarkup(i, k, v) ? htmlViolation(v) : undefined;
    const value = why === undefined ? v : ctx.deviations.keptDespiteMarkup(v);
    if (value === undefined) throw apiError('invalid_body', `Value of ${k}: ${why}`);
    out.push([k, ctx.deviations.storedTextValue(value)]);
  }
  // fromEntries defines own properties only: no key can reach a prototype.
  return Object.fromEntries(out);
}

export function customTextRoutes(ctx: EmulatorContext): RouteDef[] {
  const url = routePath('custom-text.put');
  return [
    {
      ...operationRoute('custom-text.put'),
      contentTypes: JSON_OR_FORM,
      handler: (request) => {
        const t = target(ctx, request);
        const text = checkText(ctx, request);
        if (!t.known) throw apiError('inexistent_self_service_profile');
        const previous = ctx.state.customText.get(t.key);
        // The body replaces the whole map.
        const resulting = ctx.deviations.storedAfterPut(request, previous, text);
        ctx.state.customText.set(t.key, resulting);
        return ctx.deviations.answerOfWrite(request, resulting, previous);
      },
    },
    {
      method: 'GET',
      url,
      snapshot: true,
      scopes: managementScopes.readCustomText,
      handler: (request) => {
        const t = target(ctx, request);
        if (!t.known) throw apiError('inexistent_self_service_profile');
        return ctx.state.customText.get(t.key) ?? {};
      },
    },
  ];
}
