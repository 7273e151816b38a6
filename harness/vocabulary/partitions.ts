/**
 * Input partitions derived from the standards that define an input's type,
 * as fast-check arbitraries: the checks draw their values from these rather
 * than from the first value that comes to mind.
 *
 * - Unicode "characters" (the document's limits count characters): code
 *   points, by how each encoding counts them differently (ASCII: one byte;
 *   Latin-1: two UTF-8 bytes; the rest of the Basic Multilingual Plane: three;
 *   outside it: four UTF-8 bytes and two UTF-16 code units; a base letter with
 *   a combining mark: two code points, one grapheme).
 * - HTML (the OWASP XSS prevention cheat sheet): markup that is not "basic
 *   styling tags and hyperlinks": script-bearing elements, event-handler
 *   attributes, script URLs, in the spellings a naive filter misses.
 */
import { parseFragment, type DefaultTreeAdapterTypes } from 'parse5';
import { exportJWK, generateKeyPair, type GenerateKeyPairResult } from 'jose';
import { fc } from './properties.ts';

const cp = (from: number, to: number) => fc.integer({ min: from, max: to }).map((c) => String.fromCodePoint(c));

/** Printable ASCII but the characters that make markup (< > & " '), so that a value stays plain text. */
const ASCII = fc.constantFrom(
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?-_()[]{}#%+=/@*~^|$',
);

/** Every code point of `ranges` whose general category matches `category`. */
const codePointsOf = (category: RegExp, ranges: ReadonlyArray<readonly [number, number]>) =>
  ranges.flatMap(([from, to]) =>
    Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)).filter((c) => category.test(c)),
  );

/**
 * The format characters (general category Cf) of the planes text uses: U+00AD, U+061C, U+180E, U+200B..U+200F,
 * U+202A..U+202E, U+2060..U+2064, U+2066..U+206F, U+FEFF, U+FFF9..U+FFFB, the tags U+E0001, U+E0020..U+E007F
 * and the others. A server removing "invisible" characters removes characters of the value.
 */
export const FORMAT_CHARACTERS: readonly string[] = codePointsOf(/^\p{Cf}$/u, [
  [0x00a0, 0x2ffff],
  [0xe0000, 0xe007f],
]);

/** The combining marks (general category M) of the blocks of them: diacritical marks, extended, supplement, for symbols, half marks. */
const COMBINING_MARKS: readonly string[] = codePointsOf(/^\p{M}$/u, [
  [0x0300, 0x036f],
  [0x1ab0, 0x1aff],
  [0x1dc0, 0x1dff],
  [0x20d0, 0x20ff],
  [0xfe20, 0xfe2f],
]);

/** An assigned character that is neither a control nor a surrogate nor a noncharacter, and makes no markup. */
const ANY_CHARACTER = /^[^\p{Cc}\p{Cs}\p{Cn}<>&"']$/u;

/**
 * Emoji sequences (UTS #51 2): a ZWJ sequence (a family: three people joined by U+200D), a ZWJ sequence with
 * a variation selector (rainbow flag), a flag (two regional indicators), a keycap (digit, U+FE0F, U+20E3), a
 * skin-tone modifier, a tag sequence (the flag of England: U+1F3F4, tag letters, U+E007F).
 */
const EMOJI_SEQUENCES: readonly string[] = [
  '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}',
  '\u{1f3f3}\ufe0f\u200d\u{1f308}',
  '\u{1f1eb}\u{1f1f7}',
  '1\ufe0f\u20e3',
  '\u{1f44b}\u{1f3fd}',
  '\u{1f3f4}\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}',
  '\u{1f469}\u{1f3fd}\u200d\u{1f4bb}',
];

/** Each alphabet: characters counted as one by the document, and as 1 to 4 units by some encoding. */
export const ALPHABETS = {
  ascii: ASCII,
  latin1: cp(0xc0, 0xff),
  bmp: fc.oneof(cp(0x0400, 0x04ff), cp(0x4e00, 0x9fff), cp(0xac00, 0xd7a3)),
  astral: fc.oneof(cp(0x1f300, 0x1f64f), cp(0x20000, 0x2a6df), cp(0x1d400, 0x1d7ff)),
  combining: fc.constantFrom('e\u0301', 'a\u0308', 'n\u0303').map((s) => s),
  // One code point each that NFKC makes several (UAX #15): a server counting the normalised form miscounts.
  compatibility: fc.constantFrom('\ufb01', '\ufb03', '\u2474', '\u00bd', '\u3392', '\u2163'),
  // One code point each whose full case mapping is several (Unicode SpecialCasing.txt): İ lower-cased is i and a
  // combining dot, ß upper-cased SS, ŉ ʼN, ǰ J and a caron, ΐ three, ﬀ FF, և ԵՒ. A server counting a case-folded
  // key (a case-insensitive lookup) miscounts.
  'case mapping': fc.constantFrom('\u0130', '\u00df', '\u0149', '\u01f0', '\u0390', '\ufb00', '\u0587'),
} as const;

/**
 * The alphabets of text values (custom text): those of ALPHABETS and plain
 * text broken over lines (line feeds, CRLF pairs and tabs among ASCII): a
 * line feed is one character and CRLF two, where a line-ending convention
 * (HTML form submission, a store normalising newlines) counts them otherwise.
 */
export const TEXT_ALPHABETS = {
  ...ALPHABETS,
  'line breaks': fc.oneof(
    { arbitrary: ASCII, weight: 2 },
    { arbitrary: fc.constantFrom('\n', '\t', '\r\n'), weight: 1 },
  ),
  // A backslash before each letter a string syntax reads as an escape (JSON's \n \t \r \b \f \u0041 \/ \\, C's
  // \0 \v \x41), among ASCII: two characters of the text each, which a store reading escapes back changes.
  'backslash escapes': fc.oneof(
    { arbitrary: ASCII, weight: 2 },
    {
      arbitrary: fc.constantFrom('\\n', '\\t', '\\r', '\\b', '\\f', '\\u0041', '\\/', '\\\\', '\\0', '\\v', '\\x41'),
      weight: 1,
    },
  ),
  // Format characters (general category Cf: zero-width space, joiners, word joiner, byte-order mark, soft
  // hyphen, bidi controls, tags): characters of the text though they draw nothing, among ASCII letters.
  'format characters': fc.oneof(ASCII, fc.constantFrom(...FORMAT_CHARACTERS)),
  // Emoji sequences (UTS #51): several code points one picture (ZWJ sequences, flags, keycaps, modifiers,
  // tag sequences), each code point a character of the limit.
  'emoji sequences': fc.constantFrom(...EMOJI_SEQUENCES),
  // Variation selectors (U+FE00..U+FE0F, and the ideographic ones U+E0100..U+E01EF) after a base character.
  'variation selectors': fc
    .tuple(
      fc.constantFrom('\u2764', '\u263a', '\u845b', '\u8fbb', 'a'),
      fc.oneof(cp(0xfe00, 0xfe0f), cp(0xe0100, 0xe01ef)),
    )
    .map(([base, selector]) => `${base}${selector}`),
  // A base letter with one to three combining marks (general category M) from every block of them.
  'combining marks': fc
    .tuple(
      fc.constantFrom('a', 'o', 'x', '\u0436', '\u03b1'),
      fc.array(fc.constantFrom(...COMBINING_MARKS), { minLength: 1, maxLength: 3 }),
    )
    .map(([base, marks]) => `${base}${marks.join('')}`),
  // Any assigned character of every plane (private use included), but the controls and noncharacters HTML
  // calls parse errors (CONTROL_CHARACTERS judges those) and the characters that make markup.
  'all of Unicode': fc
    .oneof(
      { arbitrary: cp(0x00a0, 0xffff), weight: 4 },
      { arbitrary: cp(0x10000, 0x3ffff), weight: 2 },
      { arbitrary: cp(0xe0000, 0xe01ef), weight: 1 },
      { arbitrary: cp(0xf0000, 0x10fffd), weight: 1 },
      { arbitrary: ASCII, weight: 2 },
    )
    .filter((c) => ANY_CHARACTER.test(c)),
} as const;

export type AlphabetName = keyof typeof TEXT_ALPHABETS;

/** Code points of a string (what the document's "characters" count). */
export const codePointLength = (s: string) => [...s].length;

/**
 * Plain text of exactly `n` characters (code points) from one alphabet: its
 * first and last characters are ASCII letters, so that a server trimming
 * white space has nothing to trim. For `combining`, a mark counts as one.
 */
export function plainText(alphabet: AlphabetName, n: number): fc.Arbitrary<string> {
  const inner = Math.max(0, n - 2);
  const body = fc
    .array(TEXT_ALPHABETS[alphabet] as fc.Arbitrary<string>, { minLength: inner, maxLength: inner })
    .map((parts) => [...parts.join('')].slice(0, inner).join(''))
    .map((s) => (codePointLength(s) < inner ? s + 'x'.repeat(inner - codePointLength(s)) : s));
  return body.map((s) => (n === 1 ? 'T' : `T${s}${'Z'}`));
}

/**
 * Text with white space where a trimming or collapsing server would change
 * it (Unicode White_Space: ASCII space, tab and line feed, no-break space,
 * ideographic space): before, after, both, doubled inside, and white space
 * alone. Answered as sent, each keeps every one of its code points.
 */
export const WHITE_SPACE_SPELLINGS: ReadonlyArray<{ what: string; value: string }> = [
  { what: 'a leading space', value: ' Welcome' },
  { what: 'a trailing space', value: 'Welcome ' },
  { what: 'a tab before and a line feed after', value: '\tWelcome\n' },
  { what: 'no-break spaces around (U+00A0)', value: '\u00a0Welcome\u00a0' },
  { what: 'an ideographic space before (U+3000)', value: '\u3000Welcome' },
  { what: 'two spaces inside', value: 'Wel  come' },
  { what: 'a single space alone', value: ' ' },
];

/**
 * Spellings Unicode makes canonically or compatibly equivalent (UAX #15), each
 * one that a normalising server would change or that a composed one would be
 * changed into: composed and decomposed letters, marks out of canonical
 * order, a singleton, compatibility characters NFKC folds, Hangul syllables
 * and their conjoining jamo. A string answered as sent keeps each code point
 * for code point (RFC 8259 8.3: JSON strings compare code unit by code unit).
 */
export const UNICODE_SPELLINGS: ReadonlyArray<{ what: string; value: string }> = [
  { what: 'composed (NFC): U+00E9', value: 'caf\u00e9' },
  { what: 'decomposed (NFD): e U+0301', value: 'cafe\u0301' },
  { what: 'combining marks out of canonical order: q U+0307 U+0323', value: 'q\u0307\u0323' },
  { what: 'a singleton NFC replaces: U+212B ANGSTROM SIGN', value: 'x\u212b' },
  { what: 'a compatibility ligature NFKC folds: U+FB01', value: '\ufb01le' },
  { what: 'full-width letters NFKC folds: U+FF21 U+FF22', value: '\uff21\uff22' },
  { what: 'Hangul syllables: U+D55C U+AE00', value: '\ud55c\uae00' },
  { what: 'Hangul conjoining jamo (NFD of the syllables)', value: '\u1112\u1161\u11ab\u1100\u1173\u11af' },
];

/**
 * Characters that draw nothing or nothing of their own, each a partition of
 * what a "character" is beside letters: the format characters a filter of
 * "invisible" characters removes (general category Cf: zero-width space,
 * non-joiner and joiner, word joiner, byte-order mark, soft hyphen, a bidi
 * isolate, a tag character), emoji sequences joined by U+200D or made of
 * several code points (UTS #51), variation selectors (standard and
 * ideographic) and stacked combining marks. Each is a code point of the
 * value: answered as sent, every one of them is there, in its place.
 */
export const FORMAT_SPELLINGS: ReadonlyArray<{ what: string; value: string }> = [
  { what: 'a zero-width space inside a word (U+200B)', value: 'Wel\u200bcome' },
  { what: 'a zero-width non-joiner, as Persian writes (U+200C)', value: '\u0645\u06cc\u200c\u062e\u0648\u0627\u0645' },
  { what: 'a zero-width joiner between letters (U+200D)', value: '\u0915\u094d\u200d\u0937' },
  { what: 'a word joiner (U+2060)', value: 'sign\u2060in' },
  { what: 'a zero-width no-break space inside (U+FEFF)', value: 'a\ufeffb' },
  { what: 'a soft hyphen (U+00AD)', value: 'cus\u00adtom' },
  { what: 'a right-to-left isolate and its end (U+2067, U+2069)', value: 'Hi \u2067\u05e9\u05dc\u05d5\u05dd\u2069!' },
  {
    what: 'a family emoji: a ZWJ sequence (U+1F468 U+200D U+1F469 U+200D U+1F467)',
    value: 'Hi \u{1f468}\u200d\u{1f469}\u200d\u{1f467}',
  },
  { what: 'an emoji with a variation selector (U+2764 U+FE0F)', value: 'I \u2764\ufe0f it' },
  { what: 'an ideographic variation selector (U+845B U+E0100)', value: '\u845b\u{e0100}' },
  { what: 'a keycap sequence (1 U+FE0F U+20E3)', value: 'Step 1\ufe0f\u20e3' },
  {
    what: 'a tag sequence (U+1F3F4 U+E0067 ... U+E007F)',
    value: '\u{1f3f4}\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}',
  },
  { what: 'combining marks stacked on one letter (U+0301 U+0323 U+20DD)', value: 'xa\u0301\u0323\u20ddy' },
];

/**
 * The first and the last character of a text value, where sanitisers and
 * formatters act (partition of a value by its ends): the characters the OWASP
 * CSV Injection cheat sheet names as formula triggers (= + - @, TAB, CR) and
 * their fullwidth forms (U+FF1D U+FF0B U+FF0D U+FF20, which NFKC folds into
 * them), the starts Markdown makes a list, a heading or a quote of (CommonMark
 * 4.2, 5.1, 5.2: "- ", "* ", "# ", "> ", "1. "), the quote characters (' " and
 * a backtick), a backslash, % and &, and a < that starts no tag (HTML
 * 13.2.5.6: not before an ASCII letter, ! / or ?). Each is plain text: a
 * value holding it is mapped to itself. `html` marks the characters HTML
 * gives meaning to, which a sanitiser's serialiser may write as character
 * references (the same text once parsed); `refusable` those a server may
 * refuse: a < before a digit is a parse error (invalid-first-character-of-tag-
 * name), and a lone CR is a control character (CONTROL_CHARACTERS' stance).
 */
export const EDGE_CHARACTERS: ReadonlyArray<{ what: string; text: string; html?: true; refusable?: true }> = [
  { what: 'an equals sign (a formula trigger)', text: '=' },
  { what: 'a plus sign (a formula trigger)', text: '+' },
  { what: 'a hyphen-minus (a formula trigger)', text: '-' },
  { what: 'a commercial at (a formula trigger)', text: '@' },
  { what: 'a tab (a formula trigger)', text: '\t' },
  { what: 'a lone carriage return (a formula trigger)', text: '\r', refusable: true },
  { what: 'a fullwidth equals sign U+FF1D', text: '\uff1d' },
  { what: 'a fullwidth plus sign U+FF0B', text: '\uff0b' },
  { what: 'a fullwidth hyphen-minus U+FF0D', text: '\uff0d' },
  { what: 'a fullwidth commercial at U+FF20', text: '\uff20' },
  { what: 'a Markdown bullet "- "', text: '- ' },
  { what: 'a Markdown bullet "* "', text: '* ' },
  { what: 'a Markdown heading "# "', text: '# ' },
  { what: 'a Markdown block quote "> "', text: '> ', html: true },
  { what: 'a Markdown ordered list "1. "', text: '1. ' },
  { what: 'an apostrophe', text: "'", html: true },
  { what: 'a quotation mark', text: '"', html: true },
  { what: 'a backtick', text: '`' },
  { what: 'a backslash', text: '\\' },
  { what: 'a percent sign', text: '%' },
  { what: 'an ampersand starting no character reference', text: '&', html: true },
  { what: 'a < starting no tag', text: '<', html: true, refusable: true },
];

/**
 * Where EDGE_CHARACTERS go in a value: first, last, and alone (first and last
 * at once). The rest starts with a digit, so that a < before it starts no
 * tag and an & no character reference.
 */
export const EDGE_POSITIONS: ReadonlyArray<{ where: string; at: (text: string) => string }> = [
  { where: 'first', at: (t) => `${t}3 steps to go.` },
  { where: 'last', at: (t) => `3 steps to go.${t}` },
  { where: 'alone', at: (t) => t },
];

/**
 * Characters a value may begin or end with, drawn: any of 'all of Unicode'
 * (TEXT_ALPHABETS), or an EDGE_CHARACTERS text that is neither refusable nor
 * HTML's, so that a value of them is answered as sent.
 */
export const edgeCharacter: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: TEXT_ALPHABETS['all of Unicode'], weight: 3 },
  {
    arbitrary: fc.constantFrom(...EDGE_CHARACTERS.filter((e) => !e.html && !e.refusable).map((e) => e.text)),
    weight: 2,
  },
);

