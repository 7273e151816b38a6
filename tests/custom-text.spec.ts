/**
 * Endpoints 8. Set custom text for a self-service profile:
 * PUT /self-service-profiles/{id}/custom-text/{language}/{page}
 * The allowed text keys are not shown: the suite writes only CONFORMANCE_CUSTOM_TEXT_KEY
 * (default `introduction`), which the tenant's owner names as one it takes, so a
 * value within the limits refused under it fails. Every write runs inside a
 * snapshot/restore (skipped, with the reason, where the target cannot be read back).
 */
import type { Api } from '../harness/requests/client.ts';
import {
  must,
  mustBeJson,
  mustMatchSchema,
  mustRefuse,
  mustSucceed,
  observe,
  mustBeJsonErrorBody,
  mustRefuseNotJson,
  notAnObject,
} from '../harness/vocabulary/must.ts';
import { requireFixture, requireWrites, test } from '../harness/fixtures/fixtures.ts';
import { authChecks } from '../harness/vocabulary/auth-checks.ts';
import { codePoints } from '../harness/vocabulary/events.ts';
import { fc, fcParams } from '../harness/vocabulary/properties.ts';
import { customTextPath, withCustomTextRestored } from '../harness/fixtures/restore.ts';
import type { Config } from '../harness/run/config.ts';
import { declareRules, type RuleRef } from '../harness/vocabulary/declare.ts';
import {
  activeContent,
  ATTRIBUTE_MARKUP,
  ATTRIBUTE_VALUE_SPELLINGS,
  PLAIN_ATTRIBUTE_VALUE,
  DANGLING_ENDS,
  activeMarkup,
  activeElementStartTags,
  activeMarkupGrid,
  REQUOTED_HANDLERS,
  START_TAG_FORMS,
  TEXT_ALPHABETS,
  basicMarkup,
  elementsOf,
  codePointLength,
  equivalentSegments,
  HTML_SIGNIFICANT_TEXT,
  htmlPlainText,
  mapPositions,
  MARKUP_POSITIONS,
  selfNested,
  mediaTypeSpellings,
  nearMisses,
  nearPathSegments,
  otherJsonTypes,
  plainText,
  SAME_MARKUP,
  MARKUP_LAYOUTS,
  MARKUP_WHITE_SPACE,
  TEXT_KEY_PARTITIONS,
  STORE_SPECIAL_TEXT_KEYS,
  UNICODE_SPELLINGS,
  FORMAT_SPELLINGS,
  TEXT_KEY_CASES,
  CONTROL_CHARACTERS,
  HYPERLINK_URLS,
  WHITE_SPACE_SPELLINGS,
  EDGE_CHARACTERS,
  EDGE_POSITIONS,
  edgeCharacter,
  htmlTextOf,
  escapedJson,
  jsonSpellings,
  type AlphabetName,
} from '../harness/vocabulary/partitions.ts';
import type { Exchange } from '../harness/requests/client.ts';
import {
  CHUNKED_FRAMINGS,
  LENGTH_REQUIRED,
  PROTO_KEY,
  PROTOTYPE_MEMBER_KEYS,
  sendChunked,
  TEXT_KEY_SPELLINGS,
} from '../harness/vocabulary/body-partitions.ts';

// These checks share one resource (the profile's text): run them one after another.
test.describe.configure({ mode: 'default' });

function profile(config: Config): string {
  requireWrites(config);
  return requireFixture(config.selfServiceProfileId, 'CONFORMANCE_SELF_SERVICE_PROFILE_ID');
}

const put = (api: Api, id: string, map: Record<string, string>, language = 'en', page = 'get-started') =>
  api.put(customTextPath(id, language, page), { json: map });

/** The two request content types the document names for this PUT. */
const MEDIA = ['json', 'form'] as const;
const putAs = (api: Api, id: string, media: (typeof MEDIA)[number], map: Record<string, string>) =>
  media === 'json'
    ? put(api, id, map)
    : api.put(customTextPath(id), {
        body: new URLSearchParams(map).toString(),
        contentType: 'application/x-www-form-urlencoded',
      });

/** The ways the markup checks send a value: MEDIA's, and JSON with the value spelt in escapes. */
const SPELLINGS = [...MEDIA, 'json with every mark escaped'] as const;
const putSpelt = (api: Api, id: string, spelling: (typeof SPELLINGS)[number], map: Record<string, string>) =>
  spelling === 'json with every mark escaped'
    ? api.put(customTextPath(id), { body: escapedJson(map), contentType: 'application/json' })
    : putAs(api, id, spelling, map);

/** The value an answer maps a key to. */
const answered = (ex: Exchange, key: string) => (ex.json as Record<string, unknown> | undefined)?.[key];

/**
 * A value holding active markup is refused (4xx), or stored and answered with
 * none left: the HTML policy holds for a value whatever media type carried it
 * (each body rule is checked in both the document names).
 */
function mustHoldNoActiveMarkup(rule: RuleRef, ex: Exchange, key: string, what: string): void {
  const stored = answered(ex, key);
  const refused = ex.status >= 400 && ex.status < 500;
  const left = typeof stored === 'string' ? activeContent(stored) : 'no text value answered';
  must(rule, refused || (ex.status < 300 && left === undefined), {
    expected: `${what}: a 4xx, or a stored value holding only basic styling and hyperlinks`,
    actual: `status ${ex.status}${refused ? '' : `; stored ${JSON.stringify(stored)?.slice(0, 120)} holds ${left}`}`,
    exchange: ex,
  });
}
/** Two texts the same up to Unicode normalisation (NFC), which a server may apply to what it stores. */
const sameText = (a: unknown, b: string) => typeof a === 'string' && a.normalize('NFC') === b.normalize('NFC');
const is2xx = (ex: Exchange) => ex.status >= 200 && ex.status < 300;

/**
 * Keys tried beside the configured one for maps of several keys. The allowed text keys are not shown:
 * names a get-started page plausibly carries, the likeliest first.
 */
const EXTRA_KEY_CANDIDATES: readonly string[] = ['heading', 'description', 'title', 'subtitle', 'footer', 'button'];

/**
 * The keys of a map of several keys: the configured one first, then up to two candidates the target
 * takes beside it (learnt with a short plain value under each; a candidate refused is observed and the
 * next one tried). The key spellings come first, each group giving one key at most: the first of
 * TEXT_KEY_CASES taken (upper-case letters, which the resulting map names as sent: RFC 8259 8.3), the
 * first of the other TEXT_KEY_PARTITIONS taken (a dot, a hyphen, an underscore, non-ASCII letters); then
 * the plain candidates. Where none is taken the check is skipped with the reason: a server may refuse a
 * key it does not know.
 */
async function severalKeys(api: Api, id: string, config: Config): Promise<string[]> {
  const keys = [config.customTextKey];
  const refused: string[] = [];
  const cased = TEXT_KEY_CASES.map((k) => k.key);
  const groups = [
    cased,
    TEXT_KEY_PARTITIONS.map((k) => k.key).filter((k) => !cased.includes(k)),
    ...EXTRA_KEY_CANDIDATES.map((k) => [k]),
  ];
  // No two keys the same but for case: a map of them is a relation of its own, not these checks'.
  const fresh = (k: string) => !keys.some((held) => held.toLowerCase() === k.toLowerCase());
  for (const group of groups) {
    if (keys.length === 3) break;
    for (const candidate of group.filter(fresh)) {
      const ex = await put(api, id, { [config.customTextKey]: 'Probe.', [candidate]: 'Probe.' });
      observe('custom-text.put.keys', `key ${candidate} beside ${config.customTextKey} answered`, String(ex.status));
      if (!is2xx(ex)) refused.push(`${candidate} (${ex.status})`);
      else {
        keys.push(candidate);
        break;
      }
    }
  }
  test.skip(
    keys.length < 2,
    `No text key besides ${config.customTextKey} is taken by the target (tried ${refused.join(', ')}): the allowed text keys are not shown, so no map of several keys can be sent`,
  );
  return keys;
}

/** A map of `keys` in their order: `value` under the key at `index`, `others(key)` under each other. */
const mapWith = <T>(keys: readonly string[], index: number, value: T, others: (key: string) => unknown) =>
  Object.fromEntries(keys.map((k, i) => [k, i === index ? value : others(k)]));
/** One letter a key's long values are made of, a different one for each position (a value is told from another). */
const FILL = ['a', 'é', 'ж'] as const;

