/**
 * Partitions of how a request body is framed (RFC 9112 6): the suite's client sends every body with
 * Content-Length (harness/requests/client.ts); here the same bytes go with Transfer-Encoding: chunked
 * instead (RFC 9112 6.1, 7.1), whole in one chunk, cut in two halves (inside a token, inside a UTF-8
 * sequence where the cut falls in one), and a chunk per byte. "A recipient MUST be able to parse the
 * chunked transfer coding" (RFC 9112 7.1); a server that wants a length first may answer 411 Length
 * Required (RFC 9110 15.5.12), which a check accepts and only observes.
 *
 * A chunked body is sent by the client (its `chunks` option): undici sends a body of unknown length, a
 * stream, chunked over HTTP/1.1, each piece it reads a chunk, and the exchange is evidence like any other
 * (Transfer-Encoding shown among the request's headers, so the curl line replays it chunked; never the token).
 */
import type { Api, Exchange } from '../requests/client.ts';

/** One way of cutting a body's bytes into the chunks of a chunked message (none of them empty). */
export interface ChunkedFraming {
  what: string;
  cut: (bytes: Buffer) => Buffer[];
}

/** The body cut at its middle byte: inside a token of a short JSON or form body, and inside a UTF-8 sequence where one sits there. */
const halves = (b: Buffer): Buffer[] => {
  const mid = Math.floor(b.length / 2);
  return mid === 0 ? [b] : [b.subarray(0, mid), b.subarray(mid)];
};

/**
 * The chunked framings of a body (RFC 9112 7.1: chunk sizes are the sender's choice; the content is the
 * chunks' data put together). A server reading the body by Content-Length, or a chunk at a time, sees another
 * body in one of them.
 */
export const CHUNKED_FRAMINGS: readonly ChunkedFraming[] = [
  { what: 'Transfer-Encoding: chunked, the body in one chunk', cut: (b) => [b] },
  { what: 'Transfer-Encoding: chunked, the body cut in two halves', cut: halves },
  {
    what: 'Transfer-Encoding: chunked, a chunk per byte',
    cut: (b) => [...b].map((x) => Buffer.from([x])),
  },
];

/** RFC 9110 15.5.12: the server refuses to take a body without a Content-Length (allowed; not a verdict). */
export const LENGTH_REQUIRED = 411;

/**
 * Sends `body` (UTF-8) to `path` under {base_url} with the run's token, framed chunked as `framing` cuts it
 * (the client's `chunks`). Throws, as every write does, where writes are off.
 */
export function sendChunked(
  api: Api,
  method: 'POST' | 'PUT',
  path: string,
  body: string,
  contentType: string,
  framing: ChunkedFraming,
): Promise<Exchange> {
  return api.send(method, path, { chunks: framing.cut(Buffer.from(body, 'utf8')), contentType });
}

/**
 * Spellings of a custom-text key by the characters around a separator (the document leaves the allowed keys
 * open: "object of string keys", each a JSON member name, compared exactly, RFC 8259 8.3): an underscore, a
 * hyphen or a dot before a letter or a digit, capitals around one, a separator first, last or doubled, the
 * separators mixed. A serialiser that rewrites member names (camelCase, snake_case, kebab-case) rewrites some
 * of them and leaves the others, so every category is tried.
 */
export const TEXT_KEY_SPELLINGS: ReadonlyArray<{ what: string; keys: readonly string[] }> = [
  { what: 'an underscore before a letter', keys: ['footer_link_text'] },
  { what: 'a hyphen before a letter', keys: ['button-label'] },
  { what: 'an underscore before a digit', keys: ['step_2'] },
  { what: 'a hyphen before a digit', keys: ['line-1'] },
  { what: 'a dot before a letter', keys: ['signup.title'] },
  { what: 'a dot before a digit', keys: ['item.3'] },
  { what: 'capitals around an underscore', keys: ['FOOTER_NOTE'] },
  { what: 'a capital after a hyphen', keys: ['Sign-Up'] },
  { what: 'a leading underscore', keys: ['_hint'] },
  { what: 'a trailing hyphen', keys: ['note-'] },
  { what: 'two underscores in a row', keys: ['help__text'] },
  { what: 'a dot, a hyphen and an underscore', keys: ['form.field-name_label'] },
  // Two keys one rewriting folds together, the camelCase one first: each maps to its own value.
  { what: 'a key beside its camelCase spelling', keys: ['buttonLabel', 'button_label'] },
  { what: 'a key beside its snake_case spelling', keys: ['footer_text', 'footerText'] },
];

/**
 * Text keys named like a member of Object.prototype (ECMA-262 20.1.3, and the accessors of Annex B.2.2): a JSON member
 * name is any string (RFC 8259 4), so each is a text key like any other. A server that keeps its map, or the keys it
 * has seen, in a plain object reads `key in seen` or `seen[key]` through the prototype and takes these for present
 * (or calls its own member), and drops or overwrites them. Each goes beside `control`, a key spelt from it that names
 * no member: a server that keeps a key it does not know keeps both, one that keeps only the keys it knows keeps
 * neither (the allowed text keys are not shown). `__proto__` is left apart (PROTO_KEY).
 */
export const PROTOTYPE_MEMBER_KEYS: ReadonlyArray<{ key: string; control: string }> = [
  'constructor',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  'toString',
  'valueOf',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
].map((key) => ({ key, control: `${key}_text` }));

/**
 * The one member of Object.prototype that is an accessor of the object's prototype (ECMA-262 B.2.2.1): a JSON parser
 * that guards against prototype poisoning refuses a body naming it (fastify's secure-json-parse answers 400), which
 * the document leaves open. Sent only to be observed, written into the JSON text (an object literal's `__proto__`
 * sets the prototype, and JSON.stringify would leave it out).
 */
export const PROTO_KEY = '__proto__';
