/**
 * Proactive negotiation (RFC 9110 12.5): the request's Accept, Accept-Charset, Accept-Encoding and
 * Accept-Language, each from its partitions, in sets that every operation of the interface can meet with the
 * JSON answer it gives without them (each Accept admits application/json, the charset is JSON's own, identity is
 * always acceptable). The document shows no member whose value depends on the request: no localisable member
 * (names, descriptions and every other text are typed strings of the resource), no Content-Language, and custom
 * text chooses its language by the path's `{language}`, never by a header. So a success answer holds the same
 * JSON value with these fields as without them; a server may still refuse what it cannot meet (406 Not
 * Acceptable, RFC 9110 15.5.7), never answer something else.
 */

/**
 * The content codings a client decodes (RFC 9110 8.4.1: gzip, deflate; RFC 7932: br), each of which a request
 * may accept alone: the answer comes in that coding or in none, and decodes to the same JSON value either way.
 * (The suite's client offers all three on every request unless a check says otherwise, as Playwright did, and
 * fails the body-format rule of an answer it cannot decode as its Content-Encoding says: harness/requests/client.ts.)
 */
export const CONTENT_CODINGS = ['gzip', 'deflate', 'br'] as const;

/** One set of proactive negotiation fields, sent beside the client's own. */
export interface Negotiation {
  what: string;
  headers: Readonly<Record<string, string>>;
}

/**
 * The sets, every field at once first (what one request carries where the request budget allows no more), then
 * each field alone from its partitions: Accept-Language a single tag, a list with weights (RFC 9110 12.5.4's own
 * example), the wildcard; Accept application/json, a list that prefers it to the wildcard, the wildcard alone
 * (12.5.1); Accept-Charset utf-8 (12.5.2; RFC 8259 8.1: JSON's only charset); Accept-Encoding identity, no
 * content coding (12.5.3: the client itself sends gzip, deflate and br otherwise), each coding alone, and a
 * weighted list.
 */
export const NEGOTIATIONS: readonly Negotiation[] = [
  {
    what: 'every proactive negotiation field at once (Accept-Language: da, en-gb;q=0.8, en;q=0.7; Accept: application/json, */*;q=0.1; Accept-Charset: utf-8; Accept-Encoding: identity)',
    headers: {
      'accept-language': 'da, en-gb;q=0.8, en;q=0.7',
      accept: 'application/json, */*;q=0.1',
      'accept-charset': 'utf-8',
      'accept-encoding': 'identity',
    },
  },
  { what: 'Accept-Language: en-US (a single language tag)', headers: { 'accept-language': 'en-US' } },
  {
    what: 'Accept-Language: fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5 (a list of tags with weights)',
    headers: { 'accept-language': 'fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5' },
  },
  { what: 'Accept-Language: * (any language)', headers: { 'accept-language': '*' } },
  { what: 'Accept: application/json', headers: { accept: 'application/json' } },
  { what: 'Accept: application/json, */*;q=0.1', headers: { accept: 'application/json, */*;q=0.1' } },
  { what: 'Accept: */*', headers: { accept: '*/*' } },
  { what: 'Accept-Charset: utf-8', headers: { 'accept-charset': 'utf-8' } },
  { what: 'Accept-Encoding: identity', headers: { 'accept-encoding': 'identity' } },
  ...CONTENT_CODINGS.map((c) => ({
    what: `Accept-Encoding: ${c} (that coding alone: the answer in it or in none, RFC 9110 8.4, 12.5.3)`,
    headers: { 'accept-encoding': c },
  })),
  {
    what: 'Accept-Encoding: gzip, deflate, br;q=1.0, identity;q=0.5, *;q=0 (weights, identity still acceptable)',
    headers: { 'accept-encoding': 'gzip, deflate, br;q=1.0, identity;q=0.5, *;q=0' },
  },
];

/** The sets that carry Accept-Language, and the one with every field: what a language-sensitive server meets first. */
export const LANGUAGE_NEGOTIATIONS: readonly Negotiation[] = NEGOTIATIONS.filter((n) => 'accept-language' in n.headers);

/**
 * The sets a check sends: every one against the embedded emulator; against an external target, those carrying
 * Accept-Language (the every-field set among them), or with `atBudget` the every-field set alone.
 */
export const negotiationsFor = (config: { embedded: boolean }, atBudget = false): readonly Negotiation[] =>
  config.embedded ? NEGOTIATIONS : atBudget ? NEGOTIATIONS.slice(0, 1) : LANGUAGE_NEGOTIATIONS;

/** RFC 9110 15.5.7: the refusal a server may give to negotiation fields it cannot meet. */
export const NOT_ACCEPTABLE = 406;

/**
 * Where two JSON values differ: each member (an object's name, an array's index, followed down while both sides
 * are objects or both arrays) whose values are not the same, with both values as a failure shows them.
 */
export function differences(a: unknown, b: unknown, same: (x: unknown, y: unknown) => boolean, at = ''): string[] {
  const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object';
  if (same(a, b)) return [];
  if (!isObj(a) || !isObj(b) || Array.isArray(a) !== Array.isArray(b))
    return [`${at || '(the whole value)'}: ${shown(a)} → ${shown(b)}`];
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((k) =>
    differences(a[k], b[k], same, Array.isArray(a) ? `${at}[${k}]` : at ? `${at}.${k}` : k),
  );
}

/** A value as a failure shows it: its JSON text, cut. */
const shown = (v: unknown): string => (v === undefined ? '(absent)' : (JSON.stringify(v) ?? String(v)).slice(0, 60));