/**
 * The text HTML makes of `value` as an element's content (13.2, by parse5:
 * character references decoded), or undefined where it makes an element or
 * a comment: two values of the same text are one text, however spelt.
 */
export function htmlTextOf(value: string): string | undefined {
  const nodes = parseFragment(value).childNodes;
  if (!nodes.every((n) => n.nodeName === '#text')) return undefined;
  return nodes.map((n) => (n as DefaultTreeAdapterTypes.TextNode).value).join('');
}

/**
 * Characters a string may hold that text stores trip on, each a partition:
 * the C0 controls (U+0000 ends a C string; U+0009, U+000A and U+000D are
 * white space, in WHITE_SPACE_SPELLINGS), DEL, the C1 controls (U+0085 is a
 * line break to some), the line and paragraph separators (U+2028, U+2029:
 * unescaped in a JSON string, line terminators to JavaScript before ES2019,
 * so JSONP-era writers strip or escape them), and Unicode noncharacters
 * (U+FFFE, U+FFFF). Each is a
 * character of a JSON string (RFC 8259 7, escaped as \u0000 ... where it must
 * be); the HTML parser calls U+0000 a parse error, so a server may refuse a
 * value holding one. What it takes it answers whole.
 */
export const CONTROL_CHARACTERS: ReadonlyArray<{ what: string; value: string }> = [
  { what: 'U+0000 NULL', value: '\u0000' },
  { what: 'U+0001 START OF HEADING', value: '\u0001' },
  { what: 'U+0008 BACKSPACE', value: '\u0008' },
  { what: 'U+000B LINE TABULATION', value: '\u000b' },
  { what: 'U+000C FORM FEED', value: '\u000c' },
  { what: 'U+001B ESCAPE', value: '\u001b' },
  { what: 'U+001F UNIT SEPARATOR', value: '\u001f' },
  { what: 'U+007F DELETE', value: '\u007f' },
  { what: 'U+0080 (C1)', value: '\u0080' },
  { what: 'U+0085 NEXT LINE', value: '\u0085' },
  { what: 'U+009F (C1)', value: '\u009f' },
  { what: 'U+2028 LINE SEPARATOR', value: '\u2028' },
  { what: 'U+2029 PARAGRAPH SEPARATOR', value: '\u2029' },
  { what: 'U+FFFE (a noncharacter)', value: '\ufffe' },
  { what: 'U+FFFF (a noncharacter)', value: '\uffff' },
];

// ------------------------------------------------------------------ HTML

/** Elements that are neither basic styling nor a hyperlink, and that carry or load script or content. */
const ACTIVE_ELEMENTS = [
  'script',
  'style',
  'iframe',
  'frame',
  'object',
  'embed',
  'applet',
  'img',
  'svg',
  'math',
  'video',
  'audio',
  'source',
  'link',
  'meta',
  'base',
  'form',
  'input',
  'button',
  'textarea',
  'template',
] as const;

/**
 * The forms of a start tag HTML reads as the same element (13.2.5.8 tag name state, 13.2.5.32 before attribute
 * name, 13.2.5.40 self-closing start tag): the name then white space and an attribute, then a solidus and an
 * attribute (the XSS filter evasion cheat sheet's <SCRIPT/XSS SRC=...>), then white space alone before ">". A
 * filter that matches an element by its bare start tag ("<script>") misses each.
 */
export const START_TAG_FORMS: ReadonlyArray<{ what: string; after: string }> = [
  { what: 'its start tag carrying an attribute', after: ' class="x"' },
  { what: 'its start tag carrying an attribute after a solidus', after: '/class="x"' },
  { what: 'white space before the end of its start tag', after: ' ' },
];

/** The void elements among ACTIVE_ELEMENTS (HTML 13.1.2): no content, no end tag. */
const VOID_ACTIVE = new Set(['img', 'source', 'link', 'meta', 'base', 'input', 'embed']);

/**
 * Every active element in every start tag form (START_TAG_FORMS), each a value of its own: a grid covered on
 * every run, each element with content and its end tag where it has them.
 */
export function activeElementStartTags(): Array<{ what: string; value: string }> {
  return ACTIVE_ELEMENTS.flatMap((el) =>
    START_TAG_FORMS.map(({ what, after }) => ({
      what: `<${el}>, ${what}`,
      value: VOID_ACTIVE.has(el) ? `Hello <${el}${after}>` : `Hello <${el}${after}>alert(1)</${el}>`,
    })),
  );
}

/** ACTIVE_ELEMENTS by what they do: every one in exactly one class. */
const ACTIVE_ELEMENT_CLASSES: ReadonlyArray<{
  what: string;
  elements: ReadonlyArray<(typeof ACTIVE_ELEMENTS)[number]>;
}> = [
  { what: 'script', elements: ['script', 'template'] },
  // Not frame: outside a frameset, tree construction ignores its start tag (HTML 13.2.6.4.7, "in body"), so a
  // value's <frame> makes no element; the judge still names one wherever it is made.
  { what: 'embedding another document or plug-in', elements: ['iframe', 'object', 'embed', 'applet'] },
  { what: 'media, which load and fire handlers', elements: ['img', 'video', 'audio', 'source'] },
  { what: 'foreign content', elements: ['svg', 'math'] },
  { what: 'a form control', elements: ['form', 'input', 'button', 'textarea'] },
  { what: "the document's metadata", elements: ['style', 'link', 'meta', 'base'] },
];