test.describe('custom text of a self-service profile @custom-text @writes', () => {
  const json = declareRules(
    'custom-text.put.json',
    'custom-text.put.resulting-map',
    'custom-text.types',
    'http.json-bodies',
  );
  test('should set text sent as JSON and answer the resulting map', json, async ({ api, config }) => {
    const id = profile(config);
    await withCustomTextRestored(api, id, async () => {
      const value = 'Welcome to the conformance run.';
      const ex = await put(api, id, { [config.customTextKey]: value });
      observe('custom-text.put.keys', `key ${config.customTextKey} answered`, String(ex.status));
      mustSucceed(json.customTextPutJson, ex);
      mustBeJson(json.httpJsonBodies, ex);
      mustMatchSchema('custom-text', ex.json, ex);
      const got = (ex.json as Record<string, unknown>)[config.customTextKey];
      must(json.customTextPutResultingMap, got === value, {
        expected: `${config.customTextKey}: ${JSON.stringify(value)}`,
        actual: `${config.customTextKey}: ${JSON.stringify(got)}`,
        exchange: ex,
      });
      observe('custom-text.put.status', 'JSON PUT answered', String(ex.status));
    });
  });

  const form = declareRules('custom-text.put.form');
  test('should set text sent form-encoded', form, async ({ api, config }) => {
    const id = profile(config);
    await withCustomTextRestored(api, id, async () => {
      const value = 'Form-encoded conformance text';
      const ex = await api.put(customTextPath(id), {
        body: new URLSearchParams({ [config.customTextKey]: value }).toString(),
        contentType: 'application/x-www-form-urlencoded',
      });
      mustSucceed(form.customTextPutForm, ex);
      const got = (ex.json as Record<string, unknown> | undefined)?.[config.customTextKey];
      must(form.customTextPutForm, got === value, {
        expected: `the resulting map holds ${config.customTextKey}: ${JSON.stringify(value)}`,
        actual: JSON.stringify(got),
        exchange: ex,
      });
    });
  });

  const maxLength = declareRules('custom-text.put.value.max-length');
  test('should accept a value of 2000 characters and refuse one of 2001', maxLength, async ({ api, config }) => {
    const id = profile(config);
    await withCustomTextRestored(api, id, async () => {
      mustSucceed(
        maxLength.customTextPutValueMaxLength,
        await put(api, id, { [config.customTextKey]: 'a'.repeat(2000) }),
      );
      mustRefuse(
        maxLength.customTextPutValueMaxLength,
        await put(api, id, { [config.customTextKey]: 'a'.repeat(2001) }),
        'a value of 2001 characters',
      );
    });
  });

  const maxLength2 = declareRules('custom-text.put.value.max-length');
  test('should refuse values over 2000 characters (property)', maxLength2, async ({ api, config }) => {
    const id = profile(config);
    await withCustomTextRestored(api, id, async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 2001, max: 6000 }), fc.constantFrom('a', 'é', 'Z', ' '), async (n, ch) => {
          mustRefuse(
            maxLength2.customTextPutValueMaxLength,
            await put(api, id, { [config.customTextKey]: ch.repeat(n) }),
            `a value of ${n} characters`,
          );
        }),
        fcParams(config, 10),
      );
    });
  });

  const unicode = declareRules(
    'custom-text.put.value.max-length',
    'custom-text.put.resulting-map',
    'custom-text.put.json',
    'custom-text.put.form',
  );
  test(
    'should take any plain text up to 2000 characters, counted as characters in every script and of every kind (backslash escapes, format characters, emoji sequences, variation selectors, combining marks, all of Unicode), answer it as sent, and refuse 2001 (property)',
    unicode,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      // Every alphabet, sent both ways and as JSON spelt in escapes (a length counted on the raw body, not the
      // parsed value, is 6 times longer there), at the limit and inside it: the partitions are a grid, covered
      // on every run; only the text within each (and the inside size) is generated.
      const cells = (Object.keys(TEXT_ALPHABETS) as AlphabetName[]).flatMap((alphabet) =>
        SPELLINGS.flatMap((media) => [2000, 0].map((at) => ({ alphabet, media, at }))),
      );
      const cases = fc.integer({ min: 1, max: 1999 }).chain((inside) =>
        fc.tuple(
          ...cells.map(({ alphabet, media, at }) =>
            fc.record({
              alphabet: fc.constant(alphabet),
              media: fc.constant(media),
              value: plainText(alphabet, at || inside),
              over: plainText(alphabet, 2001),
            }),
          ),
        ),
      );
      await withCustomTextRestored(api, id, async () => {
        await fc.assert(
          fc.asyncProperty(cases, async (grid) => {
            for (const { alphabet, media, value, over } of grid) {
              const n = codePointLength(value);
              const ex = await putSpelt(api, id, media, { [key]: value });
              const rule = media === 'form' ? unicode.customTextPutForm : unicode.customTextPutJson;
              must(rule, ex.status >= 200 && ex.status < 300, {
                expected: `a 2xx for a ${alphabet} value of ${n} characters (${Buffer.byteLength(value)} UTF-8 bytes, ${value.length} UTF-16 units), sent ${media}`,
                actual: `status ${ex.status}`,
                exchange: ex,
              });
              must(unicode.customTextPutResultingMap, sameText(answered(ex, key), value), {
                expected: `${key} answered as sent (${n} ${alphabet} characters)`,
                actual: `${key}: ${JSON.stringify(answered(ex, key))?.slice(0, 120)}`,
                exchange: ex,
              });
              mustRefuse(
                unicode.customTextPutValueMaxLength,
                await putSpelt(api, id, media, { [key]: over }),
                `a ${alphabet} value of 2001 characters (${Buffer.byteLength(over)} UTF-8 bytes), sent ${media}`,
              );
            }
          }),
          fcParams(config, 2),
        );
      });
    },
  );

  const jsonSpelt = declareRules('custom-text.put.json', 'custom-text.put.resulting-map');
  test(
    'should read a map sent as JSON in every spelling RFC 8259 makes the same value (white space between tokens, every string and key in \\u escapes, an escaped solidus) as its compact text, and answer it as sent',
    jsonSpelt,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      const map = { [key]: 'Welcome back/again: Ünïcödé 🎉' };
      await withCustomTextRestored(api, id, async () => {
        for (const { what, text } of jsonSpellings(map)) {
          const ex = await api.put(customTextPath(id), { body: text, contentType: 'application/json' });
          must(jsonSpelt.customTextPutJson, is2xx(ex), {
            expected: `a 2xx for the map ${JSON.stringify(map)} sent as JSON ${what}`,
            actual: `status ${ex.status}`,
            exchange: ex,
          });
          must(jsonSpelt.customTextPutResultingMap, answered(ex, key) === map[key], {
            expected: `${key} answered as sent: ${JSON.stringify(map[key])} (the JSON ${what})`,
            actual: `${key}: ${JSON.stringify(answered(ex, key))}`,
            exchange: ex,
          });
        }
      });
    },
  );

  const controls = declareRules('custom-text.put.resulting-map', 'custom-text.put.status');
  test(
    'should answer a value holding a control character, a line or paragraph separator or a noncharacter (U+0000, other C0 and C1 controls, DEL, U+2028, U+2029, U+FFFE, U+FFFF) whole where it takes it, sent either way: never cut at it or without it (relation)',
    controls,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      await withCustomTextRestored(api, id, async () => {
        for (const media of MEDIA)
          for (const { what, value: c } of CONTROL_CHARACTERS) {
            const value = `Before ${c} after.`;
            const ex = await putAs(api, id, media, { [key]: value });
            // Whether a server takes such a value is its choice (U+0000 is an HTML parse error): a refusal is observed.
            if (!is2xx(ex)) {
              observe('custom-text.put.status', `a value holding ${what} answered`, String(ex.status));
              continue;
            }
            const got = answered(ex, key);
            must(controls.customTextPutResultingMap, got === value, {
              expected: `${key}: the value as set, ${[...value].length} characters with ${what} inside (sent ${media})`,
              actual: `${key}: ${JSON.stringify(got)?.slice(0, 120)}`,
              exchange: ex,
            });
          }
      });
    },
  );

  const exact = declareRules(
    'custom-text.put.resulting-map',
    'custom-text.put.value.max-length',
    'custom-text.put.json',
    'custom-text.put.form',
  );
  test(
    'should take a value at the lower boundary (0 and 1 characters), with white space at its ends or alone, in every spelling Unicode makes equivalent (NFC, NFD, marks out of order, compatibility characters, Hangul jamo), and holding format characters (zero-width, joiners, BOM, soft hyphen, bidi isolates), emoji ZWJ and tag sequences, variation selectors and stacked marks, both media types, and answer it with its key exactly as sent, code point for code point',
    exact,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      // "at most 2000 characters": 0 is within it, as 2000 is. JSON strings compare code unit by code unit
      // (RFC 8259 8.3): a value set is answered as sent, not normalised.
      const values = [
        { what: 'the empty string (0 characters)', value: '' },
        { what: 'one character', value: 'x' },
        ...UNICODE_SPELLINGS.map((u) => ({ what: u.what, value: `Text ${u.value}` })),
        ...WHITE_SPACE_SPELLINGS,
        ...FORMAT_SPELLINGS,
      ];
      await withCustomTextRestored(api, id, async () => {
        for (const media of MEDIA)
          for (const { what, value } of values) {
            const ex = await putAs(api, id, media, { [key]: value });
            must(
              media === 'json' ? exact.customTextPutJson : exact.customTextPutForm,
              ex.status >= 200 && ex.status < 300,
              {
                expected: `a 2xx for ${what} (${codePointLength(value)} characters, within at most 2000), sent ${media}`,
                actual: `status ${ex.status}`,
                exchange: ex,
              },
            );
            const got = answered(ex, key);
            must(exact.customTextPutResultingMap, got === value, {
              expected: `${key} answered exactly as sent: ${what} [${codePoints(value)}]`,
              actual: `${key}: ${got === undefined ? 'left out of the answer' : `[${typeof got === 'string' ? codePoints(got) : JSON.stringify(got)}]`}`,
              exchange: ex,
            });
          }
      });
    },
  );

  const edges = declareRules(
    'custom-text.put.resulting-map',
    'custom-text.put.json',
    'custom-text.put.form',
    'custom-text.put.status',
  );
  test(
    'should take a value beginning or ending with a character sanitisers act on (the formula triggers = + - @ TAB CR and their fullwidth forms, Markdown starts "- " "* " "# " "> " "1. ", quote characters, a backtick, a backslash, %, &, a < starting no tag), first, last and alone, both media types, and answer it as sent: a < or a CR refused (4xx) or taken, a character HTML gives meaning to as sent or as its character reference, never another text; and any character of Unicode first and last (partition by first and last character; property)',
    edges,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      const grid = EDGE_CHARACTERS.flatMap((edge, i) =>
        EDGE_POSITIONS.flatMap(({ where, at }, j) =>
          MEDIA.map((media, k) => ({ ...edge, where, media, value: at(edge.text), alternate: (i + j + k) % 2 === 0 })),
        ),
      );
      // Against an external target each character first and last, in one media type each (alternating).
      const chosen = config.embedded ? grid : grid.filter((c) => c.alternate && c.where !== 'alone');
      await withCustomTextRestored(api, id, async () => {
        for (const { what, where, media, value, html, refusable } of chosen) {
          const ex = await putAs(api, id, media, { [key]: value });
          const sent = `${JSON.stringify(value)}: ${what} ${where === 'alone' ? 'alone' : `as its ${where} character`}, sent ${media}`;
          // A < starting no tag is an HTML parse error, a lone CR a control character: either may be refused.
          if (refusable && ex.status >= 400 && ex.status < 500) {
            observe('custom-text.put.status', `a value of ${what} ${where} answered`, String(ex.status));
            continue;
          }
          must(media === 'json' ? edges.customTextPutJson : edges.customTextPutForm, is2xx(ex), {
            expected: `a 2xx${refusable ? ' or a 4xx' : ''} for ${sent}: plain text, which values may be`,
            actual: `status ${ex.status}`,
            exchange: ex,
          });
          const got = answered(ex, key);
          // A sanitiser's serialiser may write & < > " ' as character references: the same text once parsed.
          const same =
            got === value ||
            (html === true &&
              typeof got === 'string' &&
              htmlTextOf(got) !== undefined &&
              htmlTextOf(got) === htmlTextOf(value));
          must(edges.customTextPutResultingMap, same, {
            expected: `${key} answered as sent${html ? ' (or as the same text in character references)' : ''}: ${sent} [${codePoints(value)}]`,
            actual: `${key}: ${got === undefined ? 'left out of the answer' : `${JSON.stringify(got)} [${typeof got === 'string' ? codePoints(got) : typeof got}]`}`,
            exchange: ex,
          });
        }
        // Any character first and last: every media type on every run; the characters and the text between drawn.
        const cases = fc.record({
          first: edgeCharacter,
          last: edgeCharacter,
          between: fc.integer({ min: 1, max: 40 }).chain((n) => plainText('all of Unicode', n)),
        });
        await fc.assert(
          fc.asyncProperty(cases, async ({ first, last, between }) => {
            const value = `${first}${between}${last}`;
            for (const media of MEDIA) {
              const ex = await putAs(api, id, media, { [key]: value });
              must(media === 'json' ? edges.customTextPutJson : edges.customTextPutForm, is2xx(ex), {
                expected: `a 2xx for a value of ${codePointLength(value)} characters beginning with [${codePoints(first)}] and ending with [${codePoints(last)}], sent ${media}`,
                actual: `status ${ex.status}`,
                exchange: ex,
              });
              must(edges.customTextPutResultingMap, sameText(answered(ex, key), value), {
                expected: `${key} answered as sent: [${codePoints(value)}] (sent ${media})`,
                actual: `${key}: ${JSON.stringify(answered(ex, key))?.slice(0, 120)}`,
                exchange: ex,
              });
            }
          }),
          fcParams(config, 10),
        );
      });
    },
  );

  const htmlText = declareRules(
    'custom-text.put.html.basic-allowed',
    'custom-text.put.html.restricted',
    'custom-text.put.value.max-length',
  );
  test(
    'should take plain text holding & < > " \' where they make no markup, and markup spelt with character references, percent-encoding or backslash escapes, as text: accepted, answered with no active content, counted as characters at 2000 and refused at 2001 (property)',
    htmlText,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      /** Accepted as plain text, and answered with no active content (a server may escape or sanitise: not compared byte for byte). */
      const asText = (ex: Exchange, what: string) => {
        must(htmlText.customTextPutHtmlBasicAllowed, ex.status >= 200 && ex.status < 300, {
          expected: `a 2xx: ${what} is plain text, which values may be`,
          actual: `status ${ex.status}`,
          exchange: ex,
        });
        const stored = answered(ex, key);
        const active = typeof stored === 'string' ? activeContent(stored) : undefined;
        must(htmlText.customTextPutHtmlRestricted, active === undefined, {
          expected: `${key} answered with no markup beyond basic styling and hyperlinks (${what})`,
          actual: `${key}: ${JSON.stringify(stored)?.slice(0, 120)} holds ${active}`,
          exchange: ex,
        });
      };
      // Each sample, both media types, every run; then text of & < > " ' generated at the limit and inside
      // it, and over it, both ways (a server counting the escaped or the decoded value miscounts these).
      const cases = fc
        .integer({ min: 1, max: 1999 })
        .chain((inside) =>
          fc.tuple(
            ...MEDIA.flatMap((media) =>
              [2000, inside].map((n) =>
                fc.record({ media: fc.constant(media), value: htmlPlainText(n), over: htmlPlainText(2001) }),
              ),
            ),
          ),
        );
      await withCustomTextRestored(api, id, async () => {
        for (const media of MEDIA)
          for (const value of HTML_SIGNIFICANT_TEXT)
            asText(await putAs(api, id, media, { [key]: value }), `${JSON.stringify(value)}, sent ${media}`);
        await fc.assert(
          fc.asyncProperty(cases, async (grid) => {
            for (const { media, value, over } of grid) {
              asText(
                await putAs(api, id, media, { [key]: value }),
                `a value of ${codePointLength(value)} characters of & < > " ' and letters, sent ${media}`,
              );
              mustRefuse(
                htmlText.customTextPutValueMaxLength,
                await putSpelt(api, id, media, { [key]: over }),
                `a value of 2001 characters of & < > " ' and letters, sent ${media}`,
              );
            }
          }),
          fcParams(config, 2),
        );
      });
    },
  );

  const storesNothing = declareRules('custom-text.put.value.type', 'custom-text.put.json');
  test(
    'should refuse a text value in every other JSON type (RFC 8259 3: wrapped in an array or an object, a number, a boolean, null) and store nothing: the value set before stays',
    storesNothing,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      const before = 'Set before the refused ones.';
      await withCustomTextRestored(api, id, async (readable) => {
        mustSucceed(storesNothing.customTextPutJson, await put(api, id, { [key]: before }));
        for (const t of otherJsonTypes('Conformance text'))
          mustRefuse(
            storesNothing.customTextPutValueType,
            await api.put(customTextPath(id), { json: { [key]: t.value } }),
            `text values are strings; sent ${t.what}: ${JSON.stringify(t.value)}`,
          );
        // Read back as the snapshot reads it (GET is not shown: judged only where it is offered).
        if (!readable) return;
        const back = await api.get(customTextPath(id));
        must(storesNothing.customTextPutValueType, sameText(answered(back, key), before), {
          expected: `${key}: ${JSON.stringify(before)}, as set before the refused PUTs`,
          actual: `${key}: ${JSON.stringify(answered(back, key))?.slice(0, 120)}`,
          exchange: back,
        });
      });
    },
  );

  const spelt = declareRules('http.path-id.percent-encoding');
  test(
    'should set the text of the profile whose id is spelt as RFC 3986 makes the same (lower-case hex, unreserved characters percent-encoded)',
    spelt,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      // Against an external target, one: every unreserved character encoded, in lower-case hex.
      const spellings = equivalentSegments(id);
      await withCustomTextRestored(api, id, async (readable) => {
        for (const [i, v] of (config.embedded ? spellings : spellings.slice(-1)).entries()) {
          const value = `Set by a spelling of the profile id (${i}).`;
          const ex = await api.put(customTextPath('ID').replace('/ID/', `/${v.raw}/`), { json: { [key]: value } });
          must(
            spelt.httpPathIdPercentEncoding,
            ex.status >= 200 && ex.status < 300 && sameText(answered(ex, key), value),
            {
              expected: `a 2xx answering ${key}: ${JSON.stringify(value)}: profile ${id} spelt with ${v.what} is the same profile`,
              actual: `status ${ex.status}, ${key}: ${JSON.stringify(answered(ex, key))?.slice(0, 120)}`,
              exchange: ex,
            },
          );
          // The same profile read by its canonical id (the snapshot read, where it is offered) holds it.
          if (!readable) continue;
          const back = await api.get(customTextPath(id));
          must(spelt.httpPathIdPercentEncoding, sameText(answered(back, key), value), {
            expected: `${key}: ${JSON.stringify(value)} read back from profile ${id}, set through ${v.raw}`,
            actual: `${key}: ${JSON.stringify(answered(back, key))?.slice(0, 120)}`,
            exchange: back,
          });
        }
      });
    },
  );

  const enumSpelt = declareRules('custom-text.put.language.enum', 'custom-text.put.page.enum');
  test(
    'should take the language en and the page get-started spelt as RFC 3986 makes the same (an unreserved character percent-encoded, in either hex case): the allowed values themselves',
    enumSpelt,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      const canonical = customTextPath(id);
      const spellings = [
        ...equivalentSegments('en').map((v) => ({
          part: 'language' as const,
          what: v.what,
          segment: v.raw,
          path: `${v.raw}/get-started`,
        })),
        ...equivalentSegments('get-started').map((v) => ({
          part: 'page' as const,
          what: v.what,
          segment: v.raw,
          path: `en/${v.raw}`,
        })),
      ];
      await withCustomTextRestored(api, id, async () => {
        // Against an external target, one of each: every unreserved character encoded.
        const chosen = config.embedded
          ? spellings
          : spellings.filter((v, i, all) => !all.slice(i + 1).some((w) => w.part === v.part));
        for (const [i, v] of chosen.entries()) {
          const value = `Set through a spelling of the ${v.part} (${i}).`;
          const path = canonical.replace(/\/en\/get-started$/, `/${v.path}`);
          const ex = await api.put(path, { json: { [key]: value } });
          must(
            v.part === 'language' ? enumSpelt.customTextPutLanguageEnum : enumSpelt.customTextPutPageEnum,
            ex.status >= 200 && ex.status < 300 && sameText(answered(ex, key), value),
            {
              expected: `a 2xx answering ${key}: the ${v.part} spelt ${v.segment} (${v.what}) is ${v.part === 'language' ? 'en' : 'get-started'}`,
              actual: `status ${ex.status}`,
              exchange: ex,
            },
          );
        }
      });
    },
  );

  const allowedMarkup = declareRules('custom-text.put.html.basic-allowed', 'custom-text.put.resulting-map');
  test(
    'should accept basic styling tags and hyperlinks, nested, around any text, and answer them as markup: the same elements (property)',
    allowedMarkup,
    async ({ api, config }) => {
      const id = profile(config);
      await withCustomTextRestored(api, id, async () => {
        await fc.assert(
          fc.asyncProperty(basicMarkup, async (html) => {
            const ex = await put(api, id, { [config.customTextKey]: html });
            must(allowedMarkup.customTextPutHtmlBasicAllowed, ex.status >= 200 && ex.status < 300, {
              expected: 'a 2xx: basic styling tags and hyperlinks are allowed',
              actual: `status ${ex.status}`,
              exchange: ex,
            });
            if (ex.status < 200 || ex.status >= 300) return;
            // Taken, it is answered as markup still: the same elements, in order (a server may respell or
            // sanitise its attributes; one that escapes the tags answers text, not the markup set).
            const stored = answered(ex, config.customTextKey);
            const got = typeof stored === 'string' ? elementsOf(stored) : [];
            must(allowedMarkup.customTextPutResultingMap, JSON.stringify(got) === JSON.stringify(elementsOf(html)), {
              expected: `the value answered with its elements ${elementsOf(html).join(', ')}`,
              actual: `${JSON.stringify(stored)?.slice(0, 160)}: elements ${got.join(', ') || 'none'}`,
              exchange: ex,
            });
          }),
          fcParams(config, 6),
        );
      });
    },
  );

  const attributeValues = declareRules('custom-text.put.html.basic-allowed');
  test(
    'should accept basic markup whatever its quoted attribute value holds: a > or a < (in double or single quotes), an =, the other quote mark, the character references &gt;, &#62;, &amp; and &quot;, white space, nothing; where it takes the same hyperlink or styling element with a title of plain words (partition of attribute values, HTML 13.2.5.36-38; relation)',
    attributeValues,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      await withCustomTextRestored(api, id, async () => {
        for (const { what: where, at } of ATTRIBUTE_MARKUP) {
          const base = at(PLAIN_ATTRIBUTE_VALUE);
          const first = await put(api, id, { [key]: base });
          // Which attributes basic markup may carry is not shown: a title refused with a plain value is observed, never failed.
          if (!is2xx(first)) {
            observe('custom-text.put.status', `${JSON.stringify(base)} answered`, String(first.status));
            continue;
          }
          for (const { what, quoted } of ATTRIBUTE_VALUE_SPELLINGS) {
            const html = at(quoted);
            const ex = await put(api, id, { [key]: html });
            must(attributeValues.customTextPutHtmlBasicAllowed, is2xx(ex), {
              expected: `a 2xx: ${JSON.stringify(html)} is ${where} whose title holds ${what}, inside its quotes part of the value (HTML 13.2.5.36-38), and the same markup with a plain title was taken (status ${first.status})`,
              actual: `status ${ex.status}`,
              exchange: ex,
            });
          }
        }
      });
    },
  );

  const sameMarkup = declareRules('custom-text.put.html.basic-allowed');
  test(
    'should judge alike the spellings HTML makes the same element: where it takes <br>, <b> or a hyperlink, it takes <br/>, <BR>, <B>, <b >, <A HREF> and the other quotings too (relation)',
    sameMarkup,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      await withCustomTextRestored(api, id, async () => {
        for (const { base, same } of SAME_MARKUP) {
          const first = await put(api, id, { [key]: base });
          // Which tags the target takes is decided against what it accepts: a base refused is observed, never failed.
          if (first.status < 200 || first.status >= 300) {
            observe('custom-text.put.status', `${JSON.stringify(base)} answered`, String(first.status));
            continue;
          }
          for (const spelt of same) {
            const ex = await put(api, id, { [key]: spelt });
            must(sameMarkup.customTextPutHtmlBasicAllowed, ex.status >= 200 && ex.status < 300, {
              expected: `a 2xx: ${JSON.stringify(spelt)} is the markup of ${JSON.stringify(base)}, which was taken (status ${first.status})`,
              actual: `status ${ex.status}`,
              exchange: ex,
            });
          }
        }
      });
    },
  );

  const anyPosition = declareRules('custom-text.put.html.restricted');
  test(
    'should never store active markup at any position of a value: alone, after plain text, after, between and inside allowed markup, inside a hyperlink, after a line break (<br>, LF, CRLF, CR), before allowed markup, at the end and in the middle of a value of 2000 characters, after comments and bogus comments, after a NUL or another control character, sent as JSON, as JSON spelt in escapes and form-encoded (property)',
    anyPosition,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      // Every position on every run; the active construct at each is drawn.
      const grid = fc.tuple(
        ...MARKUP_POSITIONS.map((p) => activeMarkup.map((m) => ({ where: p.what, value: p.at(m) }))),
      );
      await withCustomTextRestored(api, id, async () => {
        await fc.assert(
          fc.asyncProperty(grid, async (cases) => {
            for (const { where, value } of cases)
              for (const media of SPELLINGS)
                mustHoldNoActiveMarkup(
                  anyPosition.customTextPutHtmlRestricted,
                  await putSpelt(api, id, media, { [key]: value }),
                  key,
                  `active markup ${where}, sent ${media}`,
                );
          }),
          fcParams(config, 4),
        );
      });
    },
  );

  const anyKey = declareRules('custom-text.put.html.restricted');
  test(
    'should never store active markup under any key it takes: each partition of a key name (case, a dot, a hyphen, an underscore, non-ASCII letters) and names that say they hold HTML (an _html, Html or .html suffix, html alone), each alone in the map (property)',
    anyKey,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      // The document restricts the markup of every value, not of some keys: a key a server takes for a raw HTML
      // slot by its name is still a text key. Which keys are taken is not shown: a key refused (4xx) says nothing;
      // a key taken (2xx, answered in the resulting map) must hold no active markup.
      const keys = [
        ...TEXT_KEY_PARTITIONS.map((k) => k.key),
        `${key}_html`,
        `${key}Html`,
        `${key}.html`,
        'footer_html',
        'html',
      ].filter((k, i, all) => k !== key && all.indexOf(k) === i);
      let taken = 0;
      await withCustomTextRestored(api, id, async () => {
        await fc.assert(
          fc.asyncProperty(fc.tuple(...keys.map(() => activeMarkup)), async (values) => {
            for (const [i, k] of keys.entries()) {
              const ex = await put(api, id, { [k]: values[i]! });
              const stored = answered(ex, k);
              // A key refused is the server's choice; a server error is no refusal.
              must(anyKey.customTextPutHtmlRestricted, ex.status < 500, {
                expected: `active markup under the key ${JSON.stringify(k)}: a 4xx, or a stored value holding only basic styling and hyperlinks`,
                actual: `status ${ex.status}`,
                exchange: ex,
              });
              if (!is2xx(ex) || typeof stored !== 'string') continue;
              taken++;
              const left = activeContent(stored);
              must(anyKey.customTextPutHtmlRestricted, left === undefined, {
                expected: `active markup under the key ${JSON.stringify(k)}: a 4xx, or a stored value holding only basic styling and hyperlinks`,
                actual: `status ${ex.status}; stored ${JSON.stringify(stored).slice(0, 120)} holds ${left}`,
                exchange: ex,
              });
            }
          }),
          fcParams(config, 2),
        );
      });
      observe(
        'custom-text.put.keys',
        'keys taken with active markup refused or made inert, of those tried',
        `${taken}`,
      );
    },
  );

  const activeRefused = declareRules('custom-text.put.html.restricted');
  test(
    'should never store markup beyond basic styling and hyperlinks, of every kind on every run: active elements, event handlers, script URLs, script in CSS, and each element beyond them with harmless-looking attributes, in any spelling, its tag and attribute names in upper or mixed case too, at the end of a value with its tag left open, and its tag names split by a copy of the tag (<scr<script>ipt>); and markup inert as sent that requoting its attributes makes live; sent as JSON, as JSON spelt in escapes and form-encoded (property)',
    activeRefused,
    async ({ api, config }) => {
      const id = profile(config);
      await withCustomTextRestored(api, id, async () => {
        // Every kind on every run (a grid: a drawn kind missed an image one run in three); the spelling is drawn.
        // Each kind also with its tag and attribute names in another case (HTML reads names ASCII
        // case-insensitively), sent one way, the kinds taking the two in turn: case and media type each covered.
        await fc.assert(
          fc.asyncProperty(activeMarkupGrid, async (grid) => {
            for (const [i, { what, value: html, cased, casing }] of grid.entries()) {
              for (const media of SPELLINGS)
                mustHoldNoActiveMarkup(
                  activeRefused.customTextPutHtmlRestricted,
                  await putSpelt(api, id, media, { [config.customTextKey]: html }),
                  config.customTextKey,
                  `${what}, sent ${media}`,
                );
              const media = MEDIA[i % MEDIA.length]!;
              mustHoldNoActiveMarkup(
                activeRefused.customTextPutHtmlRestricted,
                await putAs(api, id, media, { [config.customTextKey]: cased }),
                config.customTextKey,
                `${what}, its ${casing} (${JSON.stringify(cased).slice(0, 80)}), sent ${media}`,
              );
              // And at the end of a value, its tag left open for the page's markup to complete.
              for (const end of DANGLING_ENDS)
                mustHoldNoActiveMarkup(
                  activeRefused.customTextPutHtmlRestricted,
                  await putAs(api, id, media, { [config.customTextKey]: end.at(html) }),
                  config.customTextKey,
                  `${what}, ${end.what} (${JSON.stringify(end.at(html)).slice(0, 80)}), sent ${media}`,
                );
              // And its tag names split by a copy of the tag: removed once, the rest is the construct.
              mustHoldNoActiveMarkup(
                activeRefused.customTextPutHtmlRestricted,
                await putAs(api, id, media, { [config.customTextKey]: selfNested(html) }),
                config.customTextKey,
                `${what}, its tag names split by a copy of the tag (${JSON.stringify(selfNested(html)).slice(0, 80)}), sent ${media}`,
              );
            }
          }),
          fcParams(config, 4),
        );
        // And markup inert as sent that a server requoting its attributes makes live, each way.
        for (const [i, { what, value }] of REQUOTED_HANDLERS.entries()) {
          const media = MEDIA[i % MEDIA.length]!;
          mustHoldNoActiveMarkup(
            activeRefused.customTextPutHtmlRestricted,
            await putAs(api, id, media, { [config.customTextKey]: value }),
            config.customTextKey,
            `${what} (${JSON.stringify(value)}), inert as sent, sent ${media}`,
          );
        }
      });
    },
  );

  const startTags = declareRules('custom-text.put.html.restricted');
  test(
    'should never store an active element whatever form its start tag takes: every element beyond styling and hyperlinks, its start tag carrying an attribute, carrying one after a solidus, and with white space before its end (HTML 13.2.5: the same element)',
    startTags,
    async ({ api, config }) => {
      const id = profile(config);
      const all = activeElementStartTags();
      // Every element in every form against the embedded emulator; against an external target, within its
      // pacing, every element in one form, the forms taken in turn.
      const sent = config.embedded
        ? all
        : all.filter(
            (_, i) => Math.floor(i / START_TAG_FORMS.length) % START_TAG_FORMS.length === i % START_TAG_FORMS.length,
          );
      await withCustomTextRestored(api, id, async () => {
        for (const [i, { what, value }] of sent.entries()) {
          const media = MEDIA[i % MEDIA.length]!;
          mustHoldNoActiveMarkup(
            startTags.customTextPutHtmlRestricted,
            await putAs(api, id, media, { [config.customTextKey]: value }),
            config.customTextKey,
            `${what} (${JSON.stringify(value)}), sent ${media}`,
          );
        }
      });
    },
  );

  const emptyMap = declareRules('custom-text.put.resulting-map', 'custom-text.put.json', 'custom-text.put.status');
  test(
    'should answer a PUT of the empty map as its own PUTs go: the empty map where a PUT replaces the stored map, the stored map where it merges into it (relation)',
    emptyMap,
    async ({ api, config }) => {
      const id = profile(config);
      await withCustomTextRestored(api, id, async () => {
        // Whether a PUT replaces the map or merges into it is the target's (the document says "set"): learnt
        // from two PUTs of different keys, the second answering the first key (merge) or not (replace).
        const [first, second] = await severalKeys(api, id, config);
        mustSucceed(emptyMap.customTextPutJson, await put(api, id, { [first!]: 'Set first.' }));
        const after = await put(api, id, { [second!]: 'Set second.' });
        mustSucceed(emptyMap.customTextPutJson, after);
        const kept = answered(after, first!);
        const merges = sameText(kept, 'Set first.');
        if (!merges && kept !== undefined) return; // neither reading: the resulting-map checks decide it
        const empty = await put(api, id, {});
        if (!is2xx(empty)) {
          observe('custom-text.put.status', 'the empty map {} answered', String(empty.status));
          return;
        }
        const got = Object.keys((empty.json ?? {}) as Record<string, unknown>).sort();
        const expected = merges ? Object.keys((after.json ?? {}) as Record<string, unknown>).sort() : [];
        must(emptyMap.customTextPutResultingMap, JSON.stringify(got) === JSON.stringify(expected), {
          expected: merges
            ? `the stored map, as the PUT before answered it (keys ${expected.join(', ')}): this target merges a PUT into the stored map, and {} adds nothing`
            : 'the empty map: this target replaces the stored map with the one sent (the PUT of ' +
              `${second} answered without ${first}), and {} is the map sent`,
          actual: `keys ${got.join(', ') || '(none)'}`,
          exchange: empty,
        });
      });
    },
  );

  // ------------------------------------------------ maps of several keys
  // Each per-value rule holds for each value of a map, at every position of it (first, middle, last), not
  // only for a map of one key: a check of the first value only, or of the values together, misses it.

  const mapLimit = declareRules('custom-text.put.value.max-length', 'custom-text.put.resulting-map');
  test(
    'should hold each value of a map of several keys to 2000 characters on its own, at every position (first, middle, last): 2000 there taken and answered, 2000 in every value at once taken, 2001 there refused',
    mapLimit,
    async ({ api, config }) => {
      const id = profile(config);
      await withCustomTextRestored(api, id, async () => {
        const keys = await severalKeys(api, id, config);
        const fill = (k: string, n: number) => FILL[keys.indexOf(k) % FILL.length]!.repeat(n);
        const short = (k: string) => `Plain text of ${k}.`;
        const taken = async (map: Record<string, string>, what: string) => {
          const ex = await put(api, id, map);
          must(mapLimit.customTextPutValueMaxLength, is2xx(ex), {
            expected: `a 2xx: ${what}; each value is within at most 2000 characters`,
            actual: `status ${ex.status}`,
            exchange: ex,
          });
          const wrong = Object.keys(map).filter((k) => !sameText(answered(ex, k), map[k]!));
          must(mapLimit.customTextPutResultingMap, wrong.length === 0, {
            expected: `each key answered with the value sent (${what})`,
            actual: wrong
              .map((k) => `${k}: ${JSON.stringify(answered(ex, k))?.slice(0, 60) ?? 'left out of the answer'}`)
              .join('; '),
            exchange: ex,
          });
        };
        const positions = mapPositions(keys.length);
        for (const p of positions)
          await taken(
            mapWith(keys, p.index, fill(keys[p.index]!, 2000), short) as Record<string, string>,
            `2000 characters in the ${p.what} of ${keys.length} values, the others short`,
          );
        await taken(
          Object.fromEntries(keys.map((k) => [k, fill(k, 2000)])),
          `2000 characters in each of ${keys.length} values (${2000 * keys.length} together)`,
        );
        for (const p of positions)
          mustRefuse(
            mapLimit.customTextPutValueMaxLength,
            await put(api, id, Object.fromEntries(keys.map((k, i) => [k, fill(k, i === p.index ? 2001 : 2000)]))),
            `2001 characters in the ${p.what} of ${keys.length} values, the others at 2000`,
          );
      });
    },
  );

  const mapHtml = declareRules('custom-text.put.html.basic-allowed', 'custom-text.put.html.restricted');
  test(
    'should hold each value of a map of several keys to the HTML policy, at every position (first, middle, last): basic styling and hyperlinks there taken, active markup there refused or stored without it (property)',
    mapHtml,
    async ({ api, config }) => {
      const id = profile(config);
      await withCustomTextRestored(api, id, async () => {
        const keys = await severalKeys(api, id, config);
        // Every position on every run; the markup there is drawn, the other values plain text or basic markup.
        const grid = fc.tuple(
          ...mapPositions(keys.length).map((p) =>
            fc.record({ p: fc.constant(p), active: activeMarkup, basic: basicMarkup, plain: fc.boolean() }),
          ),
        );
        await fc.assert(
          fc.asyncProperty(grid, async (cases) => {
            for (const { p, active, basic, plain } of cases) {
              const other = (k: string) => (plain ? `Plain text of ${k}.` : `<b>Bold</b> text of ${k}.`);
              const where = `the ${p.what} of ${keys.length} values (${keys.join(', ')})`;
              const ok = await put(api, id, mapWith(keys, p.index, basic, other) as Record<string, string>);
              must(mapHtml.customTextPutHtmlBasicAllowed, is2xx(ok), {
                expected: `a 2xx: basic styling and hyperlinks in ${where}`,
                actual: `status ${ok.status}`,
                exchange: ok,
              });
              const ex = await put(api, id, mapWith(keys, p.index, active, other) as Record<string, string>);
              const refused = ex.status >= 400 && ex.status < 500;
              const map = ex.json && typeof ex.json === 'object' && !Array.isArray(ex.json) ? ex.json : undefined;
              // Every value of the answer, not only the one sent with the markup: none holds active content.
              const left = map
                ? Object.entries(map)
                    .map(([k, v]) =>
                      typeof v === 'string' && activeContent(v) ? `${k} holds ${activeContent(v)}` : '',
                    )
                    .filter(Boolean)
                : ['no map answered'];
              must(mapHtml.customTextPutHtmlRestricted, refused || (is2xx(ex) && left.length === 0), {
                expected: `active markup in ${where}: a 4xx, or a resulting map holding only basic styling and hyperlinks`,
                actual: `status ${ex.status}${refused ? '' : `; ${left.join('; ')}`}`,
                exchange: ex,
              });
            }
          }),
          fcParams(config, 4),
        );
      });
    },
  );

  const mapTypes = declareRules('custom-text.put.value.type', 'custom-text.put.json');
  test(
    'should refuse a value in every other JSON type (RFC 8259 3) at every position of a map of several keys (first, middle, last), and store nothing of that map: the map set before stays',
    mapTypes,
    async ({ api, config }) => {
      const id = profile(config);
      await withCustomTextRestored(api, id, async (readable) => {
        const keys = await severalKeys(api, id, config);
        const before = Object.fromEntries(keys.map((k) => [k, `Set before the refused ones (${k}).`]));
        mustSucceed(mapTypes.customTextPutJson, await put(api, id, before));
        const types = otherJsonTypes('Conformance text');
        // Every type at every position; against an external target two types a position, in turn.
        const cases = mapPositions(keys.length).flatMap((p, i) =>
          (config.embedded ? types : [types[(2 * i) % types.length]!, types[(2 * i + 1) % types.length]!]).map((t) => ({
            p,
            t,
          })),
        );
        for (const { p, t } of cases)
          mustRefuse(
            mapTypes.customTextPutValueType,
            await api.put(customTextPath(id), {
              json: mapWith(keys, p.index, t.value, (k) => `Sent beside a value that is not a string (${k}).`),
            }),
            `text values are strings; sent ${t.what} (${JSON.stringify(t.value)}) in the ${p.what} of ${keys.length} values`,
          );
        // Read back as the snapshot reads it (GET is not shown: judged only where it is offered).
        if (!readable) return;
        const back = await api.get(customTextPath(id));
        const changed = keys.filter((k) => !sameText(answered(back, k), before[k]!));
        must(mapTypes.customTextPutValueType, changed.length === 0, {
          expected: `each of ${keys.join(', ')} as set before the refused PUTs`,
          actual: changed.map((k) => `${k}: ${JSON.stringify(answered(back, k))?.slice(0, 80)}`).join('; '),
          exchange: back,
        });
      });
    },
  );

  const keySpellings = declareRules('custom-text.put.resulting-map');
  test(
    'should answer each text key sent under its own spelling, mapped to the value sent, whatever the key holds around a separator: an underscore, a hyphen or a dot before a letter or a digit, capitals, a separator first, last or doubled, separators mixed, a key beside its camelCase or snake_case spelling (partition of key spellings; judged where taken)',
    keySpellings,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      await withCustomTextRestored(api, id, async () => {
        for (const { what, keys } of TEXT_KEY_SPELLINGS) {
          // Each value names its key: a value answered under another key is told from one left out.
          const map: Record<string, string> = { [key]: `Sent beside ${what}.` };
          for (const k of keys) map[k] = `Text of ${k}`;
          const ex = await put(api, id, map);
          // The allowed text keys are not shown: a map refused for a key is observed, never failed.
          observe('custom-text.put.keys', `a key with ${what} beside ${key} answered`, String(ex.status));
          if (!is2xx(ex)) continue;
          const got = (ex.json ?? {}) as Record<string, unknown>;
          const wrong = Object.entries(map).flatMap(([k, v]) => {
            if (sameText(got[k], v)) return [];
            if (got[k] !== undefined) return [`${k} answered ${JSON.stringify(got[k])?.slice(0, 60)}`];
            const under = Object.keys(got).filter((o) => !(o in map) && sameText(got[o], v));
            if (under.length) return [`${k} left out, its value answered under ${under.join(', ')}`];
            observe('custom-text.put.keys', `a key with ${what}, taken`, 'answered without it');
            return [];
          });
          must(keySpellings.customTextPutResultingMap, wrong.length === 0, {
            expected: `each key sent under its own spelling (${Object.keys(map).join(', ')}; ${what}), mapped to the value sent: JSON member names are compared exactly (RFC 8259 8.3)`,
            actual: wrong.join('; '),
            exchange: ex,
          });
        }
      });
    },
  );

  const memberKeys = declareRules('custom-text.put.resulting-map');
  test(
    'should answer and store each text key named like a member of Object.prototype (constructor, hasOwnProperty, isPrototypeOf, propertyIsEnumerable, toLocaleString, toString, valueOf, the __defineGetter__ family), and each key a document store, a query language or a framework treats specially ($ first or inside, a dot, a slash, a hash, brackets, _ or @ first, a colon, a control character, a character beyond the BMP, white space around it), under its own spelling, mapped to the value sent, as it does a plain key beside it; or refuse the map (partition of key names, RFC 8259 4; __proto__ observed)',
    memberKeys,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      /** The value of a map's own member `k`: a key left out is never read through the prototype (toString, …). */
      const own = (map: unknown, k: string) =>
        map && typeof map === 'object' && Object.hasOwn(map, k) ? (map as Record<string, unknown>)[k] : undefined;
      let taken = 0;
      await withCustomTextRestored(api, id, async (readable) => {
        // Each special key beside a control spelt from it in plain letters and underscores, which no list of known
        // keys holds unless it holds any: where the control is kept, the special key is a key the server keeps too.
        const special = [
          ...PROTOTYPE_MEMBER_KEYS.map((k) => ({ what: 'named like a member of Object.prototype', ...k })),
          ...STORE_SPECIAL_TEXT_KEYS.map((k) => ({ ...k, what: `with ${k.what}` })),
        ];
        for (const { what, key: member, control } of special) {
          // Object.fromEntries defines own members: no key sets a prototype. Each value names its key.
          const map: Record<string, string> = Object.fromEntries([
            [key, `Sent beside ${member}.`],
            [member, `Text of ${member}`],
            [control, `Text of ${control}`],
          ]);
          const ex = await put(api, id, map);
          // The allowed text keys are not shown: a map refused is observed, never failed; a server error is no refusal.
          observe(
            'custom-text.put.keys',
            `the key ${JSON.stringify(member)} beside ${control} and ${key} answered`,
            String(ex.status),
          );
          must(memberKeys.customTextPutResultingMap, ex.status < 500, {
            expected: `the key ${JSON.stringify(member)} (a JSON member name like any other): taken, or the map refused with a 4xx`,
            actual: `status ${ex.status}`,
            exchange: ex,
          });
          if (!is2xx(ex)) continue;
          const got = own(ex.json, member);
          const controlKept = sameText(own(ex.json, control), map[control]!);
          if (got === undefined && !controlKept) {
            // Neither kept: a server that keeps only the keys it knows; the map's keys are the server's to choose.
            observe(
              'custom-text.put.keys',
              `the key ${JSON.stringify(member)} beside ${control}, taken`,
              'answered without either',
            );
            continue;
          }
          taken++;
          must(memberKeys.customTextPutResultingMap, sameText(got, map[member]!), {
            expected: `${JSON.stringify(member)} (a key ${what}): ${JSON.stringify(map[member])}, answered under its own spelling as ${control} beside it is${controlKept ? '' : ' not'} (a member name is any string, RFC 8259 4; compared exactly, 8.3)`,
            actual: `${JSON.stringify(member)}: ${got === undefined ? 'left out' : JSON.stringify(got)?.slice(0, 60)}; ${control}: ${JSON.stringify(own(ex.json, control))?.slice(0, 60) ?? 'left out'}`,
            exchange: ex,
          });
          // Read back as the snapshot reads it (GET is not shown: judged only where it is offered).
          if (!readable) continue;
          const back = await api.get(customTextPath(id));
          must(memberKeys.customTextPutResultingMap, sameText(own(back.json, member), map[member]!), {
            expected: `${JSON.stringify(member)} read back: ${JSON.stringify(map[member])}, as answered to the PUT`,
            actual: `${JSON.stringify(member)}: ${JSON.stringify(own(back.json, member))?.slice(0, 60) ?? 'left out'}`,
            exchange: back,
          });
        }
        // __proto__: refused as prototype poisoning by some parsers, which the document leaves open: its answer is
        // observed, and only a server error fails.
        const proto = await api.put(customTextPath(id), {
          body: `{${JSON.stringify(key)}:"Sent beside ${PROTO_KEY}.",${JSON.stringify(PROTO_KEY)}:"Text of ${PROTO_KEY}"}`,
          contentType: 'application/json',
        });
        must(memberKeys.customTextPutResultingMap, proto.status < 500, {
          expected: `the key ${PROTO_KEY}: taken, or the map refused with a 4xx (which the document leaves open)`,
          actual: `status ${proto.status}`,
          exchange: proto,
        });
        observe(
          'custom-text.put.keys',
          `the key ${PROTO_KEY} beside ${key} answered`,
          is2xx(proto)
            ? own(proto.json, PROTO_KEY) === `Text of ${PROTO_KEY}`
              ? 'taken, answered under its own spelling'
              : 'taken, answered without it'
            : String(proto.status),
        );
        test.skip(
          taken === 0,
          `No key named like a member of Object.prototype or treated specially by a store, nor the key beside it, is kept by the target (${special.map((k) => JSON.stringify(k.key)).join(', ')}): the allowed text keys are not shown`,
        );
      });
    },
  );

  const framed = declareRules('custom-text.put.json', 'custom-text.put.form', 'custom-text.put.resulting-map');
  test(
    'should read custom text sent with Transfer-Encoding: chunked (RFC 9112 6.1, 7.1: in one chunk, in two halves, a chunk per byte, cutting inside UTF-8 sequences), as JSON and form-encoded, as the same map sent with Content-Length: the same verdict, and the text sent answered and stored; or refuse it 411 Length Required (RFC 9110 15.5.12) (partition of message framing)',
    framed,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      await withCustomTextRestored(api, id, async (readable) => {
        for (const media of MEDIA)
          for (const [i, framing] of CHUNKED_FRAMINGS.entries()) {
            // A value of its own each way (letters beyond ASCII, a character beyond the BMP), so that what is
            // stored tells which PUT it came from.
            const sizedMap = { [key]: `Envoyé avec Content-Length, ${i} (${media}) ✂` };
            const chunkedMap = { [key]: `Envoyé par morceaux, ${i} (${media}) ✂ 🎉` };
            const encode = (map: Record<string, string>) =>
              media === 'json' ? JSON.stringify(map) : new URLSearchParams(map).toString();
            const contentType = media === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
            const rule = media === 'json' ? framed.customTextPutJson : framed.customTextPutForm;
            const sized = await putAs(api, id, media, sizedMap);
            const ex = await sendChunked(api, 'PUT', customTextPath(id), encode(chunkedMap), contentType, framing);
            if (ex.status === LENGTH_REQUIRED) {
              observe('custom-text.put.status', `custom text sent ${framing.what} answered`, String(ex.status));
              continue;
            }
            must(rule, is2xx(ex) === is2xx(sized), {
              expected: `the verdict the same map sent ${media} with Content-Length gets (${sized.status}): RFC 9112 7.1, "A recipient MUST be able to parse the chunked transfer coding"; or 411 Length Required`,
              actual: `status ${ex.status} to it sent ${framing.what}`,
              exchange: ex,
            });
            if (!is2xx(ex) || !sameText(answered(sized, key), sizedMap[key]!)) continue;
            must(framed.customTextPutResultingMap, sameText(answered(ex, key), chunkedMap[key]!), {
              expected: `${key}: ${JSON.stringify(chunkedMap[key])}, as sent ${media}, ${framing.what}`,
              actual: `${key}: ${JSON.stringify(answered(ex, key))}`,
              exchange: ex,
            });
            // Read back as the snapshot reads it (GET is not shown: judged only where it is offered).
            if (!readable) continue;
            const back = await api.get(customTextPath(id));
            must(framed.customTextPutResultingMap, sameText(answered(back, key), chunkedMap[key]!), {
              expected: `${key} read back: ${JSON.stringify(chunkedMap[key])}, as sent ${media}, ${framing.what}`,
              actual: `${key}: ${JSON.stringify(answered(back, key))}`,
              exchange: back,
            });
          }
      });
    },
  );

  const sameMap = declareRules('custom-text.put.form');
  test(
    'should take form-encoded a map it takes as JSON, and answer the same resulting map, whatever its keys hold: upper-case letters, a dot, two dots, a hyphen, an underscore, non-ASCII letters (relation)',
    sameMap,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      await withCustomTextRestored(api, id, async () => {
        const related: string[] = [];
        for (const { what, key: other } of TEXT_KEY_PARTITIONS) {
          // Other values each way: the form answer is the JSON one with the values sent form-encoded in place
          // (whether the PUT replaces the map or merges into it, the keys not sent are answered alike).
          const asJson = { [key]: `Sent as JSON beside a key with ${what}.`, [other]: 'Hi (JSON)' };
          const asForm = { [key]: `Sent form-encoded beside a key with ${what}.`, [other]: 'Hi (form)' };
          const first = await putAs(api, id, 'json', asJson);
          // Which keys the target takes is not shown: a key refused as JSON (or dropped) is observed, never failed.
          if (!is2xx(first) || !Object.keys(asJson).every((k) => answered(first, k) === asJson[k])) {
            observe(
              'custom-text.put.keys',
              `a key with ${what} sent as JSON answered`,
              is2xx(first) ? 'taken, answered without the values sent' : String(first.status),
            );
            continue;
          }
          related.push(what);
          const ex = await putAs(api, id, 'form', asForm);
          must(sameMap.customTextPutForm, is2xx(ex), {
            expected: `a 2xx: the same keys (${JSON.stringify(other)}, holding ${what}) were taken as JSON (status ${first.status})`,
            actual: `status ${ex.status}`,
            exchange: ex,
          });
          const expected: Record<string, unknown> = { ...(first.json as Record<string, unknown>), ...asForm };
          const got = (ex.json ?? {}) as Record<string, unknown>;
          const differ = [...new Set([...Object.keys(expected), ...Object.keys(got)])].filter(
            (k) => got[k] !== expected[k],
          );
          must(sameMap.customTextPutForm, differ.length === 0, {
            expected: `the map answered to the JSON PUT, with the values sent form-encoded in place (keys ${Object.keys(expected).join(', ')})`,
            actual: differ
              .map(
                (k) =>
                  `${k}: ${JSON.stringify(got[k])?.slice(0, 60) ?? 'left out'}, not ${JSON.stringify(expected[k])?.slice(0, 60) ?? 'absent'}`,
              )
              .join('; '),
            exchange: ex,
          });
        }
        test.skip(
          related.length === 0,
          `No key of the partitions (${TEXT_KEY_PARTITIONS.map((k) => k.key).join(', ')}) is taken as JSON beside ${key}: the allowed text keys are not shown, so the two content types cannot be related`,
        );
      });
    },
  );

  const pathEnums = declareRules('custom-text.put.language.enum', 'custom-text.put.page.enum', 'custom-text.put.json');
  test(
    'should refuse every near miss of the language en and the page get-started as a path segment, each class on every run (near spellings: case, padding, invisible characters, cut, doubled, look-alike letters, separators; a format extension such as .json or .html, a matrix parameter, a prefix, an encoded ? or #), and each near miss drawn, alone or right after a success of the same body at en/get-started (partition of path segments; property; relation: the state before the request)',
    pathEnums,
    async ({ api, config }) => {
      const id = profile(config);
      const canonical = customTextPath(id);
      /** The path with `segments` (already encoded) in place of en/get-started. */
      const at = (segments: string) => canonical.replace(/\/en\/get-started$/, `/${segments}`);
      const rule = (part: 'language' | 'page') =>
        part === 'language' ? pathEnums.customTextPutLanguageEnum : pathEnums.customTextPutPageEnum;
      // Each near miss as sent (RFC 3986 3.3: each is another segment, so neither en nor get-started).
      const grid = [
        ...nearPathSegments('en').map((v) => ({ part: 'language' as const, ...v, segments: `${v.raw}/get-started` })),
        ...nearPathSegments('get-started').map((v) => ({ part: 'page' as const, ...v, segments: `en/${v.raw}` })),
      ];
      // Against an external target one of each class for each part (the request budget of a run with writes).
      const chosen = config.embedded
        ? grid
        : grid.filter((v, i, all) => all.findIndex((w) => w.part === v.part && w.kind === v.kind) === i);
      const drawn = (part: 'language' | 'page', value: string) => ({
        part,
        what: `the near miss ${JSON.stringify(value)}`,
        segments: part === 'language' ? `${encodeURIComponent(value)}/get-started` : `en/${encodeURIComponent(value)}`,
      });
      const cases = fc.record({
        path: fc.oneof(
          nearMisses('en').map((language) => drawn('language', language)),
          nearMisses('get-started').map((page) => drawn('page', page)),
          fc.constantFrom(...grid),
        ),
        afterSuccess: fc.boolean(),
      });
      // When the same body was last taken at en/get-started (earlier runs' successes are the state of later ones too).
      let takenAt: number | undefined;
      await withCustomTextRestored(api, id, async () => {
        const body = { [config.customTextKey]: 'x' };
        for (const v of chosen)
          mustRefuse(
            rule(v.part),
            await api.put(at(v.segments), { json: body }),
            `the ${v.part} with ${v.what}, sent as .../custom-text/${v.segments}: only en and get-started are allowed`,
          );
        await fc.assert(
          fc.asyncProperty(cases, async ({ path: { part, what, segments }, afterSuccess }) => {
            if (afterSuccess) {
              mustSucceed(pathEnums.customTextPutJson, await put(api, id, body));
              takenAt = Date.now();
            }
            const ex = await api.put(at(segments), { json: body });
            const state =
              takenAt === undefined
                ? ''
                : `; the same body was taken at en/get-started ${Date.now() - takenAt} ms before`;
            mustRefuse(
              rule(part),
              ex,
              `the ${part} with ${what}, sent as .../custom-text/${segments}: only en and get-started are allowed${state}`,
            );
          }),
          fcParams(config, 15),
        );
      });
    },
  );

  const mediaSpellings = declareRules('custom-text.put.json', 'custom-text.put.form');
  test(
    'should take both media types in every spelling RFC 9110 makes the same (case, charset parameter)',
    mediaSpellings,
    async ({ api, config }) => {
      const id = profile(config);
      const key = config.customTextKey;
      const cases = fc.oneof(
        mediaTypeSpellings('application/json').map((type) => ({ type, json: true })),
        mediaTypeSpellings('application/x-www-form-urlencoded').map((type) => ({ type, json: false })),
      );
      await withCustomTextRestored(api, id, async () => {
        await fc.assert(
          fc.asyncProperty(cases, async ({ type, json }) => {
            const value = `Spelt ${type}`;
            const ex = await api.put(customTextPath(id), {
              body: json ? JSON.stringify({ [key]: value }) : new URLSearchParams({ [key]: value }).toString(),
              contentType: type,
            });
            must(
              json ? mediaSpellings.customTextPutJson : mediaSpellings.customTextPutForm,
              ex.status >= 200 && ex.status < 300 && answered(ex, key) === value,
              {
                expected: `a 2xx answering ${key}: ${JSON.stringify(value)} (Content-Type ${type} is ${json ? 'application/json' : 'application/x-www-form-urlencoded'})`,
                actual: `status ${ex.status}, ${key}: ${JSON.stringify(answered(ex, key))}`,
                exchange: ex,
              },
            );
          }),
          fcParams(config, 8),
        );
      });
    },
  );

  // Another language, another case, a region, and en in ISO 639-2's three letters (eng): the path names en alone.
  // Each in two states before the request: alone, and right after a success of the same body at en (a guard that
  // answers a repeated body with the last answer, keyed without the path, answers the refused path that success).
  for (const language of ['fr', 'EN', 'en-US', 'eng']) {
    const languageEnum = declareRules(
      'custom-text.put.language.enum',
      'custom-text.put.json',
      'http.json-error-bodies',
    );
    test(
      `should refuse the language ${language}, alone and right after a success of the same body at en (relation: the state before the request)`,
      languageEnum,
      async ({ api, config }) => {
        const id = profile(config);
        await withCustomTextRestored(api, id, async () => {
          const body = { [config.customTextKey]: 'x' };
          const ex = await put(api, id, body, language);
          mustRefuse(languageEnum.customTextPutLanguageEnum, ex, 'language allows only en');
          mustBeJsonErrorBody(languageEnum, ex);
          mustSucceed(languageEnum.customTextPutJson, await put(api, id, body));
          const after = await put(api, id, body, language);
          mustRefuse(
            languageEnum.customTextPutLanguageEnum,
            after,
            `language allows only en; sent right after the same body was taken at en/get-started`,
          );
          mustBeJsonErrorBody(languageEnum, after);
        });
      },
    );
  }

  for (const [title, body] of notAnObject({ introduction: 'x' })) {
    const notObject = declareRules('custom-text.put.value.type');
    test(`should refuse a body that is not an object: ${title}`, notObject, async ({ api, config }) => {
      const id = profile(config);
      await withCustomTextRestored(api, id, async () => {
        const ex = await api.put(customTextPath(id), { json: body });
        mustRefuse(notObject.customTextPutValueType, ex, 'the body is an object of string keys to string values');
      });
    });
  }

  for (const [title, value] of [
    ['a number', 42],
    ['a boolean', true],
    ['null', null],
    ['an object', { text: 'x' }],
    ['an array', ['x']],
  ] as const) {
    const type = declareRules('custom-text.put.value.type');
    test(`should refuse ${title} as a text value`, type, async ({ api, config }) => {
      const id = profile(config);
      await withCustomTextRestored(api, id, async () => {
        const ex = await api.put(customTextPath(id), { json: { [config.customTextKey]: value } });
        mustRefuse(type.customTextPutValueType, ex, `text values are strings; sent ${JSON.stringify(value)}`);
      });
    });
  }

  const jsonRequestBodies = declareRules('http.json-request-bodies', 'http.json-error-bodies');
  test(
    'should refuse a body sent as JSON that is not JSON, a valid map with more around it included (RFC 8259 2)',
    jsonRequestBodies,
    async ({ api, config }) => {
      const id = profile(config);
      await withCustomTextRestored(api, id, async () => {
        const valid = JSON.stringify({ [config.customTextKey]: 'conformance not a JSON text' });
        await mustRefuseNotJson(
          jsonRequestBodies,
          (body) => api.put(customTextPath(id), { body, contentType: 'application/json' }),
          [{ what: 'a valid map', text: valid }],
        );
      });
    },
  );

  // Each in the two states before the request of the languages' checks: alone, and right after a success of the same body.
  for (const page of ['login', 'Get-Started', 'get_started']) {
    const pageEnum = declareRules('custom-text.put.page.enum', 'custom-text.put.json');
    test(
      `should refuse the page ${page}, alone and right after a success of the same body at get-started (relation: the state before the request)`,
      pageEnum,
      async ({ api, config }) => {
        const id = profile(config);
        await withCustomTextRestored(api, id, async () => {
          const body = { [config.customTextKey]: 'x' };
          mustRefuse(
            pageEnum.customTextPutPageEnum,
            await put(api, id, body, 'en', page),
            'page allows only get-started',
          );
          mustSucceed(pageEnum.customTextPutJson, await put(api, id, body));
          mustRefuse(
            pageEnum.customTextPutPageEnum,
            await put(api, id, body, 'en', page),
            'page allows only get-started; sent right after the same body was taken at en/get-started',
          );
        });
      },
    );
  }

  const basicAllowed = declareRules('custom-text.put.html.basic-allowed');
  test(
    'should accept basic styling tags and a hyperlink, to each kind of URL a hyperlink has (https, http, mailto) and each component RFC 3986 gives it (path, query with & and =, & written as &amp;, fragment, port, percent-encoded octets)',
    basicAllowed,
    async ({ api, config }) => {
      const id = profile(config);
      await withCustomTextRestored(api, id, async () => {
        for (const { what, url } of HYPERLINK_URLS) {
          const html = `<b>Bold</b>, <i>italic</i> and <a href="${url}">a link</a> (${what}).`;
          mustSucceed(basicAllowed.customTextPutHtmlBasicAllowed, await put(api, id, { [config.customTextKey]: html }));
        }
      });
    },
  );

  const laidOut = declareRules('custom-text.put.html.basic-allowed');
  test(
    "should accept basic markup written over lines: a line feed, CRLF or a tab inside an element's text, between elements, between a tag's name and its attribute, before a start tag's > (HTML 13.1.2: ASCII whitespace)",
    laidOut,
    async ({ api, config }) => {
      const id = profile(config);
      await withCustomTextRestored(api, id, async () => {
        // Against an external target, a line feed at each place (the request budget of a run with writes).
        const spaces = config.embedded ? MARKUP_WHITE_SPACE : MARKUP_WHITE_SPACE.slice(0, 1);
        for (const { where, at } of MARKUP_LAYOUTS)
          for (const ws of spaces) {
            const ex = await put(api, id, { [config.customTextKey]: at(ws.value) });
            must(laidOut.customTextPutHtmlBasicAllowed, ex.status >= 200 && ex.status < 300, {
              expected: `a 2xx: basic markup with ${ws.what} ${where} is basic markup still`,
              actual: `status ${ex.status}`,
              exchange: ex,
            });
          }
      });
    },
  );

  const restricted = declareRules('custom-text.put.html.restricted');
  test('should not store a script element as given', restricted, async ({ api, config }) => {
    const id = profile(config);
    await withCustomTextRestored(api, id, async () => {
      const value = 'Hello<script>alert(1)</script>';
      const ex = await put(api, id, { [config.customTextKey]: value });
      const stored = (ex.json as Record<string, unknown> | undefined)?.[config.customTextKey];
      const refused = ex.status >= 400 && ex.status < 500;
      const sanitised = ex.status >= 200 && ex.status < 300 && typeof stored === 'string' && !/<script/i.test(stored);
      must(restricted.customTextPutHtmlRestricted, refused || sanitised, {
        expected: 'a 4xx, or a stored value without the script element',
        actual: `status ${ex.status}, stored ${JSON.stringify(stored)?.slice(0, 120)}`,
        exchange: ex,
      });
    });
  });
});

const restoringText: Parameters<typeof authChecks>[2] = {
  around: (api, c, fn) => (c.selfServiceProfileId ? withCustomTextRestored(api, c.selfServiceProfileId, fn) : fn()),
};
authChecks(
  'custom-text.put',
  (api, c, auth) =>
    api.put(customTextPath(c.selfServiceProfileId ?? 'conformance-profile'), {
      auth,
      json: { [c.customTextKey]: 'conformance' },
    }),
  restoringText,
);
// The other request content type the document names: each is guarded alike.
authChecks(
  'custom-text.put',
  (api, c, auth) =>
    api.put(customTextPath(c.selfServiceProfileId ?? 'conformance-profile'), {
      auth,
      body: new URLSearchParams({ [c.customTextKey]: 'conformance' }).toString(),
      contentType: 'application/x-www-form-urlencoded',
    }),
  { ...restoringText, body: 'a form-encoded body' },
);
