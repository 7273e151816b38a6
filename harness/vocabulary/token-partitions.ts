/**
 * Partitions of what a client puts in a token request and in a bearer token, each from the standard that
 * defines the input's type (category-partition: the categories first, then a value from each):
 *
 * - a form parameter's NAME as written in an application/x-www-form-urlencoded body (RFC 6749 Appendix B;
 *   WHATWG URL, application/x-www-form-urlencoded parsing; RFC 3986 2.1): names are percent-decoded like
 *   values, so `grant%5Ftype` and `%67rant_type` are `grant_type`;
 * - the `kid` of a JWS protected header (RFC 7515 4.1.4: "a case-sensitive string"), over Unicode: ASCII,
 *   Latin-1, another script, a character beyond the BMP, control characters;
 * - a JWS in its JSON serialization (RFC 7515 7.2, flattened and general), which is no JWT (RFC 7519 1:
 *   "JWTs are always represented using the JWS Compact Serialization or the JWE Compact Serialization");
 * - a scope set's orders (RFC 6749 3.3: a list of space-delimited strings whose order "does not matter");
 * - the JSON text of a JWS header or payload (RFC 8259 2, 4, 7: white space around the structural
 *   characters, members in any order, any character escaped): other texts of the same JSON value, whose
 *   base64url is another segment.
 */
import { isDeepStrictEqual } from 'node:util';
import { decodeJwt, foreignKeyToken } from './jwt.ts';
import { pct } from './partitions.ts';

// ---------------------------------------------------------------------------
// Form parameter names

/**
 * Spellings of a form parameter's name that decode to the name (RFC 3986 2.1: each octet as %HH, the hex
 * digits in either case; WHATWG urlencoded parsing percent-decodes names as it does values): its underscores as
 * %5F and as %5f, its first letter percent-encoded (%67 for g), every character percent-encoded. Never the name as
 * written: each is another spelling a parser that counts raw names takes for another parameter.
 */
export function encodedNameSpellings(name: string): Array<{ what: string; raw: string }> {
  const out: Array<{ what: string; raw: string }> = [];
  if (name.includes('_')) {
    out.push({ what: 'its _ percent-encoded (%5F)', raw: name.replaceAll('_', '%5F') });
    out.push({ what: 'its _ percent-encoded in lower-case hex (%5f)', raw: name.replaceAll('_', '%5f') });
  }
  const letter = name.search(/[A-Za-z]/);
  if (letter >= 0)
    out.push({
      what: `its first letter percent-encoded (${pct(name.charAt(letter))})`,
      raw: `${name.slice(0, letter)}${pct(name.charAt(letter))}${name.slice(letter + 1)}`,
    });
  out.push({ what: 'every character percent-encoded', raw: [...name].map(pct).join('') });
  return out;
}

/** A value as application/x-www-form-urlencoded writes it (the serializer URLSearchParams uses). */
export const formValue = (v: string) => new URLSearchParams([['', v]]).toString().slice(1);

/** A form body of these name=value pairs, each name as written (raw) and each value form-encoded. */
export function rawFormBody(pairs: ReadonlyArray<readonly [rawName: string, value: string]>): string {
  return pairs.map(([name, value]) => `${name}=${formValue(value)}`).join('&');
}

// ---------------------------------------------------------------------------
// The kid of a JWS header

/**
 * Values of a header's kid, partitioned over Unicode (RFC 7515 4.1.4: any case-sensitive string; RFC 8259 7:
 * any character can be written in a JSON string): plain ASCII not the tenant's, the tenant's own with its case
 * swapped, empty, Latin-1 beyond ASCII, Cyrillic, an emoji beyond the BMP (a surrogate pair in UTF-16), a C0
 * control character, CR LF followed by what reads as a header line, DEL. A verifier that finds no key for it
 * refuses the token as invalid, whatever it holds: never answers 5xx for a character it cannot print.
 */
export function kidPartitions(tenantKid: string | undefined): Array<{ what: string; kid: string }> {
  const swapped = tenantKid?.replace(/[A-Za-z]/g, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()));
  return [
    // The first ones carry most of the partition (an external target's share sends the first few).
    { what: 'a kid in Cyrillic ("ключ-1")', kid: 'ключ-1' },
    { what: 'a kid holding an emoji beyond the BMP ("key-😀")', kid: 'key-😀' },
    { what: 'a kid holding a C0 control character ("key-\\u0001")', kid: 'key-\u0001' },
    { what: 'a kid holding CR LF and a header line ("key\\r\\nX-Conformance: 1")', kid: 'key\r\nX-Conformance: 1' },
    { what: 'a plain ASCII kid the tenant has not ("conformance-kid-1")', kid: 'conformance-kid-1' },
    { what: 'a kid in Latin-1 beyond ASCII ("clé-1")', kid: 'clé-1' },
    { what: 'a kid holding DEL ("key-\\u007f")', kid: 'key-\u007f' },
    { what: 'an empty kid', kid: '' },
    ...(swapped && swapped !== tenantKid
      ? [{ what: "the tenant's kid with its letters' case swapped", kid: swapped }]
      : []),
  ];
}