/** Scheme-bearing attributes whose value a browser may run. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'background', 'poster']);
const SCRIPT_SCHEME = /^(?:javascript|vbscript|data):/i;
/** CSS that runs or loads script: a script URL in url(), expression(), behavior, -moz-binding. */
const SCRIPT_CSS = /url\(['"]?(?:javascript|vbscript|data):|expression\(|behavior:|-moz-binding/i;
// eslint-disable-next-line no-control-regex
const squash = (v: string) => v.replace(/[\u0000-\u0020\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\ufeff]+/g, '');

/** Mixed case, as a filter comparing lower-case names misses it. */
const anyCase = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((up) => [...word].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));

/**
 * An attribute `name=value` in each syntax HTML gives an attribute value
 * (13.2.5.36-38): double-quoted, single-quoted, unquoted; each where the
 * value may be written so (no ' in a single-quoted one; an unquoted one has
 * no white space, quote, =, <, > or `). A check reading quoted values only
 * misses the others.
 */
export function attribute(name: string, value: string): fc.Arbitrary<string> {
  return fc.constantFrom(...ATTRIBUTE_SYNTAXES.flatMap((s) => s.spell(name, value) ?? []));
}

/** The syntaxes of an attribute value (HTML 13.2.5.36-38), each spelling `name=value` where the value may be written so. */
export const ATTRIBUTE_SYNTAXES: ReadonlyArray<{
  what: string;
  spell: (name: string, value: string) => string | undefined;
}> = [
  { what: 'double-quoted', spell: (n, v) => (v.includes('"') ? undefined : `${n}="${v}"`) },
  { what: 'single-quoted', spell: (n, v) => (v.includes("'") ? undefined : `${n}='${v}'`) },
  { what: 'unquoted', spell: (n, v) => (/^[^\s"'=<>`]+$/.test(v) ? `${n}=${v}` : undefined) },
  // White space around = (13.2.5.33-35 skip it before and after): still the attribute's value.
  { what: 'double-quoted, white space around =', spell: (n, v) => (v.includes('"') ? undefined : `${n} = "${v}"`) },
];

/** Script URLs as the cheat sheet spells them: plain, mixed case, entity-encoded, with white space inside. */
const scriptUrl = fc.oneof(
  anyCase('javascript').map((s) => `${s}:alert(1)`),
  fc.constant('&#106;avascript:alert(1)'),
  fc.constant('&#x6A;avascript:alert(1)'),
  fc.constant('java&#x09;script:alert(1)'),
  fc.constant(' javascript:alert(1)'),
  fc.constant('vbscript:msgbox(1)'),
  // Character references a browser decodes in an attribute: named (&colon;), decimal with leading zeros and no
  // semicolon (the cheat sheet's &#0000106), a line feed inside the scheme.
  fc.constant('javascript&colon;alert(1)'),
  fc.constant('&#0000106&#0000097vascript:alert(1)'),
  fc.constant('jav&#x0A;ascript:alert(1)'),
  fc.constant('data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='),
);

/**
 * The forms of a character reference a browser decodes in an attribute value
 * before anything reads it (HTML 13.2.5.72-80): decimal, hexadecimal (x or X),
 * zero-padded, without its semicolon where the next character ends it, and
 * named (HTML's table names :, (, ), / and .; a character without a name is spelt in decimal).
 */
const NAMED_REFERENCES: Readonly<Record<string, string>> = {
  ':': '&colon;',
  '(': '&lpar;',
  ')': '&rpar;',
  '/': '&sol;',
  '.': '&period;',
};
const REFERENCE_FORMS: ReadonlyArray<{ what: string; spell: (c: string, next: string) => string | undefined }> = [
  { what: 'decimal', spell: (c) => `&#${c.codePointAt(0)};` },
  { what: 'hexadecimal', spell: (c) => `&#x${c.codePointAt(0)!.toString(16)};` },
  { what: 'hexadecimal with X', spell: (c) => `&#X${c.codePointAt(0)!.toString(16).toUpperCase()};` },
  { what: 'zero-padded', spell: (c) => `&#${String(c.codePointAt(0)).padStart(7, '0')};` },
  { what: 'no semicolon', spell: (c, next) => (/[0-9;]/.test(next) ? undefined : `&#${c.codePointAt(0)}`) },
  { what: 'named', spell: (c) => NAMED_REFERENCES[c] },
];

/**
 * `value` with one character of every match of `keywords` (a global pattern)
 * spelt as a character reference of a drawn form: an attribute value a
 * browser reads as `value`, in which a filter matching the raw text finds
 * none of them.
 */
function referenceSpelt(value: string, keywords: RegExp): fc.Arbitrary<string> {
  const matches = [...value.matchAll(keywords)];
  return fc
    .tuple(...matches.map((m) => fc.tuple(fc.nat({ max: m[0].length - 1 }), fc.constantFrom(...REFERENCE_FORMS))))
    .map((picks) => {
      let out = value;
      // From the last match back, so that the earlier matches' positions hold.
      for (let k = matches.length - 1; k >= 0; k--) {
        const [i, form] = picks[k]!;
        const at = matches[k]!.index + i;
        const spelt = form.spell(out[at]!, out[at + 1] ?? '') ?? REFERENCE_FORMS[0]!.spell(out[at]!, '')!;
        out = `${out.slice(0, at)}${spelt}${out.slice(at + 1)}`;
      }
      return out;
    });
}

/** What makes a style attribute's value or a URL active, each occurrence to be spelt by referenceSpelt. */
const ACTIVE_KEYWORDS = /url\(|expression\(|behavior|-moz-binding|javascript:|vbscript:|data:/gi;

/** CSS in a style attribute that runs or loads script: the cheat sheet's CSS context. */
const SCRIPT_CSS_VALUES = [
  'background-image:url(javascript:alert(1))',
  "background:url('javascript:alert(1)')",
  'width:expression(alert(1))',
  'behavior:url(https://example.com/x.htc)',
  '-moz-binding:url(https://example.com/x.xml#x)',
] as const;

/** An element beyond styling and hyperlinks with only harmless-looking attributes: one partition each. */
const BENIGN_ELEMENTS: ReadonlyArray<{ what: string; markup: string }> = [
  { what: 'an image with an https source', markup: '<img src="https://example.com/logo.png" alt="logo">' },
  { what: 'an inline frame', markup: '<iframe src="https://example.com/"></iframe>' },
  { what: 'a video', markup: '<video src="https://example.com/v.mp4"></video>' },
  { what: 'an embed', markup: '<embed src="https://example.com/x.pdf">' },
  { what: 'an object', markup: '<object data="https://example.com/x.pdf"></object>' },
  { what: 'a form with an input', markup: '<form action="https://example.com/"><input name="q"></form>' },
  { what: 'an svg element', markup: '<svg width="10" height="10"></svg>' },
  { what: 'a style element', markup: '<style>b { color: red }</style>' },
];

/**
 * The kinds of construct that are not basic styling or a hyperlink, one
 * partition each (the OWASP cheat sheet's contexts): an active element, an
 * event handler on an allowed tag, a hyperlink to a script URL, script in CSS,
 * and each element beyond styling and hyperlinks with harmless-looking
 * attributes. Within a kind, the spelling is drawn (names in any case,
 * separators, quoting). A check covering every kind on every run holds them
 * as a grid (`activeMarkupGrid`); `activeMarkup` draws one of any kind.
 */
export const ACTIVE_MARKUP_KINDS: ReadonlyArray<{ what: string; markup: fc.Arbitrary<string> }> = [
  // The active elements by what they do, each class a partition of its own (an allow-list that takes one
  // class is missed where a draw over all of them falls elsewhere); the element drawn within its class.
  ...ACTIVE_ELEMENT_CLASSES.map(({ what, elements }) => ({
    what: `an active element (${what}), its name in any case`,
    markup: fc
      .tuple(fc.constantFrom(...elements), fc.boolean())
      .chain(([el, closed]) =>
        anyCase(el).map((name) =>
          el === 'img' || el === 'input' || el === 'source' || el === 'link' || el === 'meta' || el === 'base'
            ? `<${name} src=x onerror=alert(1)>`
            : `<${name}>alert(1)${closed ? `</${name}>` : ''}`,
        ),
      ),
  })),
  // After each separator the HTML tokenizer takes before an attribute name (HTML 13.2.5.32-34, 40): white
  // space, or a solidus (the self-closing start tag state reads it as one), each a partition of its own, its
  // value quoted either way or not.
  ...[
    { what: 'after white space', separators: [' ', '\t', '\n', '\f', ' /'] },
    { what: 'after a solidus right after the tag name', separators: ['/'] },
  ].map(({ what, separators }) => ({
    what: `an event handler on an allowed tag, ${what}`,
    markup: fc
      .tuple(
        fc.constantFrom('b', 'i', 'a', 'p', 'span'),
        fc.constantFrom('onclick', 'onmouseover', 'onfocus', 'onerror'),
        fc.constantFrom(...separators),
        fc.constantFrom('"alert(1)"', "'alert(1)'", 'alert(1)'),
      )
      .chain(([tag, on, sep, value]) => anyCase(on).map((attr) => `<${tag}${sep}${attr}=${value}>x</${tag}>`)),
  })),
  // Each syntax of the attribute's value a partition of its own (a check reading quoted values only misses
  // the unquoted one), the URL drawn among those that syntax can hold.
  {
    // A repeated attribute: HTML keeps the first (13.2.5.33: a duplicate is dropped), a map of attributes the last.
    what: 'a hyperlink whose first href is a script URL, a second href after it an https one',
    markup: scriptUrl
      .filter((url) => !url.includes('"'))
      .map((url) => `<a href="${url}" href="https://example.com/">x</a>`),
  },
  ...ATTRIBUTE_SYNTAXES.map(({ what, spell }) => ({
    what: `a hyperlink to a script URL, its href ${what}`,
    markup: scriptUrl.filter((url) => spell('href', url) !== undefined).map((url) => `<a ${spell('href', url)!}>x</a>`),
  })),
  {
    // The cheat sheet's CSS context: a script URL in url(), expression(), behavior, -moz-binding; CSS and URL
    // schemes are case-insensitive, so the attribute and its value are spelt in any case.
    what: 'script in CSS in a style attribute of an allowed tag, its value quoted either way or not',
    markup: fc.tuple(fc.constantFrom('span', 'b', 'p'), fc.constantFrom(...SCRIPT_CSS_VALUES)).chain(([tag, css]) =>
      fc
        .tuple(anyCase('style'), anyCase(css))
        .chain(([name, value]) => attribute(name, value))
        .map((style) => `<${tag} ${style}>x</${tag}>`),
    ),
  },
  // An attribute's value is read with its character references decoded (HTML 13.2.5): the two attribute-borne
  // kinds above, a character of what makes them active spelt as a reference of each form.
  {
    what: 'script in CSS in a style attribute, a character of each construct in it spelt as a character reference',
    markup: fc.tuple(fc.constantFrom('span', 'b', 'p'), fc.constantFrom(...SCRIPT_CSS_VALUES)).chain(([tag, css]) =>
      referenceSpelt(css, ACTIVE_KEYWORDS)
        .chain((value) => attribute('style', value))
        .map((style) => `<${tag} ${style}>x</${tag}>`),
    ),
  },
  {
    what: 'a hyperlink to a script URL, a character of its scheme spelt as a character reference',
    markup: fc
      .constantFrom('javascript:alert(1)', 'vbscript:msgbox(1)', 'data:text/html,<script>alert(1)</script>')
      .chain((url) => referenceSpelt(url, ACTIVE_KEYWORDS).chain((value) => attribute('href', value)))
      .map((href) => `<a ${href}>x</a>`),
  },
  ...BENIGN_ELEMENTS.map(({ what, markup }) => ({
    what: `${what}, no handler (a rich-text allow-list may hold it; "basic styling tags and hyperlinks" do not)`,
    markup: anyCase(/^<([a-z]+)/.exec(markup)![1]!).map((name) => markup.replace(/^<[a-z]+/, `<${name}`)),
  })),
];

/**
 * Markup inert as sent that a server re-serialising it makes active: an allowed attribute whose value holds the
 * quote character that would end it if it were quoted the other way, then what would be an event handler there
 * (HTML 13.2.5.36-37: a value in single quotes holds " as text, one in double quotes holds ' as text and " as a
 * character reference). A server that stores it requoted without escaping that character stores a live handler.
 */
export const REQUOTED_HANDLERS: ReadonlyArray<{ what: string; value: string }> = [
  { what: `a single-quoted title holding " and an onclick after it`, value: `<b title='x" onclick="alert(1)'>x</b>` },
  {
    what: `a double-quoted title holding ' and an onmouseover after it`,
    value: `<i title="x' onmouseover='alert(1)">x</i>`,
  },
  {
    what: 'a double-quoted title holding &quot; and an onfocus after it',
    value: '<span title="x&quot; onfocus=&quot;alert(1)">x</span>',
  },
  {
    what: `a hyperlink's single-quoted title holding &#39; and an onclick after it`,
    value: `<a href="https://example.com/" title='x&#39; onclick=&#39;alert(1)'>x</a>`,
  },
];

const AROUND = fc.constantFrom('', 'Hello ', 'Ünïcödé 🎉 ');

/**
 * The cases a tag or attribute name may be written in: HTML reads them
 * ASCII case-insensitively (13.2.5.8, 13.2.5.33: the tokenizer lower-cases
 * every ASCII upper-case letter of a tag name and of an attribute name), so
 * each spells the same markup. `other` are those a filter comparing
 * lower-case names misses: every letter upper, and mixed (upper and lower
 * letters in turn, from either one).
 */
export const NAME_CASES: ReadonlyArray<{ what: string; spell: (name: string) => string; other: boolean }> = [
  { what: 'names as written', spell: (n) => n, other: false },
  { what: 'names in upper case', spell: (n) => n.toUpperCase(), other: true },
  {
    what: 'names in mixed case, upper first',
    spell: (n) => [...n].map((c, i) => (i % 2 ? c.toLowerCase() : c.toUpperCase())).join(''),
    other: true,
  },
  {
    what: 'names in mixed case, lower first',
    spell: (n) => [...n].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join(''),
    other: true,
  },
];

/**
 * `markup` with the name of every tag (start and end) and of every
 * attribute respelt by `spell`, read as the HTML tokenizer reads them
 * (13.2.5.6-13.2.5.39: a tag name runs to white space, / or >; attribute
 * names follow white space or /; values quoted either way or unquoted are
 * left as they are, as is the text between tags).
 */
export function namesSpelt(markup: string, spell: (name: string) => string): string {
  const space = /[\t\n\f\r ]/;
  let out = '';
  let i = 0;
  while (i < markup.length) {
    const open =
      markup[i] === '<' && /[A-Za-z]/.test(markup[i + 1] === '/' ? (markup[i + 2] ?? '') : (markup[i + 1] ?? ''));
    if (!open) {
      out += markup[i++];
      continue;
    }
    let j = i + (markup[i + 1] === '/' ? 2 : 1);
    const start = j;
    while (j < markup.length && !/[\t\n\f\r />]/.test(markup[j]!)) j++;
    out += markup.slice(i, start) + spell(markup.slice(start, j));
    while (j < markup.length && markup[j] !== '>') {
      if (space.test(markup[j]!) || markup[j] === '/') {
        out += markup[j++];
        continue;
      }
      const name = j;
      j++;
      while (j < markup.length && !/[\t\n\f\r />=]/.test(markup[j]!)) j++;
      out += spell(markup.slice(name, j));
      let k = j;
      while (k < markup.length && space.test(markup[k]!)) k++;
      if (markup[k] !== '=') continue;
      k++;
      while (k < markup.length && space.test(markup[k]!)) k++;
      if (markup[k] === '"' || markup[k] === "'") {
        const end = markup.indexOf(markup[k]!, k + 1);
        k = end < 0 ? markup.length : end + 1;
      } else while (k < markup.length && !/[\t\n\f\r >]/.test(markup[k]!)) k++;
      out += markup.slice(j, k);
      j = k;
    }
    i = j;
  }
  return out;
}

/** The names of a construct in a case drawn among every NAME_CASES (as written too). */
const inAnyNameCase = (markup: fc.Arbitrary<string>) =>
  fc.tuple(markup, fc.constantFrom(...NAME_CASES)).map(([m, c]) => namesSpelt(m, c.spell));

/** One construct that is not basic styling or a hyperlink, of any kind, its names in any case, with the text around it. */
export const activeMarkup: fc.Arbitrary<string> = fc
  .tuple(inAnyNameCase(fc.oneof(...ACTIVE_MARKUP_KINDS.map((k) => k.markup))), AROUND)
  .map(([markup, before]) => `${before}${markup}`);

/**
 * One construct of every kind (ACTIVE_MARKUP_KINDS), each with the text
 * around it: a grid covered on every run. Each comes as drawn (`value`) and
 * with its tag and attribute names in another case (`cased`: upper or mixed,
 * drawn; `casing` says which), the same markup to HTML.
 */
export const activeMarkupGrid: fc.Arbitrary<Array<{ what: string; value: string; cased: string; casing: string }>> =
  fc.tuple(
    ...ACTIVE_MARKUP_KINDS.map((k) =>
      fc.tuple(k.markup, AROUND, fc.constantFrom(...NAME_CASES.filter((c) => c.other))).map(([markup, before, c]) => ({
        what: k.what,
        value: `${before}${markup}`,
        cased: `${before}${namesSpelt(markup, c.spell)}`,
        casing: c.what,
      })),
    ),
  );

/**
 * The construct with each tag name split by a copy of its tag (the OWASP XSS filter evasion cheat sheet's
 * <scr<script>ipt>): a filter that removes the tag once, rather than refusing it or removing it until none is
 * left, assembles the construct from what remains.
 */
export function selfNested(markup: string): string {
  return markup.replace(/<(\/?)([A-Za-z][A-Za-z0-9]*)/g, (_, slash: string, name: string) => {
    const k = Math.max(1, Math.floor(name.length / 2));
    return `<${slash}${name.slice(0, k)}<${slash}${name}>${name.slice(k)}`;
  });
}

/**
 * A construct at the end of a value, its first tag left open, after its last attribute or inside that
 * attribute's value: alone, no element (HTML 13.2.5: end of file in a tag drops it); the page's markup after
 * the value completes the tag.
 */
export const DANGLING_ENDS: ReadonlyArray<{ what: string; at: (construct: string) => string }> = [
  { what: 'at the end, its tag left open', at: (m) => `Hello ${m.slice(0, m.indexOf('>'))}` },
  {
    what: 'at the end, inside its last attribute value',
    at: (m) => `Hello ${m.slice(0, m.indexOf('>')).replace(/["']$/, '')}`,
  },
];

/**
 * Positions of a construct in a value, relative to allowed markup and plain
 * text: a policy that looks at the first tag only, or only outside (or
 * inside) allowed elements, misses it at one of them.
 */
export const MARKUP_POSITIONS: ReadonlyArray<{ what: string; at: (construct: string) => string }> = [
  { what: 'alone', at: (m) => m },
  { what: 'after plain text', at: (m) => `Hello ${m}` },
  { what: 'after allowed markup', at: (m) => `<b>x</b>${m}` },
  { what: 'between allowed markup', at: (m) => `<i>a</i>${m}<u>b</u>` },
  { what: 'inside allowed markup', at: (m) => `<b>x ${m} y</b>` },
  { what: 'inside a hyperlink', at: (m) => `<a href="https://example.com/help">${m}</a>` },
  { what: 'after a line break', at: (m) => `a<br>${m}` },
  // After a line ending in the text itself (LF, CRLF, CR): a check reading the value up to its first line
  // break, or line by line, misses the construct on the next line.
  { what: 'on the line after a line feed', at: (m) => `Hello\n${m}` },
  { what: 'on the line after CRLF', at: (m) => `<b>Hi</b>\r\n${m}` },
  { what: 'on the line after a carriage return', at: (m) => `Hello\r${m}` },
  { what: 'before allowed markup', at: (m) => `${m}<em>z</em>` },
  // By length, the limit's partitions (2000 characters): a check that reads a value's first part only (a preview
  // buffer, the first kilobyte) misses what comes after it.
  {
    what: 'at the end of a value of 2000 characters',
    at: (m) => `${'a'.repeat(Math.max(0, 2000 - [...m].length))}${m}`,
  },
  {
    what: 'in the middle of a value of 2000 characters',
    at: (m) => {
      const pad = Math.max(0, 2000 - [...m].length);
      return `${'a'.repeat(Math.ceil(pad / 2))}${m}${'a'.repeat(Math.floor(pad / 2))}`;
    },
  },
  // Where a filter removing comments by a pattern sees a comment and HTML does not (13.2.5.43-46: "<!-->" and
  // "<!--->" close an empty comment at once; a "--!>" closes one too): the construct between is live markup.
  { what: 'after an abruptly closed comment <!-->, before -->', at: (m) => `<!-->${m}-->` },
  { what: 'after an abruptly closed comment <!--->, before -->', at: (m) => `<!--->${m}-->` },
  { what: 'after a comment closed by --!>', at: (m) => `<!-- x --!>${m}<!-- -->` },
  // Where a lenient parser or a pattern reads on and the standard's tokenizer has ended the construct: "<?",
  // "<!" not followed by "--" or DOCTYPE, and "<![CDATA[" outside SVG and MathML each open a bogus comment
  // that the first ">" closes (13.2.5.6, 13.2.5.41-42); what follows it is live markup.
  { what: 'after a processing instruction <?x >, before ?>', at: (m) => `<?x >${m}?>` },
  { what: 'after a CDATA section outside SVG and MathML <![CDATA[>, before ]]>', at: (m) => `<![CDATA[>${m}]]>` },
  { what: 'after a declaration <!x>', at: (m) => `<!x>${m}` },
  ...DANGLING_ENDS,
  // After a character a reader of C strings or of printable text stops at, and the HTML tokenizer reads past
  // (13.2.5.1: U+0000 in the data state is a parse error, the character kept, the markup after it live; the other
  // C0 controls, DEL and a BOM inside the text are text): a check that reads up to it misses what follows. JSON
  // carries each in a string (RFC 8259 7: \u0000); a server may refuse such a value, never store the markup live.
  { what: 'after a NUL (U+0000)', at: (m) => `Hi\u0000${m}` },
  { what: 'after an escape character (U+001B)', at: (m) => `Hi\u001b${m}` },
  { what: 'after a DEL (U+007F)', at: (m) => `Hi\u007f${m}` },
  { what: 'after a byte order mark (U+FEFF) inside the text', at: (m) => `Hi\ufeff${m}` },
  // Where a pattern sees a comment and HTML sees two attribute values that spell "<!--" and "-->".
  {
    what: 'between attribute values spelling <!-- and -->',
    at: (m) => `<b title="<!--">x</b>${m}<b title="-->">y</b>`,
  },
];

/**
 * Positions of one member in a map of `size` members (first, middle, last): a
 * rule checked on the first member only, or on the members together, misses
 * it at one of them. A map of two has no middle.
 */
export function mapPositions(size: number): Array<{ what: string; index: number }> {
  const out = [{ what: 'first', index: 0 }];
  if (size > 2) out.push({ what: 'middle', index: Math.floor((size - 1) / 2) });
  if (size > 1) out.push({ what: 'last', index: size - 1 });
  return out;
}

/**
 * Text keys by what they hold besides ASCII letters: the characters a form
 * parser may give meaning to (a dot: qs allowDots nests "a.b"; a hyphen; an
 * underscore) and letters outside ASCII (NFC, percent-encoded as UTF-8 in a
 * form body). Each is a string key of the map whatever the content type.
 */
/**
 * Text keys by the case of their letters: JSON compares member names code
 * unit by code unit (RFC 8259 8.3), so a key with upper-case letters is
 * another key than its lower-case form, and the resulting map names it as
 * sent. Camel case (the likeliest), a leading capital, every letter upper.
 */
export const TEXT_KEY_CASES: ReadonlyArray<{ what: string; key: string }> = [
  { what: 'upper-case letters inside (camel case)', key: 'welcomeTitle' },
  { what: 'a leading capital', key: 'Subtitle' },
  { what: 'every letter in upper case', key: 'FOOTER_NOTE' },
];

export const TEXT_KEY_PARTITIONS: ReadonlyArray<{ what: string; key: string }> = [
  ...TEXT_KEY_CASES,
  { what: 'a dot', key: 'signup.title' },
  { what: 'two dots', key: 'page.signup.title' },
  { what: 'a hyphen', key: 'signup-title' },
  { what: 'an underscore', key: 'signup_title' },
  { what: 'non-ASCII letters', key: 'título_überschrift'.normalize('NFC') },
];

/**
 * Spellings HTML makes the same element (HTML 13.1.2: tag names are
 * case-insensitive, white space may close a start or end tag's name, a void
 * element's trailing slash is ignored; 13.1.2.3: attribute values quoted
 * either way or unquoted). Each `base` with the spellings of the same markup.
 */
export const SAME_MARKUP: ReadonlyArray<{ base: string; same: readonly string[] }> = [
  {
    base: 'Line one<br>line two',
    same: ['Line one<br/>line two', 'Line one<br />line two', 'Line one<BR>line two', 'Line one<Br/>line two'],
  },
  ...(['b', 'strong', 'i', 'em', 'u'] as const).map((t) => {
    const T = t.toUpperCase();
    const mixed = NAME_CASES[2]!.spell(t);
    return {
      base: `Read <${t}>this</${t}> now`,
      same: [
        `Read <${T}>this</${T}> now`,
        `Read <${t} >this</${t} > now`,
        `Read <${T}>this</${t}> now`,
        ...(mixed !== T ? [`Read <${mixed}>this</${mixed}> now`] : []),
      ],
    };
  }),
  {
    base: 'See <a href="https://example.com/help">help</a>.',
    same: [
      'See <A HREF="https://example.com/help">help</A>.',
      // Mixed case in the attribute name, the tag's name in either case (HTML 13.2.5.33).
      'See <a HrEf="https://example.com/help">help</a>.',
      'See <A hReF="https://example.com/help">help</a>.',
      'See <a  href="https://example.com/help" >help</a>.',
      "See <a href='https://example.com/help'>help</a>.",
      'See <a href=https://example.com/help>help</a>.',
      // RFC 3986 3.1, 3.2.2, 6.2.2.1: the scheme and the host are case-insensitive; the same link.
      'See <a href="HTTPS://example.com/help">help</a>.',
      'See <a href="Https://EXAMPLE.COM/help">help</a>.',
    ],
  },
];

/**
 * What a hyperlink points to, one partition each: the web's two schemes
 * (RFC 9110 4.2), with and without a query, and mail (RFC 6068). Each is a
 * hyperlink the HTML policy allows ("basic styling tags and hyperlinks").
 */
export const HYPERLINK_URLS: ReadonlyArray<{ what: string; url: string }> = [
  { what: 'an https URL with a query', url: 'https://example.com/help?q=1' },
  { what: 'an http URL', url: 'http://example.com/help' },
  { what: 'a mailto URL', url: 'mailto:help@example.com' },
  // The components of RFC 3986 3 (hier-part, query, fragment), each a partition, and its percent-encoding (2.1).
  { what: 'an https URL with a path of several segments (RFC 3986 3.3)', url: 'https://example.com/help/sign-in/faq' },
  {
    what: 'an https URL with a query of parameters joined by & and = (RFC 3986 3.4), the & written as is',
    url: 'https://example.com/help?a=1&b=2',
  },
  {
    what: 'an https URL with a query whose & is written as the character reference &amp; (HTML 13.1.4)',
    url: 'https://example.com/help?a=1&amp;b=2',
  },
  { what: 'an https URL with a fragment (RFC 3986 3.5)', url: 'https://example.com/help#sign-in' },
  { what: 'an https URL with a port (RFC 3986 3.2.3)', url: 'https://example.com:8443/help' },
  {
    what: 'an https URL with percent-encoded octets in its path and query (RFC 3986 2.1)',
    url: 'https://example.com/help%20center/caf%C3%A9?q=%E2%9C%93&lang=en',
  },
  {
    what: 'an https URL with every component: port, path, query with an empty value, fragment',
    url: 'https://example.com:443/a/b.html?x=&y=1&z=a%2Bb#top',
  },
  {
    what: 'a mailto URL with header fields joined by & (RFC 6068 2)',
    url: 'mailto:help@example.com?subject=Hi&body=Hello%20there',
  },
  // A path segment may hold ":" (RFC 3986 3.3 pchar), and a path or query words a CSS or script blocklist
  // matches: still a hyperlink, which a check matching "javascript:" or "url(" anywhere in a value refuses.
  {
    what: 'an https URL whose path segment holds a colon (RFC 3986 3.3)',
    url: 'https://www.wikidata.org/wiki/Help:Contents',
  },
  {
    what: 'an https URL whose path and query hold words of CSS (behavior, url(, @import, expression)',
    url: 'https://example.com/help/behavior/url(1)?topic=@import&q=expression',
  },
  // The URL standard strips leading and trailing C0 control or space from an href's value before parsing it.
  { what: 'an https URL with spaces around it in the attribute', url: ' https://example.com/help ' },
];

/**
 * The white space HTML allows in markup (ASCII whitespace, HTML 13.1.2) that
 * a value written over lines holds: a line feed, CRLF (what a form's
 * textarea submits), a tab. A lone CR is left out: a server may refuse the
 * control characters that end no line where it runs. MARKUP_LAYOUTS lays
 * each out where such a value has it: inside an element's text, between
 * elements, between a tag's name and its attribute, before a start tag's >.
 * Each lays out the same basic markup.
 */
export const MARKUP_WHITE_SPACE: ReadonlyArray<{ what: string; value: string }> = [
  { what: 'a line feed', value: '\n' },
  { what: 'CRLF', value: '\r\n' },
  { what: 'a tab', value: '\t' },
];
// Only the tags every check holds to be basic styling (b, strong, i, em, u) and a hyperlink: whether <p>, <br> or
// <span> is one the document does not say.
export const MARKUP_LAYOUTS: ReadonlyArray<{ where: string; at: (ws: string) => string }> = [
  { where: "inside an element's text", at: (ws) => `<strong>Line one${ws}line two</strong>` },
  { where: 'between elements', at: (ws) => `<b>One</b>${ws}<i>two</i>${ws}<u>three</u>` },
  {
    where: "between a tag's name and its attribute",
    at: (ws) => `<a${ws}href="https://example.com/help">help</a>`,
  },
  { where: "before a start tag's >", at: (ws) => `<a href="https://example.com/help"${ws}>help</a>` },
  {
    where: 'around a hyperlink inside emphasis',
    at: (ws) => `<em>See${ws}<a href="https://example.com/help">the${ws}help</a>${ws}page.</em>`,
  },
];

/**
 * Basic styling and a hyperlink, nested, around any text laid over two
 * lines or words: what the document allows.
 */
export const basicMarkup: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(fc.constantFrom('b', 'strong', 'i', 'em', 'u'), { minLength: 1, maxLength: 3 }),
    plainText('bmp', 8),
    fc.option(fc.constantFrom(...HYPERLINK_URLS.map((h) => h.url)), { nil: undefined }),
    fc.constantFrom(' ', ...MARKUP_WHITE_SPACE.map((w) => w.value)),
  )
  .map(([tags, text, link, ws]) => {
    // The text over two lines (or words), as a value written in an editor holds it.
    const lines = `${text.slice(0, 4)}${ws}${text.slice(4)}`;
    const inner = link ? `<a href="${link}">${lines}</a>` : lines;
    return tags.reduceRight((acc, t) => `<${t}>${acc}</${t}>`, inner);
  });

/**
 * The partitions of a quoted attribute value (HTML 13.1.2.3: text and character references; 13.2.5.36-38, the
 * attribute value (double-quoted) and (single-quoted) states): inside its quotes a value's >, < and = are characters of
 * the value, so is the other quote mark, a character reference is decoded into it, and white space is part of it.
 * Each is written `quoted` (its quote marks included) and read by HTML's tokenizer as `value`. A filter that ends a tag
 * at the first > (/<[^>]*>/), or a value at the first quote mark of either kind, cuts the tag there.
 */
export const ATTRIBUTE_VALUE_SPELLINGS: ReadonlyArray<{ what: string; quoted: string; value: string }> = [
  { what: 'a > inside double quotes', quoted: '"Next >"', value: 'Next >' },
  { what: 'a > inside single quotes', quoted: "'Next >'", value: 'Next >' },
  { what: 'a < inside double quotes', quoted: '"1 < 2"', value: '1 < 2' },
  { what: 'a < and a > inside single quotes', quoted: "'<< Back | Next >>'", value: '<< Back | Next >>' },
  { what: 'an = inside double quotes', quoted: '"step=2"', value: 'step=2' },
  { what: "a ' inside double quotes", quoted: `"It's next"`, value: "It's next" },
  { what: 'a " inside single quotes', quoted: `'Say "next"'`, value: 'Say "next"' },
  { what: 'the character reference &gt;', quoted: '"Next &gt;"', value: 'Next >' },
  { what: 'the numeric character reference &#62;', quoted: '"Next &#62;"', value: 'Next >' },
  { what: 'the character reference &amp;', quoted: '"Terms &amp; help"', value: 'Terms & help' },
  {
    what: 'the character reference &quot; inside double quotes',
    quoted: '"Say &quot;next&quot;"',
    value: 'Say "next"',
  },
  { what: 'spaces, a tab and a line feed', quoted: '"Go to\tthe next\npage"', value: 'Go to\tthe next\npage' },
  { what: 'a space at either end', quoted: '" Next "', value: ' Next ' },
  { what: 'nothing (an empty value)', quoted: '""', value: '' },
];

/**
 * Basic markup that carries an attribute beside its content: a hyperlink with a title after its href and before it,
 * and a styling element with a title. `at(quoted)` writes it with the title's value as quoted; each with
 * PLAIN_ATTRIBUTE_VALUE is the same markup with a value of letters and a space. Which attributes a server keeps on
 * basic markup is not shown: the title is judged against the same markup with the plain value.
 */
export const ATTRIBUTE_MARKUP: ReadonlyArray<{ what: string; at: (quoted: string) => string }> = [
  { what: 'a hyperlink, the title last', at: (q) => `See <a href="https://example.com/next" title=${q}>Next</a>.` },
  { what: 'a hyperlink, the title first', at: (q) => `See <a title=${q} href="https://example.com/next">Next</a>.` },
  { what: 'a styling element', at: (q) => `See <b title=${q}>Next</b>.` },
];
export const PLAIN_ATTRIBUTE_VALUE = '"Next page"';

/**
 * What in a stored value is more than basic styling and hyperlinks: an
 * active element, an event-handler attribute, or a script URL (entities
 * decoded, white space and controls removed, as browsers do). Undefined when
 * nothing is.
 */
export function activeContent(value: string): string | undefined {
  return activeIn(value) ?? activeIn(`${value}${PAGE_AFTER}`);
}

/**
 * Markup a page puts after a stored value: quotes and a > end whatever tag state the value ends in (HTML
 * 13.2.5.32-40), so a tag the value leaves open is read as the page completes it (`Hello <b onclick="alert(1)//`
 * alone makes no element; followed by the page, a live handler).
 */
const PAGE_AFTER = `"'></p><p class="page">Page text</p>`;

function activeIn(value: string): string | undefined {
  for (const el of elementsIn(value)) {
    if ((ACTIVE_ELEMENTS as readonly string[]).includes(el.tagName)) return `a <${el.tagName}> element`;
    for (const { name, prefix, value: v } of el.attrs) {
      const attr = prefix ? `${prefix}:${name}` : name;
      if (/^on/i.test(attr)) return `an ${attr} attribute on <${el.tagName}>`;
      if (URL_ATTRIBUTES.has(attr) && SCRIPT_SCHEME.test(squash(v))) return `${attr}="${v}" on <${el.tagName}>`;
      if (attr === 'style' && SCRIPT_CSS.test(squash(v))) return `style="${v}" on <${el.tagName}>`;
    }
  }
  return undefined;
}

/**
 * The elements a browser makes of `value` as the content of an element of
 * the page, in tree order (a template's content included): the HTML
 * standard's tokenizer and tree construction (13.2, by parse5), with
 * scripting on, as in a browser. Not a lenient parser's reading: where a
 * filter's parser sees a comment, a CDATA section or an attribute value, the
 * standard's may see live markup (a CDATA section outside SVG and MathML is
 * a bogus comment up to the first `>`, 13.2.5.42), and the judge of a
 * stored value must read it as the browser that renders it.
 */
function elementsIn(value: string): DefaultTreeAdapterTypes.Element[] {
  const out: DefaultTreeAdapterTypes.Element[] = [];
  const walk = (nodes: DefaultTreeAdapterTypes.ChildNode[]) => {
    for (const node of nodes) {
      if (!('tagName' in node)) continue;
      out.push(node);
      walk(node.childNodes);
      if ('content' in node) walk((node as DefaultTreeAdapterTypes.Template).content.childNodes);
    }
  };
  walk(parseFragment(value, { scriptingEnabled: true }).childNodes);
  return out;
}

// ------------------------------------------------------------ enum values

/**
 * Near misses of an enum value: what a comparison that folds case, trims,
 * ignores invisible characters, matches a prefix or confuses look-alike
 * letters would let through. Never the value itself.
 */
export function nearMisses(value: string): fc.Arbitrary<string> {
  return fc
    .oneof(
      anyCase(value),
      fc
        .constantFrom(' ', '\t', '\u00a0', '\u200b', '\u0000', '%20')
        .chain((w) => fc.constantFrom(`${w}${value}`, `${value}${w}`)),
      fc.constantFrom(
        value.slice(0, -1),
        value.slice(1),
        `${value}${value.slice(-1)}`,
        `${value}-x`,
        value.replace(/e/, '\u0435').replace(/a/, '\u0430'),
        value.replace(/-/g, '_'),
      ),
    )
    .filter((v) => v !== value);
}

// ------------------------------------------------------------ media types

/**
 * Spellings of a media type that RFC 9110 8.3.1 makes the same: type and
 * subtype are case-insensitive, and a charset parameter (any case, quoted or
 * not, with white space around the semicolon) does not change the type.
 */
export function mediaTypeSpellings(type: string): fc.Arbitrary<string> {
  return fc.constantFrom(...sameMediaType(type));
}

/** The spellings mediaTypeSpellings draws from, the plain one first. */
export function sameMediaType(type: string): string[] {
  return [
    type,
    type.toUpperCase(),
    type.replace(/^./, (c) => c.toUpperCase()),
    `${type}; charset=utf-8`,
    `${type};charset=UTF-8`,
    `${type} ; charset="utf-8"`,
  ];
}

// ------------------------------------------------------------ identifiers

/** `id` with every letter and digit after its last separator (all of them, where it has none) a zero. */
function nilId(id: string): string {
  const body = id.search(/[A-Za-z0-9]*$/);
  return `${id.slice(0, body)}${id.slice(body).replace(/[A-Za-z0-9]/g, '0')}`;
}

/** A character percent-encoded (RFC 3986 2.1: each UTF-8 octet as %HH), whatever class it is in. */
export const pct = (c: string) =>
  [...new TextEncoder().encode(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/**
 * Identifiers near a real one, each another identifier (RFC 3986 6.2.1:
 * paths compare character by character): a character added at either end,
 * one cut from either end, one changed (at the start, middle or end), its
 * nil id (zeros after its last separator), a
 * percent-encoded reserved character inserted, a format suffix or a matrix
 * parameter after it, a character encoded twice, dot-segments behind
 * encoded slashes (traversalIds), the wildcards of a lookup's pattern
 * language (wildcardIds), a character in an overlong UTF-8 form
 * (overlongIds), white space or an invisible character around or inside it
 * (spacedIds), octets that are no UTF-8 after it, a % without two hex
 * digits after it. Case changes are left
 * out: some identifier schemes (ULIDs, Crockford base32) are
 * case-insensitive.
 * Each is given as sent in the path (`raw`, already encoded) and as the
 * identifier a server decodes (`decoded`).
 */
/** The separators ids are spelt with (auth0|abc, cgr_x, est-x, google-oauth2:123, a.b): each stands for another. */
const ID_SEPARATORS = ['_', '-', ':', '|', '.'] as const;

export function nearIds(id: string): Array<{ what: string; raw: string; decoded: string }> {
  const swap = (c: string) => (c === '0' ? '1' : /[0-9]/.test(c) ? '0' : c === 'z' || c === 'Z' ? 'y' : 'z');
  const at = (i: number) => `${id.slice(0, i)}${swap(id[i]!)}${id.slice(i + 1)}`;
  const enc = (s: string) => encodeURIComponent(s);
  const mid = Math.floor(id.length / 2);
  const near = [
    { what: 'a character added at the end', decoded: `${id}${swap(id.at(-1)!)}` },
    { what: 'its last character repeated', decoded: `${id}${id.at(-1)}` },
    { what: 'a character added at the start', decoded: `${swap(id[0]!)}${id}` },
    { what: 'cut by its last character', decoded: id.slice(0, -1) },
    { what: 'cut by its first character', decoded: id.slice(1) },
    { what: 'its first character changed', decoded: at(0) },
    { what: 'a middle character changed', decoded: at(mid) },
    { what: 'its last character changed', decoded: at(id.length - 1) },
    // Another separator where it has one (auth0|abc as auth0:abc, cgr_x as cgr-x): a store that once spelt
    // ids so, and maps them still, answers the real one.
    // The nil id of its form (RFC 9562 5.9's Nil UUID, an all-zero ObjectId): a store's "no id" value, which a
    // lookup may read as "no filter".
    { what: 'its characters after its last separator all zeros (a nil id)', decoded: nilId(id) },
    ...(/[^A-Za-z0-9]/.test(id)
      ? [
          // Each other separator in its first one's place: a store that folds one into another (a slug
          // normaliser that reads - as _, ids minted as est-x once and est_x now) answers the real one.
          ...ID_SEPARATORS.map((sep) => ({
            what: `its first separator swapped for ${JSON.stringify(sep)}`,
            decoded: id.replace(/[^A-Za-z0-9]/, sep),
          })),
          // Its type prefix dropped (cgr_x as x, auth0|abc as abc): a store keeping ids without their prefix, and
          // reading a path id with or without it (for ids handed out before prefixes), answers the real one.
          {
            what: 'its type prefix, up to its first separator, dropped',
            decoded: id.replace(/^[A-Za-z0-9]*[^A-Za-z0-9]/, ''),
          },
        ].filter((v) => v.decoded !== '' && v.decoded !== id)
      : []),
  ].map((v) => ({ ...v, raw: enc(v.decoded) }));
  return [
    ...near,
    { what: 'followed by an encoded slash', raw: `${enc(id)}%2Fx`, decoded: `${id}/x` },
    { what: 'followed by an encoded NUL', raw: `${enc(id)}%00`, decoded: `${id}\u0000` },
    { what: 'followed by an encoded question mark', raw: `${enc(id)}%3Fx`, decoded: `${id}?x` },
    // What routers strip from a last segment (RFC 3986 3.3: each is part of the segment, so another id): a
    // format suffix, a matrix parameter.
    { what: 'followed by a format suffix (.json)', raw: `${enc(id)}.json`, decoded: `${id}.json` },
    { what: 'followed by a matrix parameter (;v=1)', raw: `${enc(id)};v=1`, decoded: `${id};v=1` },
    // RFC 3986 2.4: a path is decoded once; %25 is a percent sign, so this is the id with a literal "%XX" inside.
    {
      what: 'a middle character percent-encoded twice (%25 and its hex: a literal percent sign once decoded)',
      raw: `${enc(id.slice(0, mid))}${pct(id[mid]!).replaceAll('%', '%25')}${enc(id.slice(mid + 1))}`,
      decoded: `${id.slice(0, mid)}${pct(id[mid]!)}${id.slice(mid + 1)}`,
    },
    ...traversalIds(id),
    ...wildcardIds(id),
    ...lookAlikeIds(id),
    ...overlongIds(id),
    ...spacedIds(id),
    ...INVALID_UTF8_ENDINGS.map((e) => ({
      what: `followed by ${e.what} (${e.raw})`,
      raw: `${enc(id)}${e.raw}`,
      decoded: `${id}${'\ufffd'.repeat(e.replaced)}`,
    })),
    // A % without two hex digits after it (RFC 3986 2.1) ends no percent-encoding: the segment is no id of the
    // real one's, whether a server refuses it or keeps the characters as they are. A decoder that drops what it
    // cannot decode answers the real id.
    ...MALFORMED_PERCENT_ENDINGS.filter((e) => !/^(%[0-9A-Fa-f]{2})+$/.test(e.raw)).map((e) => ({
      what: `followed by ${e.what} (${e.raw})`,
      raw: `${enc(id)}${e.raw}`,
      decoded: `${id}${e.raw}`,
    })),
  ].filter((v) => v.decoded !== id);
}

/**
 * Ids an identifier folding look-alikes reads as `id` (Unicode TS 39 confusables, NFKC): each kind of
 * character of `id` that has an ASCII look-alike swapped for it once (0 and O, 1 l and I, 5 and S, 2 and Z,
 * 8 and B), and a letter swapped for its Cyrillic look-alike and for its fullwidth form (percent-encoded, RFC
 * 3986 2.1). Other ids (RFC 3986: another path), which no resource is known by unless it is one of them.
 * Crockford's base32 (the alphabet of ULIDs, 26 characters like an event stream's id) decodes O as 0 and I, L
 * as 1, so a server of such ids may read those swaps as the same id: they are left out unless `crockfordToo`
 * (an id whose pattern holds none of 0, O, I, l, as an experiment's, cannot be such an id).
 */
export function lookAlikeIds(id: string, crockfordToo = false): Array<{ what: string; raw: string; decoded: string }> {
  const ascii: Record<string, string> = {
    0: 'O',
    O: '0',
    o: '0',
    1: 'l',
    l: '1',
    I: '1',
    5: 'S',
    S: '5',
    2: 'Z',
    Z: '2',
    8: 'B',
    B: '8',
  };
  const cyrillic: Record<string, string> = {
    a: '\u0430',
    e: '\u0435',
    o: '\u043e',
    p: '\u0440',
    c: '\u0441',
    x: '\u0445',
  };
  const out: Array<{ what: string; raw: string; decoded: string }> = [];
  const swapped = (what: string, i: number, by: string) =>
    out.push({
      what,
      raw: `${encodeURIComponent(id.slice(0, i))}${encodeURIComponent(by)}${encodeURIComponent(id.slice(i + 1))}`,
      decoded: `${id.slice(0, i)}${by}${id.slice(i + 1)}`,
    });
  const crockford = (a: string, b: string) => /^[0Oo]{2}$/.test(a + b) || /^[1IiLl]{2}$/.test(a + b);
  for (const c of new Set(id)) {
    const i = id.lastIndexOf(c);
    if (ascii[c] !== undefined && (crockfordToo || !crockford(c, ascii[c])))
      swapped(`${c} swapped for its look-alike ${ascii[c]}`, i, ascii[c]);
  }
  const lastWhere = (ok: (c: string) => boolean) =>
    [...id].map((c, i) => (ok(c) ? i : -1)).reduce((a, b) => Math.max(a, b), -1);
  const letter = lastWhere((c) => cyrillic[c] !== undefined);
  if (letter >= 0) swapped(`${id[letter]} swapped for its Cyrillic look-alike`, letter, cyrillic[id[letter]!]!);
  const last = lastWhere((c) => /[A-Za-z0-9]/.test(c));
  if (last >= 0)
    swapped(
      `${id[last]} in its fullwidth form (NFKC folds it back)`,
      last,
      String.fromCodePoint(id.codePointAt(last)! + 0xfee0),
    );
  return out;
}

/**
 * Dot-segments inside the id's segment, their slashes percent-encoded (RFC 3986 2.1, 3.3: %2F is data, not
 * a delimiter, so the segment is one id holding "/" and "."; 5.2.4 removes dot-segments of the path as sent,
 * where there are none): x/../{id}, ./{id}, {id}/x/.. once decoded. A server that decodes the path before it
 * resolves dot-segments answers the real id.
 */
function traversalIds(id: string): Array<{ what: string; raw: string; decoded: string }> {
  const enc = encodeURIComponent(id);
  return [
    { what: 'behind an encoded x/../', raw: `x%2F..%2F${enc}`, decoded: `x/../${id}` },
    { what: 'behind an encoded x/../ with its dots encoded too', raw: `x%2F%2E%2E%2F${enc}`, decoded: `x/../${id}` },
    { what: 'behind an encoded ./', raw: `.%2F${enc}`, decoded: `./${id}` },
    { what: 'followed by an encoded /x/..', raw: `${enc}%2Fx%2F..`, decoded: `${id}/x/..` },
  ];
}

/**
 * The id with the wildcards of the languages a lookup is written in (SQL LIKE's _ and %, a glob's ? and *, a
 * regular expression's . and .*), in place of one character or after a prefix: each is another id, which
 * a lookup that passes the id into a pattern unescaped matches to the real one (OWASP's injection
 * prevention: parameters are data).
 */
function wildcardIds(id: string): Array<{ what: string; raw: string; decoded: string }> {
  const mid = Math.floor(id.length / 2);
  const prefix = id.slice(0, mid);
  return [
    ...['_', '%', '?', '*', '.'].map((w) => ({
      what: `its middle character replaced by the wildcard ${w}`,
      decoded: `${prefix}${w}${id.slice(mid + 1)}`,
    })),
    ...['%', '*', '.*'].map((w) => ({
      what: `its first half followed by the wildcard ${w}`,
      decoded: `${prefix}${w}`,
    })),
  ].map((v) => ({ ...v, raw: encodeURIComponent(v.decoded) }));
}

/**
 * Octets that are no UTF-8 (RFC 3629 3, 4), percent-encoded after an id: a segment that is no percent-encoding
 * of UTF-8 text (RFC 3986 2.5) names no resource, where a decoder that drops what it cannot read (iconv's
 * //IGNORE) reads the real id. `replaced`: the U+FFFD a decoder that replaces makes of them (the Encoding
 * Standard's UTF-8 decode).
 */
const INVALID_UTF8_ENDINGS: ReadonlyArray<{ what: string; raw: string; replaced: number }> = [
  { what: 'an octet UTF-8 never uses', raw: '%FF', replaced: 1 },
  { what: 'a lone continuation octet', raw: '%80', replaced: 1 },
  { what: 'a lead octet cut at the end', raw: '%C3', replaced: 1 },
  { what: 'a UTF-16 surrogate encoded as UTF-8', raw: '%ED%A0%80', replaced: 3 },
  { what: 'a code point above U+10FFFF encoded as UTF-8', raw: '%F4%90%80%80', replaced: 4 },
];

/**
 * The identifier with one ASCII character in an overlong UTF-8 form, two and
 * three octets long (C0 AF for "/"): no UTF-8 at all (RFC 3629 3: "MUST
 * protect against decoding invalid sequences"), so no percent-encoding of the
 * id (RFC 3986 2.5); a lenient decoder reads the real id. For the middle
 * character and the first that is no letter or digit (a separator such as |
 * or _, which routers and ids treat apart). `decoded` is what a decoder
 * that replaces makes of it (the Encoding Standard's: U+FFFD for each octet).
 */
function overlongIds(id: string): Array<{ what: string; raw: string; decoded: string }> {
  const hex = (b: number) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  const forms = (c: number) => [
    { octets: 'two', raw: hex(0xc0 | (c >> 6)) + hex(0x80 | (c & 0x3f)) },
    { octets: 'three', raw: hex(0xe0) + hex(0x80 | (c >> 6)) + hex(0x80 | (c & 0x3f)) },
  ];
  const mid = Math.floor(id.length / 2);
  const separator = [...id].findIndex((c) => !/[A-Za-z0-9]/.test(c));
  const positions = [...new Set([mid, ...(separator >= 0 ? [separator] : [])])].filter((i) => id.charCodeAt(i) < 0x80);
  return positions.flatMap((i) =>
    forms(id.charCodeAt(i)).map((f) => ({
      what: `its character ${JSON.stringify(id[i])} in an overlong ${f.octets}-octet UTF-8 form (${f.raw})`,
      raw: `${encodeURIComponent(id.slice(0, i))}${f.raw}${encodeURIComponent(id.slice(i + 1))}`,
      decoded: `${id.slice(0, i)}${'\ufffd'.repeat(f.raw.length / 3)}${id.slice(i + 1)}`,
    })),
  );
}

/**
 * The white space and invisible-character near misses of an identifier,
 * percent-encoded as a path segment requires (RFC 3986 2.1, 3.3): a space,
 * tab, line feed, no-break space, ideographic space or byte-order mark
 * before or after it (what String.prototype.trim and most "strip" helpers
 * remove), a zero-width space after it (what a filter of invisible
 * characters removes), and a space or zero-width space inside it. Each is
 * another identifier: a server that trims or strips answers the real one.
 */
function spacedIds(id: string): Array<{ what: string; raw: string; decoded: string }> {
  const mid = Math.floor(id.length / 2);
  return [
    { what: 'a space before it', decoded: ` ${id}` },
    { what: 'a space after it', decoded: `${id} ` },
    { what: 'a tab after it', decoded: `${id}\t` },
    { what: 'a tab before it', decoded: `\t${id}` },
    { what: 'a line feed after it', decoded: `${id}\n` },
    { what: 'a no-break space before it', decoded: `\u00a0${id}` },
    { what: 'an ideographic space after it', decoded: `${id}\u3000` },
    { what: 'a byte-order mark before it', decoded: `\ufeff${id}` },
    { what: 'a zero-width space after it', decoded: `${id}\u200b` },
    { what: 'a space inside it', decoded: `${id.slice(0, mid)} ${id.slice(mid)}` },
    { what: 'a zero-width space inside it', decoded: `${id.slice(0, mid)}\u200b${id.slice(mid)}` },
  ].map((v) => ({ ...v, raw: encodeURIComponent(v.decoded) }));
}

/**
 * One near miss of an enum value in each class nearMisses() draws from, every
 * time: case folded (all upper, capitalised, one letter up), padded (space,
 * tab, no-break space, either end), invisible characters (zero-width space,
 * NUL, a byte-order mark), cut, doubled, look-alike letters, separators
 * swapped or dropped. For checks that must meet each class on every run, not
 * only where the sample falls.
 */
export function nearMissSpellings(value: string): string[] {
  const mid = Math.floor(value.length / 2);
  return [
    value.toUpperCase(),
    value.charAt(0).toUpperCase() + value.slice(1),
    `${value.slice(0, mid)}${value.charAt(mid).toUpperCase()}${value.slice(mid + 1)}`,
    ` ${value}`,
    `${value} `,
    `${value}\t`,
    `\u00a0${value}`,
    `${value}\u200b`,
    `${value}\u0000`,
    `\ufeff${value}`,
    value.slice(0, -1),
    `${value}${value.slice(-1)}`,
    value.replace(/a/, '\u0430').replace(/e/, '\u0435').replace(/o/, '\u043e'),
    // A middle character percent-encoded (RFC 3986 2.1), in the value itself: sent in a query or a form it goes
    // as %25 and its hex, which decoded once (2.4: one decoding) is a literal "%XX", not the value. A server that
    // decodes a query or form value twice (a decoder shared with doubly-encoded proxied values) takes it.
    `${value.slice(0, mid)}${pct(value.charAt(mid))}${value.slice(mid + 1)}`,
    // Compatibility spellings NFKC folds onto the value (UAX #15): fullwidth letters, mathematical bold letters.
    compatible(value, 0xff21 - 0x41, 0xff41 - 0x61),
    compatible(value, 0x1d400 - 0x41, 0x1d41a - 0x61),
    // Its separators read as one another or dropped (a comparison that normalises "-" to "_", or strips
    // punctuation): each separator the value holds, every occurrence, as each other separator and as nothing.
    ...SEPARATORS.filter((sep) => value.includes(sep)).flatMap((sep) =>
      [...SEPARATORS.filter((other) => other !== sep), ''].map((other) => value.replaceAll(sep, other)),
    ),
  ].filter((v, i, all) => v !== value && all.indexOf(v) === i);
}

/** The punctuation that separates the words of identifiers, enum values and event types. */
const SEPARATORS = ['_', '-', '.', ':'] as const;

/** `value` with its ASCII letters moved by the offsets given (upper, lower case) to letters NFKC folds back. */
function compatible(value: string, upper: number, lower: number): string {
  return [...value]
    .map((c) =>
      /[A-Z]/.test(c)
        ? String.fromCodePoint(c.codePointAt(0)! + upper)
        : /[a-z]/.test(c)
          ? String.fromCodePoint(c.codePointAt(0)! + lower)
          : c,
    )
    .join('');
}

// ------------------------------------------------------------ JSON types

/**
 * A valid JSON value in each other type RFC 8259 3 defines: wrapped in an
 * array, wrapped in an object, a number, true, false, null, and (for a value
 * that is not a string) a string spelling it; and the empty value of each
 * other type ("", 0, [], {}). A server that coerces (String(), the first
 * element, a member of an object, a default for a falsy value) lets one
 * through.
 */
export function otherJsonTypes(valid: unknown): Array<{ what: string; value: unknown }> {
  const out: Array<{ what: string; value: unknown }> = [
    { what: 'the valid value wrapped in an array', value: [valid] },
    { what: 'the valid value wrapped in an object', value: { value: valid } },
    { what: 'a number', value: 1 },
    { what: 'true', value: true },
    { what: 'false', value: false },
    { what: 'null', value: null },
    // The empty value of each type (and 0): what a server reading `value || default` takes for no value.
    { what: 'zero', value: 0 },
  ];
  if (typeof valid !== 'string') out.push({ what: 'an empty string', value: '' });
  if (!Array.isArray(valid)) out.push({ what: 'an empty array', value: [] });
  if (typeof valid !== 'object' || valid === null || Array.isArray(valid))
    out.push({ what: 'an empty object', value: {} });
  if (typeof valid !== 'string') out.push({ what: 'the valid value spelt as a string', value: JSON.stringify(valid) });
  if (Array.isArray(valid) && valid.length) {
    out.push({ what: 'its first item, unwrapped', value: valid[0] });
    out.push({ what: 'an array of numbers', value: valid.map((_, i) => i) });
  }
  return out;
}

// ------------------------------------------------------------ plain text with HTML characters

/**
 * Plain text holding the characters HTML gives meaning to (& < > " '),
 * where they make no markup, and markup spelt with character references
 * (HTML 13.1.4), percent-encoding or backslash escapes: text to a browser,
 * whatever a filter that decodes after checking makes of it. Each is
 * accepted as plain text, and holds no active content once parsed.
 */
export const HTML_SIGNIFICANT_TEXT: readonly string[] = [
  'Terms & Conditions',
  'Q&A, R&D and AT&T',
  '1 < 2',
  'a > b',
  '2 <3 and x<=y',
  '<> and << >>',
  'He said "hello" and \'goodbye\'',
  'Fish &amp; chips',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&lt;img src=x onerror=alert(1)&gt;',
  '&#60;script&#62;alert(1)&#60;/script&#62;',
  '&#x3C;svg onload=alert(1)&#x3E;',
  '&#X3c;iframe src=javascript:alert(1)&#x3e;',
  '&amp;lt;script&amp;gt;alert(1)&amp;lt;/script&amp;gt;',
  // Markup spelt in the other encodings a value passes through on its way to storage: percent-encoding
  // (RFC 3986 2.1; a form body is percent-decoded once, and a second decode after the check makes markup of
  // it), doubled, and backslash escapes as JavaScript and JSON write them (here literal text, not escapes).
  '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  '%3cimg src=x onerror=alert(1)%3e',
  '%253Cscript%253Ealert(1)%253C%252Fscript%253E',
  '\\u003cscript\\u003ealert(1)\\u003c/script\\u003e',
  '\\x3Csvg onload=alert(1)\\x3E',
];

/** The characters HTML gives meaning to, and some around them. */
const HTML_CHARACTERS = fc.constantFrom('&', '<', '>', '"', "'", ' ', ';', '#', '1', 'a', 'l', 't', 'm', 'p');

/**
 * Plain text of exactly `n` characters drawn mostly from & < > " ', where
 * they make no markup: no `<` is followed by a letter, `/`, `!` or `?` (which
 * would start a tag, a comment or a declaration). First and last characters
 * are ASCII letters, as in plainText().
 */
export function htmlPlainText(n: number): fc.Arbitrary<string> {
  const inner = Math.max(0, n - 2);
  return fc.array(HTML_CHARACTERS, { minLength: inner, maxLength: inner }).map((chars) => {
    for (let i = 1; i < chars.length; i++) if (chars[i - 1] === '<' && /[A-Za-z/!?]/.test(chars[i]!)) chars[i] = '1';
    // Nor the last: the closing letter after it would open a tag.
    if (chars[chars.length - 1] === '<') chars[chars.length - 1] = '1';
    return n === 1 ? 'T' : `T${chars.join('')}Z`;
  });
}

// ------------------------------------------------------------ path segments

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * Spellings of an identifier as a path segment that RFC 3986 makes the same
 * as its canonical one (encodeURIComponent): its percent-encodings in
 * lower-case hex (2.1, 6.2.2.1: "%7c" is "%7C"), an unreserved character
 * percent-encoded (2.3, 6.2.2.2: "%61" is "a"), and every unreserved
 * character percent-encoded in lower-case hex (both at once). Each decodes
 * to the identifier itself; spellings equal to the canonical one are left out.
 * The last is the one to send where only one is sent.
 */
export function equivalentSegments(id: string): Array<{ what: string; raw: string }> {
  const canonical = encodeURIComponent(id);
  const lower = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
  const chars = [...id];
  const mid = chars.findIndex((c, i) => i >= Math.floor(chars.length / 2) && UNRESERVED.test(c));
  const one = chars.map((c, i) => (i === mid ? pct(c) : encodeURIComponent(c))).join('');
  const every = lower(chars.map((c) => (UNRESERVED.test(c) ? pct(c) : encodeURIComponent(c))).join(''));
  return [
    { what: 'its percent-encodings in lower-case hex (RFC 3986 2.1)', raw: lower(canonical) },
    { what: 'an unreserved character percent-encoded (RFC 3986 2.3)', raw: one },
    { what: 'every unreserved character percent-encoded, in lower-case hex (RFC 3986 2.1, 2.3)', raw: every },
  ].filter((v, i, all) => v.raw !== canonical && all.findIndex((w) => w.raw === v.raw) === i);
}

/**
 * Spellings of an identifier as a path segment that a legacy decoder reads as the identifier but RFC 3986
 * does not: a character as a %u escape (%uXXXX, what JavaScript's unescape() and IIS decode; 2.1:
 * pct-encoded = "%" HEXDIG HEXDIG, so "%u" begins none), the last character and a middle one. Each names
 * another identifier, or nothing: never the resource of `id`.
 */
export function notEquivalentSegments(id: string): Array<{ what: string; raw: string }> {
  const chars = [...id];
  // %uXXXX spells one UTF-16 unit: a character beyond the BMP has none.
  const u = (c: string) => `%u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  const at = (i: number) => chars.map((c, j) => (j === i ? u(c) : encodeURIComponent(c))).join('');
  const last = chars.length - 1;
  const mid = chars.findIndex((c, i) => i >= Math.floor(chars.length / 2) && UNRESERVED.test(c));
  return [
    ...(last >= 0 && chars[last]!.length === 1
      ? [{ what: 'its last character as a %u escape (no percent-encoding, RFC 3986 2.1)', raw: at(last) }]
      : []),
    ...(mid >= 0 && mid !== last
      ? [{ what: 'a middle character as a %u escape (no percent-encoding, RFC 3986 2.1)', raw: at(mid) }]
      : []),
  ];
}

/**
 * Endings that make a path segment no percent-encoding of UTF-8 text, each a
 * partition of RFC 3986: pct-encoded is "%" HEXDIG HEXDIG (2.1), so a % with
 * nothing, one non-hex character, two, or a non-hex then a hex digit after it,
 * and a sequence cut after one hex digit (each at the end of the segment, so
 * nothing after it completes it); and characters are percent-encoded as their
 * UTF-8 octets (2.5, RFC 3629 3), so octets that decode as no UTF-8: a lone
 * continuation byte, a lead byte cut at the end, an overlong form of "/", an
 * encoded surrogate. `raw` is appended to a segment as sent. A server may
 * refuse them with any status; none names a resource that exists.
 */
export const MALFORMED_PERCENT_ENDINGS: ReadonlyArray<{ what: string; raw: string }> = [
  { what: 'a % and nothing after it', raw: '%' },
  { what: 'a % and one letter that is no hex digit', raw: '%Z' },
  { what: 'a % and two letters that are no hex digits', raw: '%ZZ' },
  { what: 'a % and a letter that is no hex digit, then a hex digit', raw: '%G0' },
  { what: 'a % and one hex digit, cut at the end', raw: '%4' },
  { what: 'a lone UTF-8 continuation byte', raw: '%80' },
  { what: 'a UTF-8 lead byte cut at the end', raw: '%C3' },
  { what: 'an overlong UTF-8 form of "/"', raw: '%C0%AF' },
  { what: 'a UTF-16 surrogate encoded as UTF-8', raw: '%ED%A0%80' },
];

// ------------------------------------------------------------ JWK key types and members

/**
 * The public key types a JWK holds for a JWS signature, each with the alg that
 * signs with it: EC on each curve RFC 7518 3.4 signs with (P-256, P-384,
 * P-521; members crv, x, y, 6.2.1), RSA (3.3; members n, e, base64url
 * strings, 6.3.1) and OKP Ed25519 (RFC 8037 2, 3.1; members crv, x). The
 * symmetric type (oct, HMAC, 3.2) is a shared secret, not a public key: it is
 * not one of them. Which types a server takes is not shown; EC P-256 is the
 * one the document's "EC" names with the curve every JOSE library offers.
 */
export const SIGNING_KEY_TYPES = [
  { what: 'EC P-256', alg: 'ES256' },
  { what: 'EC P-384', alg: 'ES384' },
  { what: 'EC P-521', alg: 'ES512' },
  { what: 'RSA', alg: 'RS256' },
  { what: 'OKP Ed25519', alg: 'EdDSA', crv: 'Ed25519' },
] as const;

export type SigningKeyType = (typeof SIGNING_KEY_TYPES)[number];

/**
 * The optional members of a JWK (RFC 7517 4.2 to 4.5: use, key_ops, alg, kid),
 * each present or absent. Present, each has the value a signing key of its
 * type carries: use "sig", key_ops ["verify"], alg its JWS algorithm.
 */
export interface OptionalJwkMembers {
  kid?: string;
  use?: boolean;
  key_ops?: boolean;
  alg?: boolean;
}

/**
 * How many distinct RSA key pairs a worker makes for an algorithm before it
 * hands them out again: more than any one request of a check holds (a set of
 * 25 keys with the key types in turn holds 5 RSA keys).
 */
export const RSA_KEY_POOL = 8;
const rsaPools = new Map<string, { pairs: Array<Promise<GenerateKeyPairResult>>; next: number }>();

/**
 * A key pair for `alg` (a JWS algorithm, or Ed25519), extractable. EC and
 * OKP pairs are made at each call (well under 2 ms). An RSA pair costs 80 to
 * 400 ms to make, so each worker makes RSA_KEY_POOL of them per algorithm,
 * all at the first call and side by side (Node makes them on its thread pool),
 * and then hands them out in turn: any RSA_KEY_POOL pairs in a row differ in
 * their key material. Keys are made afresh by every run, never read from a
 * file: a key a target wrongly kept has a private half nobody holds.
 */
export function keyPairFor(alg: string): Promise<GenerateKeyPairResult> {
  if (!/^(RS|PS)\d+$/.test(alg)) return generateKeyPair(alg, { extractable: true });
  const pool = rsaPool(alg);
  return pool.pairs[pool.next++ % RSA_KEY_POOL]!;
}

function rsaPool(alg: string): { pairs: Array<Promise<GenerateKeyPairResult>>; next: number } {
  let pool = rsaPools.get(alg);
  if (!pool) {
    const pairs = Array.from({ length: RSA_KEY_POOL }, () => made(generateKeyPair(alg, { extractable: true })));
    rsaPools.set(alg, (pool = { pairs, next: 0 }));
  }
  return pool;
}

const largerRsaPairs = new Map<number, Promise<GenerateKeyPairResult>>();

/** An RS256 key pair of `bits` (3072 and 4096 cost up to a second or more), one per size and worker. */
export function rsaKeyPairOfSize(bits: number): Promise<GenerateKeyPairResult> {
  let pair = largerRsaPairs.get(bits);
  if (!pair)
    largerRsaPairs.set(bits, (pair = made(generateKeyPair('RS256', { modulusLength: bits, extractable: true }))));
  return pair;
}

/**
 * Starts making this worker's RSA keys (the RS256 pool, and the larger `sizes`) on Node's thread pool, so
 * that the checks that send them later find them made, rather than each waiting out its own.
 */
export function startMakingRsaKeys(sizes: readonly number[]): void {
  rsaPool('RS256');
  sizes.forEach(rsaKeyPairOfSize);
}

/** A key being made, its failure left to whoever awaits it (not an unhandled rejection before that). */
function made<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/**
 * A public JWK of `type` (its key material differs from the other keys made
 * for this check: see keyPairFor), with the optional members asked for and
 * no other: `{}` gives kty and the type's key material alone.
 */
export async function publicSigningJwk(
  type: SigningKeyType,
  members: OptionalJwkMembers = {},
): Promise<Record<string, unknown>> {
  const { publicKey } = await keyPairFor('crv' in type ? type.crv : type.alg);
  return {
    ...(await exportJWK(publicKey)),
    ...(members.kid !== undefined ? { kid: members.kid } : {}),
    ...(members.use ? { use: 'sig' } : {}),
    ...(members.key_ops ? { key_ops: ['verify'] } : {}),
    ...(members.alg ? { alg: type.alg } : {}),
  };
}

/**
 * Spellings of an integer query parameter with the bounds `min`..`max` that
 * no reading makes an integer within them, by the shortcut that would take
 * each: digits followed by other characters (parseInt, strtol), a fraction
 * (truncation), an exponent beyond the bounds (parseInt stops at the e), values
 * that wrap a 32- or 64-bit integer into the bounds, negative zero, digit
 * separators and digits of other scripts (Python's int() reads both). A
 * lenient reading a correct server may have (a leading zero, a plus sign, an
 * exponent or hex literal that Number() reads within the bounds) is left out.
 */
export function integerQueryOutside(min: number, max: number): Array<{ what: string; value: string }> {
  const inside = String(min + 1);
  return [
    { what: 'digits then letters', value: `${inside}abc` },
    { what: 'digits then a comma and digits', value: `${inside},${min + 2}` },
    { what: 'digits then a space and digits', value: `${inside} ${min + 2}` },
    { what: 'a fraction below the maximum', value: `${max - 1}.5` },
    { what: 'an exponent beyond the maximum', value: `${inside}e3` },
    { what: 'the maximum plus one in a fraction', value: `${max + 1}.0` },
    { what: 'one more than 2^32 (wraps to 1 in 32 bits)', value: '4294967297' },
    { what: 'one more than 2^64 (wraps to 1 in 64 bits)', value: '18446744073709551617' },
    { what: 'minus 2^32 plus one (wraps to 1)', value: '-4294967295' },
    { what: 'negative zero', value: '-0' },
    { what: 'a digit separator', value: `${inside}_0` },
    { what: 'fullwidth digits', value: [...inside].map((d) => String.fromCodePoint(0xff10 + Number(d))).join('') },
    { what: 'Arabic-Indic digits', value: [...inside].map((d) => String.fromCodePoint(0x0660 + Number(d))).join('') },
    // RFC 3986 2.4: a query is decoded once; its last digit percent-encoded in the value goes as %25 and its hex,
    // a literal "%3N" once decoded, which a server decoding twice reads as the digit.
    {
      what: 'its last digit percent-encoded in the value (%25 on the wire)',
      value: `${inside.slice(0, -1)}${pct(inside.slice(-1))}`,
    },
    ...JSON_ESCAPED_CHARACTERS.slice(0, 2).map((c) => ({
      what: `digits then ${c.what} (RFC 8259 7: escaped where a message quotes it)`,
      value: `${inside}${c.char}`,
    })),
  ];
}

/**
 * RFC 8259 7: the characters a JSON string must escape (the quotation mark, the reverse solidus, the control
 * characters U+0000 to U+001F), each to go inside a value a server refuses. A refusal that quotes the value
 * into its message without escaping it answers a body that is no JSON text.
 */
export const JSON_ESCAPED_CHARACTERS: ReadonlyArray<{ what: string; char: string }> = [
  { what: 'a quotation mark', char: '"' },
  { what: 'a reverse solidus', char: '\\' },
  { what: 'a control character (U+0001)', char: '\u0001' },
  { what: 'a line feed', char: '\n' },
];

/**
 * RFC 8259 9: "An implementation may set limits on the maximum depth of nesting". Depths past what a recursive
 * copy, validator or serialiser of a body reaches on a default stack (a few thousand frames): a server takes the
 * body or refuses it as nested too deeply, never fails on it. The depths only, for nestedArraysJson.
 */
export const DEEP_NESTING = [5_000, 20_000] as const;

/**
 * The JSON text of `value` with `member` (which it must not hold) set to arrays nested `depth` deep, written as
 * text: JSON.stringify itself would recurse as deep as the nesting.
 */
export function withNestedMember(value: Record<string, unknown>, member: string, depth: number): string {
  const text = JSON.stringify({ ...value, [member]: null });
  const spot = `${JSON.stringify(member)}:null`;
  if (!text.includes(spot)) throw new Error(`withNestedMember: ${member} is already a member`);
  return text.replace(spot, `${JSON.stringify(member)}:${'['.repeat(depth)}${']'.repeat(depth)}`);
}

/**
 * The paging and projection parameters of list endpoints of the interface's kind (the v2 listings' page,
 * per_page, include_totals, fields, include_fields, sort; the event-stream listing's from and take), for a listing
 * that names none of them: ignored or refused, never a change of what the listing is. The first is the one sent
 * against an external target.
 */
export const LISTING_QUERIES: ReadonlyArray<Record<string, string>> = [
  { per_page: '10' },
  { page: '0', per_page: '1', include_totals: 'true' },
  { fields: 'id', include_fields: 'true' },
  { sort: 'created_at:-1' },
  { from: '0', take: '1' },
];

/**
 * Query parameters the interface does not name that a web framework or its middleware acts on by itself: JSONP's
 * callback (Express res.jsonp, jQuery's jsonp), a format switch (Rails and Django REST format, Symfony _format),
 * Google APIs' alt. A server ignores or refuses them; either way its answer is JSON (the document: bodies are
 * JSON unless stated). The first is the one sent against an external target.
 */
export const FRAMEWORK_QUERIES: ReadonlyArray<{ what: string; query: Record<string, string> }> = [
  { what: 'a JSONP callback (callback=)', query: { callback: 'conformanceCallback' } },
  { what: 'a JSONP callback (jsonp=)', query: { jsonp: 'conformanceCallback' } },
  { what: 'a format switch (format=xml)', query: { format: 'xml' } },
  { what: 'a format switch (_format=html)', query: { _format: 'html' } },
  { what: 'a media switch (alt=media)', query: { alt: 'media' } },
];

/**
 * RFC 9110 12.5.1: Accept values that admit application/json (a list, a
 * wildcard, weights), each to be met with the JSON answer as the plain
 * `application/json` is; clients send such lists by default. The first is
 * what most HTTP clients send.
 */
export const ADMITS_JSON = [
  'application/json, text/plain, */*',
  '*/*',
  'application/*',
  'text/html;q=0.9, application/json;q=0.8',
  // What a browser sends by default: HTML first, JSON admitted only by the wildcard.
  'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  // One of each class admitsJsonArb draws from, so every run meets each: a parameter, another case, a weight.
  'application/json; charset=utf-8',
  'Application/JSON;q=0.5',
] as const;

/**
 * Accept values that admit application/json, drawn from RFC 9110 12.5.1's grammar rather than listed: a media
 * range naming JSON (application/json, the application wildcard, the full wildcard) in any case (type, subtype and parameter names are
 * case-insensitive: 8.3.1), with parameters (a charset, quoted or not, in any case; a weight above 0 with up to
 * three decimals), optional white space around each ";" and "," (OWS: spaces or tabs), and other ranges before or
 * after it. Each admits JSON exactly as the plain `application/json` does: a server that compares the range as
 * a string, or the whole header, refuses one of them.
 */
export function admitsJsonArb(): fc.Arbitrary<string> {
  const anyCase = (s: string) =>
    fc
      .array(fc.boolean(), { minLength: s.length, maxLength: s.length })
      .map((up) => [...s].map((c, i) => (up[i] ? c.toUpperCase() : c.toLowerCase())).join(''));
  const ows = fc.constantFrom('', ' ', '  ', '\t');
  const weight = fc.oneof(
    fc.constantFrom('1', '1.0', '1.000', '0.001'),
    fc.integer({ min: 1, max: 999 }).map((n) => `0.${String(n).padStart(3, '0').replace(/0+$/, '')}`),
  );
  const param = (name: fc.Arbitrary<string>, value: fc.Arbitrary<string>) =>
    fc.tuple(ows, ows, name, value).map(([a, b, n, v]) => `${a};${b}${n}=${v}`);
  // application/json with its charset (RFC 8259 11: no effect on a recipient, yet clients send it), quoted or
  // not; any range with a weight last (12.4.2).
  const charset = fc.option(param(anyCase('charset'), fc.constantFrom('utf-8', 'UTF-8', '"utf-8"', '"UTF-8"')));
  const json = fc
    .tuple(
      fc.oneof(
        fc.tuple(anyCase('application/json'), charset).map(([r, c]) => r + (c ?? '')),
        anyCase('application/*'),
        fc.constant('*/*'),
      ),
      fc.option(param(anyCase('q'), weight)),
    )
    .map(([range, q]) => range + (q ?? ''));
  const other = fc.constantFrom('text/html', 'text/plain;q=0.5', 'application/xml;q=0.9', 'image/*;q=0.1');
  return fc
    .tuple(fc.array(other, { maxLength: 2 }), json, fc.array(other, { maxLength: 2 }), ows, ows)
    .map(([before, range, after, a, b]) => [...before, range, ...after].join(`${a},${b}`));
}

/**
 * Near spellings of a JSON member name, none of them the name: JSON matches
 * member names exactly, code unit by code unit (RFC 8259 8.3), so a body
 * holding only one of these lacks the member. Each is what a lenient reader
 * would fold onto the name: another case, white space around it, an invisible
 * character after it, a look-alike letter from another script.
 */
export function nearMemberNames(name: string): Array<{ what: string; name: string }> {
  return [
    { what: 'in upper case', name: name.toUpperCase() },
    { what: 'capitalised', name: name[0]!.toUpperCase() + name.slice(1) },
    { what: 'after a space', name: ` ${name}` },
    { what: 'before a space', name: `${name} ` },
    { what: 'before a zero-width space', name: `${name}\u200b` },
    {
      what: 'with a look-alike letter of another script',
      name: name.replace(/[aeopcsx]/, (c) => 'аеорсѕх'['aeopcsx'.indexOf(c)]!),
    },
  ].filter((n) => n.name !== name);
}

/**
 * A body holding member `name` one level down, under a wrapper a client
 * framework adds (JSON:API's data and data.attributes, a root named after
 * the resource as Rails' wrap_parameters writes it, and the generic body,
 * payload and params): the document puts the member at the top of the
 * body, so a body holding it only under a wrapper lacks it. What a server
 * that unwraps its clients' envelopes would read as the member.
 */
export function wrappedMember(
  name: string,
  value: unknown,
  resource: string,
): Array<{ what: string; body: Record<string, unknown> }> {
  const member = { [name]: value };
  return [
    { what: 'under data (JSON:API)', body: { data: member } },
    { what: 'under data.attributes (JSON:API)', body: { data: { type: `${resource}s`, attributes: member } } },
    { what: `under ${resource} (a root named after the resource)`, body: { [resource]: member } },
    { what: 'under body', body: { body: member } },
    { what: 'under payload', body: { payload: member } },
    { what: 'under params', body: { params: member } },
  ];
}

/**
 * An id with the case of its letters changed, where its own spelling shows
 * that case carries information: an id holding both upper- and lower-case
 * letters (the base58 ids the real deployment answers) names another id
 * when one letter's case changes (RFC 3986 6.2.2.1: only the scheme and host
 * are case-insensitive; a path segment is compared exactly). One letter,
 * every letter up, every letter down, every letter swapped (what a
 * case-insensitive collation folds onto the id, whichever way it folds).
 * None for an id in one case (a ULID, say, which may be read in either case).
 */
export function caseVariants(id: string): Array<{ what: string; raw: string; decoded: string }> {
  if (!/[a-z]/.test(id) || !/[A-Z]/.test(id)) return [];
  const flip = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());
  let last = -1;
  for (let i = 0; i < id.length; i++) if (/[A-Za-z]/.test(id[i]!)) last = i;
  return [
    {
      what: 'the case of its last letter changed',
      decoded: `${id.slice(0, last)}${flip(id[last]!)}${id.slice(last + 1)}`,
    },
    { what: 'every letter in upper case', decoded: id.toUpperCase() },
    { what: 'every letter in lower case', decoded: id.toLowerCase() },
    { what: 'every letter in the other case', decoded: [...id].map(flip).join('') },
  ]
    .filter((v) => v.decoded !== id)
    .map((v) => ({ ...v, raw: encodeURIComponent(v.decoded) }));
}

/**
 * A JSON text of `value` with every string (member names too) written as \uXXXX escapes, code unit by code unit:
 * once parsed, the same value (RFC 8259 7). A server that judges the raw text, not the parsed value, sees none of
 * its letters.
 */
export function escapedJson(value: unknown): string {
  const str = (s: string) =>
    `"${[...Array(s.length).keys()].map((i) => `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')}"`;
  const walk = (v: unknown): string => {
    if (typeof v === 'string') return str(v);
    if (Array.isArray(v)) return `[${v.map(walk).join(',')}]`;
    if (v !== null && typeof v === 'object')
      return `{${Object.entries(v as Record<string, unknown>)
        .map(([k, x]) => `${str(k)}:${walk(x)}`)
        .join(',')}}`;
    return JSON.stringify(v);
  };
  return walk(value);
}

/**
 * JSON texts RFC 8259 makes the same value as `JSON.stringify(value)`:
 * insignificant white space (2: space, tab, line feed, carriage return,
 * around every structural character and the whole text), every string and
 * member name spelt with \uXXXX escapes (7), the solidus escaped (7: "\/").
 * A server reading its bodies with a JSON parser reads each as the compact
 * text; one matching the raw bytes does not.
 */
export function jsonSpellings(value: unknown): Array<{ what: string; text: string }> {
  const compact = JSON.stringify(value);
  return [
    { what: 'pretty-printed (two spaces, line feeds)', text: JSON.stringify(value, null, 2) },
    {
      what: 'tabs and CRLF between its tokens and around the text',
      text: ` \r\n${JSON.stringify(value, null, '\t').replace(/\n/g, '\r\n')}\r\n\t`,
    },
    { what: 'every string and member name in \\u escapes', text: escapedJson(value) },
    ...(compact.includes('/') ? [{ what: 'the solidus escaped (\\/)', text: compact.replace(/\//g, '\\/') }] : []),
  ];
}

/** The elements a value holds as HTML, in tree order (names in lower case): what rendering it makes of its markup. */
export function elementsOf(value: string): string[] {
  return elementsIn(value).map((el) => el.tagName);
}

// ------------------------------------------------------------ blind round 39 (fix39-b)

/**
 * Near misses of an enum value sent as a path segment, each as sent (`raw`, already encoded) and named by
 * its class (`kind`): each near spelling of nearMissSpellings (case, padding, invisible characters, cut,
 * doubled, look-alike and compatibility letters, a literal "%XX", separators swapped), encoded as a segment
 * (RFC 3986 3.3); and what a router or framework strips from a last segment, or reads as something else,
 * before it matches the value: a format extension (Rails' .:format, Spring's suffix patterns, content
 * negotiation by extension), a matrix parameter (RFC 3986 3.3 keeps ";" inside the segment; servlet
 * containers strip ;jsessionid), a prefix, and an encoded "?" or "#" (a server that decodes before it splits
 * off the query or fragment). Each is another segment, so another value. Left out: a trailing slash (whether
 * /a/ is routed as /a the document does not address) and the spellings RFC 3986 makes the same segment (an
 * unreserved character percent-encoded: equivalentSegments).
 */
export function nearPathSegments(value: string): Array<{ kind: string; what: string; raw: string }> {
  const enc = encodeURIComponent(value);
  return [
    ...nearMissSpellings(value).map((v) => ({
      kind: 'a near spelling',
      what: `a near spelling ${JSON.stringify(v)}`,
      raw: encodeURIComponent(v),
    })),
    ...['.json', '.html', '.htm', '.xml', '.txt', '.JSON'].map((ext) => ({
      kind: 'a format extension',
      what: `a format extension ${ext} after it`,
      raw: `${enc}${ext}`,
    })),
    ...[';x', ';v=1', ';jsessionid=0'].map((p) => ({
      kind: 'a matrix parameter',
      what: `a matrix parameter ${p} after it`,
      raw: `${enc}${p}`,
    })),
    ...['_', 'x', 'my-'].map((p) => ({ kind: 'a prefix', what: `the prefix ${p}`, raw: `${p}${enc}` })),
    ...[
      { c: '?', raw: '%3F' },
      { c: '#', raw: '%23' },
    ].map(({ c, raw }) => ({
      kind: 'an encoded delimiter',
      what: `an encoded ${c} and more after it (${raw}x)`,
      raw: `${enc}${raw}x`,
    })),
  ].filter((v) => v.raw !== enc);
}

/**
 * Text keys a document store, a query language or a framework treats specially, each beside `control`, a key
 * spelt from it with nothing special in it (plain letters and underscores; a key no list of known keys holds
 * unless it holds any). A JSON member name is any string (RFC 8259 4, compared exactly 8.3), so each is a text
 * key like any other. The classes: an operator prefix (MongoDB refuses or drops field names starting with $),
 * a $ inside, a dot (a path in dotted-path stores: MongoDB, Firebase, lodash.set), a path's / and # (Firebase
 * refuses . $ # [ ] / and control characters in keys), brackets (qs and PHP read a[b] as nesting), a leading
 * underscore (private or reserved fields: CouchDB's _id, _rev), a leading @ (JSON-LD keywords), a colon (a
 * namespace prefix), a control character that is not NUL (a tab, U+001F, DEL), a character beyond the BMP (a
 * 3-byte utf8 column), and white space around the key (trimmed by some binders). Left out: the empty key
 * (a text key of no characters, which a server may well refuse: the allowed keys are not shown).
 */
export const STORE_SPECIAL_TEXT_KEYS: ReadonlyArray<{ what: string; key: string; control: string }> = [
  { what: 'a leading $', key: '$title', control: 'dollar_title_text' },
  { what: 'a leading $ and a dot', key: '$set.title', control: 'dollar_set_title_text' },
  { what: 'a $ inside', key: 'price$label', control: 'price_label_text' },
  { what: 'a dot inside', key: 'hero.title', control: 'hero_title_text' },
  { what: 'a dot first', key: '.hidden', control: 'dot_hidden_text' },
  { what: 'a slash', key: 'step/1', control: 'step_1_text' },
  { what: 'a hash', key: 'item#2', control: 'item_2_text' },
  { what: 'brackets', key: 'links[0]', control: 'links_0_text' },
  { what: 'brackets around a name', key: 'form[label]', control: 'form_label_text' },
  { what: 'a leading underscore', key: '_id', control: 'underscore_id_text' },
  { what: 'a leading @', key: '@type', control: 'at_type_text' },
  { what: 'a colon', key: 'ns:title', control: 'ns_title_text' },
  { what: 'a tab inside', key: 'tab\tkey', control: 'tab_key_text' },
  { what: 'a unit separator (U+001F) inside', key: 'unit\u001fkey', control: 'unit_key_text' },
  { what: 'DEL (U+007F) inside', key: 'del\u007fkey', control: 'del_key_text' },
  { what: 'a character beyond the BMP', key: 'party_🎉', control: 'party_emoji_text' },
  { what: 'a space first and last', key: ' padded ', control: 'padded_text' },
];

/** Words other APIs use for a member this document names, by the document's name. */
const MEMBER_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  status: ['state', 'State', 'phase', 'stage', 'target', 'to', 'new_state'],
};

/**
 * Names near a JSON member's that a lenient reader might take for it, beyond nearMemberNames' case and
 * white space: synonyms other APIs use for it (the target of a lifecycle move is `state` in v1 APIs and
 * GitHub's, `phase` in Kubernetes', ...), the name with an affix (an underscore either side, $ and @ first,
 * new_ and new, the plural), a tab before it, a NUL after it (a C string ends there), its letters in
 * fullwidth forms (NFKC folds them back), a letter as a literal "%XX" and as a literal "\uXXXX" (six
 * characters: the JSON text "st\\u0061tus"; "st\u0061tus" in JSON IS the name, RFC 8259 7, and is no near
 * miss). JSON matches member names exactly (RFC 8259 8.3): a body holding only one of these lacks the member.
 */
export function memberNameAliases(name: string): Array<{ what: string; name: string }> {
  const cap = name[0]!.toUpperCase() + name.slice(1);
  const mid = Math.floor(name.length / 2);
  const hex = (c: string) => c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  return [
    ...(MEMBER_SYNONYMS[name] ?? []).map((s) => ({ what: `as its synonym ${s}`, name: s })),
    { what: 'with a trailing underscore', name: `${name}_` },
    { what: 'with a leading underscore', name: `_${name}` },
    { what: 'with a leading $', name: `$${name}` },
    { what: 'with a leading @', name: `@${name}` },
    { what: 'prefixed new_', name: `new_${name}` },
    { what: 'prefixed new, in camelCase', name: `new${cap}` },
    { what: 'in the plural', name: /s$/.test(name) ? `${name}es` : `${name}s` },
    { what: 'after a tab', name: `\t${name}` },
    { what: 'before a NUL', name: `${name}\u0000` },
    { what: 'in fullwidth letters', name: compatible(name, 0xff21 - 0x41, 0xff41 - 0x61) },
    {
      what: 'with a letter as a literal %XX (percent-encoding is no JSON escape)',
      name: `${name.slice(0, mid)}${pct(name[mid]!)}${name.slice(mid + 1)}`,
    },
    {
      what: 'with a letter as a literal backslash-u escape (six characters once parsed)',
      name: `${name.slice(0, mid)}\\u${hex(name[mid]!)}${name.slice(mid + 1)}`,
    },
  ].filter((n, i, all) => n.name !== name && all.findIndex((m) => m.name === n.name) === i);
}
