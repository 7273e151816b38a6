/**
 * The HTML a custom text value may hold: "plain text or rich HTML limited to
 * basic styling tags and hyperlinks" (Resources: Self-service profile custom
 * text). The emulator reads that as an allow-list, checked with htmlparser2:
 *
 *  - tags: b, strong, i, em, u, br, p, span, div, ul, ol, li, small, sup, sub, a;
 *  - attributes: class, title, dir, lang, style (no url(), expression(),
 *    @import, behavior, CSS escapes or script URLs inside); on `a` also
 *    href, target, rel; no attribute value may be a javascript:, vbscript:
 *    or data: URL;
 *  - href: an absolute http:, https: or mailto: URL;
 *  - refused: every other tag (script, style, iframe, svg, img, form, ...),
 *    every on* attribute, comments, CDATA, processing instructions/doctypes.
 *
 * `htmlViolation(value)` answers the first violation as a short sentence, or
 * undefined when the value is acceptable. A value is read alone and as the
 * page reads it, followed by markup: a tag the value leaves open is checked
 * as the page's markup completes it.
 */
import { Parser } from 'htmlparser2';

export const ALLOWED_TAGS: ReadonlySet<string> = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'br',
  'p',
  'span',
  'div',
  'ul',
  'ol',
  'li',
  'small',
  'sup',
  'sub',
  'a',
]);
const COMMON_ATTRIBUTES: ReadonlySet<string> = new Set(['class', 'title', 'dir', 'lang', 'style']);
const LINK_ATTRIBUTES: ReadonlySet<string> = new Set(['href', 'target', 'rel']);
const LINK_SCHEMES = /^(?:https?:\/\/|mailto:)/i;
/** No attribute value may be a script URL (after removing whitespace and control characters). */
const SCRIPT_URL = /^(?:javascript|vbscript|data):/i;
/** What a style attribute may not hold: script URLs, resource loads, legacy script hooks, CSS escapes. */
const DANGEROUS_STYLE = /javascript:|vbscript:|expression\(|url\(|@import|behavior|-moz-binding|[<>\\]/i;

function squash(value: string): string {
  // Browsers ignore these inside a scheme ("java\tscript:"), so the check does too.
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u0020\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\ufeff]/g, '');
}

export function htmlViolation(value: string): string | undefined {
  // A value that ends inside a tag (its name, an attribute, a quoted value) is completed by whatever markup the
  // page puts after it: `Hello <b onclick="alert(1)//` is a live handler there. Checked as the page would read it,
  // with the quotes and the > that end any tag state after it.
  return violationIn(value) ?? violationIn(`${value}"'>`);
}

function violationIn(value: string): string | undefined {
  let violation: string | undefined;
  // Set by onopentagname before htmlparser2 reports any attribute of the tag.
  let tag: string | undefined;
  const fail = (why: string) => {
    violation ??= why;
  };
  // htmlparser2 12's defaults in HTML mode: entities decoded, tag and attribute names lower-cased; a CDATA
  // section is read as a comment (oncomment). An end tag is reported only for an element reported open (refused
  // there if not allowed), or for a stray </br> or </p>; other stray end tags are strayEndTag's.
  const parser = new Parser({
    onopentagname(name) {
      tag = name;
      if (!ALLOWED_TAGS.has(name)) fail(`tag <${name}> is not allowed`);
    },
    onattribute(name, attrValue) {
      if (name.startsWith('on')) return fail(`event handler attribute ${name} is not allowed`);
      const allowed = COMMON_ATTRIBUTES.has(name) || (tag === 'a' && LINK_ATTRIBUTES.has(name));
      if (!allowed) return fail(`attribute ${name} is not allowed on <${tag}>`);
      const squashed = squash(attrValue);
      if (SCRIPT_URL.test(squashed)) return fail(`attribute ${name} holds a script URL`);
      if (name === 'style' && DANGEROUS_STYLE.test(squashed))
        return fail('style attribute holds a forbidden construct');
      if (name === 'href' && !LINK_SCHEMES.test(squashed)) fail('href must be an absolute http, https or mailto URL');
    },
    oncomment() {
      fail('HTML comments are not allowed');
    },
    onprocessinginstruction(name) {
      fail(`declaration <${name}> is not allowed`);
    },
  });
  parser.write(value);
  parser.end();
  return violation ?? strayEndTag(value);
}

/** htmlparser2 drops end tags that close nothing ("</script>"); those of names not allowed are refused too. */
function strayEndTag(value: string): string | undefined {
  for (const m of value.matchAll(/<\/\s*([A-Za-z][^\s/>]*)/g)) {
    const name = m[1]!.toLowerCase();
    if (!ALLOWED_TAGS.has(name)) return `tag </${name}> is not allowed`;
  }
  return undefined;
}
