/**
 * The input partitions the checks draw from (harness/vocabulary/partitions.ts)
 * are what they say: plain text of exactly the characters asked, near misses
 * and near ids that are never the value itself, active markup that the
 * judge of stored markup always recognises, basic markup it never flags, and
 * malformed percent-encodings that no strict decoder reads as UTF-8 text.
 */
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { parseFragment, type DefaultTreeAdapterTypes } from 'parse5';
import {
  ACTIVE_MARKUP_KINDS,
  ATTRIBUTE_MARKUP,
  ATTRIBUTE_VALUE_SPELLINGS,
  PLAIN_ATTRIBUTE_VALUE,
  elementsOf,
  REQUOTED_HANDLERS,
  activeContent,
  activeMarkup,
  TEXT_ALPHABETS,
  basicMarkup,
  caseVariants,
  codePointLength,
  integerQueryOutside,
  jsonSpellings,
  MALFORMED_PERCENT_ENDINGS,
  mediaTypeSpellings,
  nearIds,
  nearMemberNames,
  nearMisses,
  wrappedMember,
  plainText,
  type AlphabetName,
} from '../../harness/vocabulary/partitions.ts';

test('should make plain text of exactly n characters in every alphabet, without markup or white space at its ends', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...(Object.keys(TEXT_ALPHABETS) as AlphabetName[])),
      fc.constantFrom(1, 2, 3, 1999, 2000, 2001),
      (alphabet, n) => {
        const [value] = fc.sample(plainText(alphabet, n), 1);
        expect(codePointLength(value!)).toBe(n);
        expect(value).not.toMatch(/[<>&"']/);
        expect(value!.trim()).toBe(value);
      },
    ),
    { numRuns: 40 },
  );
});

test('should count characters beyond the BMP as one, and as more in UTF-8 and UTF-16', () => {
  const [value] = fc.sample(plainText('astral', 100), 1);
  expect(codePointLength(value!)).toBe(100);
  expect(value!.length).toBeGreaterThan(100);
  expect(Buffer.byteLength(value!)).toBeGreaterThan(300);
});