const segment = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/**
 * The run token's claims signed by a key of the suite's own under each kid of `kidPartitions` (the tenant's
 * kid read from the token's header): tokens whose signature no key of the tenant verifies, every one.
 */
export async function kidForgeries(token: string): Promise<Array<{ what: string; token: string }>> {
  const jwt = decodeJwt(token);
  if (!jwt) return [];
  const [, p, sig] = token.split('.') as [string, string, string];
  const tenantKid = typeof jwt.header.kid === 'string' ? jwt.header.kid : undefined;
  const out: Array<{ what: string; token: string }> = [];
  for (const { what, kid } of kidPartitions(tenantKid)) {
    // foreignKeyToken keeps the header's kid: the token under this kid, then signed by the suite's own key.
    const forged = await foreignKeyToken(`${segment({ ...jwt.header, kid })}.${p}.${sig}`, false);
    if (forged)
      out.push({ what: `the run token's claims signed by a key of the suite's own under ${what}`, token: forged });
  }
  return out;
}

// ---------------------------------------------------------------------------
// A JWS in its JSON serialization

/**
 * The run's token re-packed as a JWS JSON serialization (RFC 7515 7.2.2 flattened, 7.2.1 general), its own
 * protected header, payload and signature, base64url-encoded whole so that it fits a b64token (RFC 6750 2.1):
 * the same signature over the same signing input, in a form that is no JWT (RFC 7519 1, 7.2: a JWT is a compact
 * serialization), which a server taking "the token is a JWT" refuses. Also the flattened object as it is,
 * not encoded (no b64token).
 */
export function jwsJsonForms(token: string): Array<{ what: string; value: string }> {
  const parts = token.split('.');
  if (parts.length !== 3) return [];
  const [protectedHeader, payload, signature] = parts as [string, string, string];
  const flattened = { protected: protectedHeader, payload, signature };
  const general = { payload, signatures: [{ protected: protectedHeader, signature }] };
  return [
    {
      what: 'the run\'s token as a flattened JWS JSON serialization ({"protected","payload","signature"}, RFC 7515 7.2.2), base64url-encoded',
      value: segment(flattened),
    },
    {
      what: 'the run\'s token as a general JWS JSON serialization ({"payload","signatures":[…]}, RFC 7515 7.2.1), base64url-encoded',
      value: segment(general),
    },
    {
      what: "the run's token as a flattened JWS JSON serialization, as JSON text",
      value: JSON.stringify(flattened),
    },
  ];
}

// ---------------------------------------------------------------------------
// Orders of a scope set

/**
 * Orders of a scope set (RFC 6749 3.3: "The strings are defined by the authorization server. If the value
 * contains multiple space-delimited strings, their order does not matter"): sorted first (the reference), then
 * reversed, `key` first and `key` last with the others sorted, and the sorted list rotated by one. Duplicates
 * of an order already listed are left out.
 */
export function scopeOrders(scopes: readonly string[], key: string): Array<{ what: string; scopes: string[] }> {
  const sorted = [...new Set(scopes)].sort();
  const others = sorted.filter((s) => s !== key);
  const all: Array<{ what: string; scopes: string[] }> = [
    { what: 'sorted', scopes: sorted },
    { what: 'reversed', scopes: [...sorted].reverse() },
    { what: `${key} first`, scopes: [key, ...others] },
    { what: `${key} last`, scopes: [...others, key] },
    { what: 'rotated by one', scopes: [...sorted.slice(1), ...sorted.slice(0, 1)] },
  ];
  return all.filter((o, i) => all.findIndex((x) => x.scopes.join(' ') === o.scopes.join(' ')) === i);
}

// ---------------------------------------------------------------------------
// The JSON text of a JWS segment

/** How a JSON value is written: the separators after a member's name and between elements, and each string. */
interface JsonStyle {
  colon: string;
  comma: string;
  /** A string as written, the quotes included; `name` says whether it is a member's name. */
  string?: (s: string, name: boolean) => string;
}