test('should recognise every active construct it generates, of every kind, and no basic markup', () => {
  for (const html of fc.sample(activeMarkup, 300)) expect(activeContent(html), html).toBeDefined();
  for (const kind of ACTIVE_MARKUP_KINDS)
    for (const html of fc.sample(kind.markup, 60)) expect(activeContent(html), `${kind.what}: ${html}`).toBeDefined();
  for (const html of fc.sample(basicMarkup, 100)) expect(activeContent(html), html).toBeUndefined();
  expect(activeContent('&lt;script&gt;alert(1)&lt;/script&gt;')).toBeUndefined();
  expect(activeContent('<a href="https://example.com">x</a>')).toBeUndefined();
  // Inert as sent; live once its references are decoded and each attribute value requoted, unescaped, with
  // the quote character it holds.
  const requoted = (html: string) =>
    html
      .replace(/&quot;|&#39;/g, (r) => (r === '&quot;' ? '"' : "'"))
      .replace(/=(["'])([^]*?)\1(?=[ >])/g, (_, _q: string, v: string) => {
        const q = v.includes('"') ? '"' : "'";
        return `=${q}${v}${q}`;
      });
  for (const { what, value } of REQUOTED_HANDLERS) {
    expect(activeContent(value), what).toBeUndefined();
    expect(activeContent(requoted(value)), what).toBeDefined();
  }
});

test("should write each attribute value so that HTML's tokenizer reads it whole as the value it names, on basic markup the judge never flags", () => {
  const base = ATTRIBUTE_MARKUP.map((m) => m.at(PLAIN_ATTRIBUTE_VALUE));
  for (const [i, { what: where, at }] of ATTRIBUTE_MARKUP.entries())
    for (const { what, quoted, value } of [
      { what: 'the plain value', quoted: PLAIN_ATTRIBUTE_VALUE, value: 'Next page' },
      ...ATTRIBUTE_VALUE_SPELLINGS,
    ]) {
      const html = at(quoted);
      expect(activeContent(html), `${where}, ${what}: ${html}`).toBeUndefined();
      // The same elements as with the plain value, the title read as the value named, the content not cut into.
      expect(elementsOf(html), `${where}, ${what}`).toEqual(elementsOf(base[i]!));
      const el = parseFragment(html).childNodes.find((n): n is DefaultTreeAdapterTypes.Element => 'tagName' in n)!;
      const attrs = Object.fromEntries(el.attrs.map((a) => [a.name, a.value]));
      expect(attrs['title'], `${where}, ${what}: ${html}`).toBe(value);
      expect(Object.keys(attrs).sort(), `${where}, ${what}`).toEqual(
        el.tagName === 'a' ? ['href', 'title'] : ['title'],
      );
      const text = el.childNodes.map((n) => ('value' in n ? n.value : '')).join('');
      expect(text, `${where}, ${what}`).toBe('Next');
    }
});

/** Percent-decoding (RFC 3986 2.1) to octets, read as UTF-8 with U+FFFD for what is no UTF-8 (the Encoding Standard). */
const lossyDecode = (raw: string) =>
  new TextDecoder('utf-8', { ignoreBOM: true }).decode(
    Buffer.concat(
      raw
        .split(/(%[0-9A-Fa-f]{2})/)
        .map((part) =>
          /^%[0-9A-Fa-f]{2}$/.test(part) ? Buffer.from([parseInt(part.slice(1), 16)]) : Buffer.from(part),
        ),
    ),
  );

test('should never give the value itself as a near miss or a near id', () => {
  for (const v of ['en', 'get-started', 'active', 'paused', 'completed', 'archived', 'draft'])
    for (const miss of fc.sample(nearMisses(v), 100)) expect(miss).not.toBe(v);
  for (const id of ['cgr_abc123', 'est_01HZZZZZZZZZZZZZZZZZZZZZZZ', 'auth0|5f0c0000', 'a'])
    for (const near of nearIds(id)) {
      expect(near.decoded, near.what).not.toBe(id);
      expect(lossyDecode(near.raw), near.what).toBe(near.decoded);
    }
});

test('should spell a media type only in ways RFC 9110 makes the same', () => {
  for (const t of fc.sample(mediaTypeSpellings('application/json'), 50))
    expect(t.split(';')[0]!.trim().toLowerCase()).toBe('application/json');
});

test('should give as outside an integer range only spellings that Number() and every lenient reading put outside it', () => {
  for (const [min, max] of [
    [1, 100],
    [1, 10],
  ] as const) {
    for (const { what, value } of integerQueryOutside(min, max)) {
      const n = Number(value);
      const asNumber = value.trim() !== '' && Number.isInteger(n) && n >= min && n <= max;
      expect(asNumber, `${what}: ${value}`).toBe(false);
      expect(/^\+?0*[0-9]+$/.test(value) && Number(value) >= min && Number(value) <= max, `${what}: ${value}`).toBe(
        false,
      );
    }
  }
});

test('should give near member names that differ from the name, one per spelling', () => {
  for (const name of ['status', 'keys', 'kty']) {
    const near = nearMemberNames(name);
    expect(near.map((n) => n.name)).not.toContain(name);
    expect(new Set(near.map((n) => n.name)).size).toBe(near.length);
  }
});

test('should wrap a member one level down, never at the top of the body, each wrapper once', () => {
  const wrapped = wrappedMember('status', 'active', 'experiment');
  expect(new Set(wrapped.map((w) => JSON.stringify(w.body))).size).toBe(wrapped.length);
  for (const { what, body } of wrapped) {
    expect(body, what).not.toHaveProperty('status');
    const inner = Object.values(body)[0] as Record<string, unknown>;
    expect(inner['status'] ?? (inner['attributes'] as Record<string, unknown>)['status'], what).toBe('active');
  }
});

test('should vary the case of an id only where the id is spelt in both cases, never giving the id itself', () => {
  expect(caseVariants('01hzx3k9m2q7w8e5r6t4y1u0pa')).toEqual([]);
  expect(caseVariants('EST_4O4ZA1YDBZPYKKZDRS19LM')).toEqual([]);
  const v = caseVariants('est_4o4zA1yDbzpykKZdrS19Lm');
  expect(v.map((x) => x.decoded)).toEqual([
    'est_4o4zA1yDbzpykKZdrS19LM',
    'EST_4O4ZA1YDBZPYKKZDRS19LM',
    'est_4o4za1ydbzpykkzdrs19lm',
    'EST_4O4Za1YdBZPYKkzDRs19lM',
  ]);
});

test('should spell JSON only in ways that parse to the same value', () => {
  for (const value of [
    { status: 'paused' },
    { keys: [{ kty: 'EC', kid: 'a/b', x5c: ['MII+/='] }] },
    { 'k.é': 'v 🎉' },
  ]) {
    const spellings = jsonSpellings(value);
    expect(spellings.length).toBeGreaterThanOrEqual(3);
    for (const { what, text } of spellings) {
      expect(JSON.parse(text), what).toEqual(value);
      expect(text, what).not.toBe(JSON.stringify(value));
    }
  }
});

test('should end a path segment only in ways that are no percent-encoding of UTF-8, alone, after an id, and before the next segment', () => {
  const strict = new TextDecoder('utf-8', { fatal: true });
  /** RFC 3986 2.1, 2.5: the segment's octets, or undefined where a % has no two hex digits after it. */
  const octets = (segment: string): Uint8Array | undefined => {
    const out: number[] = [];
    for (let i = 0; i < segment.length; i++) {
      if (segment[i] !== '%') out.push(segment.charCodeAt(i));
      else if (/^[0-9A-Fa-f]{2}$/.test(segment.slice(i + 1, i + 3)))
        out.push(parseInt(segment.slice(i + 1, (i += 2) + 1), 16));
      else return undefined;
    }
    return new Uint8Array(out);
  };
  for (const { what, raw } of MALFORMED_PERCENT_ENDINGS)
    for (const segment of [`conformance-id${raw}`, raw, `conformance-id${raw}/x`]) {
      expect(() => decodeURIComponent(segment), what).toThrow(URIError);
      const bytes = octets(segment);
      if (bytes !== undefined) expect(() => strict.decode(bytes), what).toThrow(TypeError);
    }
});