/** The value as JSON text in `style` (RFC 8259 2: white space is allowed around any structural character). */
function writeJson(v: unknown, style: JsonStyle): string {
  const str = style.string ?? ((s: string) => JSON.stringify(s));
  if (typeof v === 'string') return str(v, false);
  if (Array.isArray(v)) return `[${v.map((x) => writeJson(x, style)).join(style.comma)}]`;
  if (v && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${str(k, true)}${style.colon}${writeJson(x, style)}`)
      .join(style.comma)}}`;
  return JSON.stringify(v);
}

/** `s` as a JSON string with its first ASCII letter written as a \u escape (RFC 8259 7), or undefined without one. */
function escapedFirstLetter(s: string): string | undefined {
  const at = s.search(/[A-Za-z]/);
  if (at < 0) return undefined;
  const u = `\\u${s.charCodeAt(at).toString(16).padStart(4, '0').toUpperCase()}`;
  return `${JSON.stringify(s.slice(0, at)).slice(0, -1)}${u}${JSON.stringify(s.slice(at + 1)).slice(1)}`;
}

/**
 * Other JSON texts of one segment's JSON object (RFC 8259): white space after each : and , ({"alg": "RS256", …}),
 * the object on several lines (line feeds and indentation), white space before and after it, its members in
 * reverse order (4: an object is an unordered collection), the first letter of the first string value and of the
 * first member's name written as a \u escape (7: \u0052 for R), every / escaped as \/ (7). Each parses to the
 * same value; those whose text is the one sent are left out.
 */
function jsonTexts(value: Record<string, unknown>): Array<{ what: string; text: string }> {
  const compact: JsonStyle = { colon: ':', comma: ',' };
  const entries = Object.entries(value);
  const firstString = entries.find(([, v]) => typeof v === 'string' && /[A-Za-z]/.test(v))?.[1] as string | undefined;
  const firstName = entries.find(([k]) => /[A-Za-z]/.test(k))?.[0];
  const out: Array<{ what: string; text: string }> = [
    { what: 'a space after each colon and comma', text: writeJson(value, { colon: ': ', comma: ', ' }) },
    { what: 'line feeds and two-space indentation (on several lines)', text: JSON.stringify(value, null, 2) },
    { what: 'a space and a line feed before and after the object', text: ` \n${writeJson(value, compact)}\n ` },
  ];
  if (entries.length > 1)
    out.push({
      what: 'its members in reverse order (RFC 8259 4: an object is unordered)',
      text: writeJson(Object.fromEntries([...entries].reverse()), compact),
    });
  if (firstString !== undefined)
    out.push({
      what: `the first letter of the value ${JSON.stringify(firstString.slice(0, 12))} as a \\u escape`,
      text: writeJson(value, {
        ...compact,
        string: (s, name) => (!name && s === firstString ? escapedFirstLetter(s)! : JSON.stringify(s)),
      }),
    });
  if (firstName !== undefined)
    out.push({
      what: `the first letter of the member name ${JSON.stringify(firstName)} as a \\u escape`,
      text: writeJson(value, {
        ...compact,
        string: (s, name) => (name && s === firstName ? escapedFirstLetter(s)! : JSON.stringify(s)),
      }),
    });
  if (JSON.stringify(value).includes('/'))
    out.push({
      what: 'every / in its strings escaped as \\/',
      text: writeJson(value, { ...compact, string: (s) => JSON.stringify(s).replaceAll('/', '\\/') }),
    });
  // Only texts of the same JSON value (member order aside): anything else would be a changed token, not a respelt one.
  return out.filter((t) => isDeepStrictEqual(JSON.parse(t.text), value));
}

/**
 * The run's token with its header's or its payload's JSON text re-serialised to the same JSON value (jsonTexts),
 * re-encoded in base64url, the other segments and the signature kept as issued. RFC 7515 5.2 (step 8) validates
 * the signature over the JWS Signing Input as received, ASCII(encoded header "." encoded payload): another text of
 * the same value is another signing input, so the signature does not verify and every one is refused as invalid.
 * A verifier that decodes the segments and signs a re-encoding of what they hold (a canonical JSON writer) finds
 * the original signing input again, and admits it. Texts whose segment is the one sent are left out.
 */
export function jsonRespellings(token: string): Array<{ what: string; token: string }> {
  const jwt = decodeJwt(token);
  const parts = token.split('.');
  if (!jwt || parts.length !== 3) return [];
  const out: Array<{ what: string; token: string }> = [];
  (['header', 'payload'] as const).forEach((name, i) => {
    for (const { what, text } of jsonTexts(name === 'header' ? jwt.header : jwt.payload)) {
      const seg = Buffer.from(text, 'utf8').toString('base64url');
      if (seg === parts[i]) continue;
      out.push({
        what: `its ${name} JSON written with ${what}, the same value, the signature kept`,
        token: parts.map((p, j) => (j === i ? seg : p)).join('.'),
      });
    }
  });
  return out;
}
