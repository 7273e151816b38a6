/**
 * Endpoints 5. Get an event stream: GET /event-streams/{id}
 * Endpoints 6. List event streams: GET /event-streams?take=&from=
 * Success codes, error statuses, scope and the last page's form: not shown (observed).
 */
import type { Api, Exchange } from '../harness/requests/client.ts';
import type { Config } from '../harness/run/config.ts';
import {
  must,
  mustBeJson,
  mustMatchSchema,
  mustRefuse,
  mustSucceed,
  observe,
  requestLine,
  mustBeJsonErrorBody,
} from '../harness/vocabulary/must.ts';
import { skipBeyondReadOnlyBudget, test } from '../harness/fixtures/fixtures.ts';
import { customTextPath, withCustomTextRestored } from '../harness/fixtures/restore.ts';
import { authChecks } from '../harness/vocabulary/auth-checks.ts';
import { fc, fcParams } from '../harness/vocabulary/properties.ts';
import { declareRules, schemaRules } from '../harness/vocabulary/declare.ts';
import { pathOf } from '../spec/operations.ts';
import { caseVariants, equivalentSegments, integerQueryOutside, nearIds } from '../harness/vocabulary/partitions.ts';
import { canonicalJson, sameJson } from '../harness/vocabulary/json.ts';

const LIST = pathOf('event-streams.list');
const one = (id: string) => `${LIST}/${encodeURIComponent(id)}`;
/** Bounds a walk: no tenant holds more streams than this in a conformance run. */
const MAX_PAGES = 60;

interface Page {
  eventStreams: Array<{ id?: string }>;
  next?: string;
}

async function page(
  api: Api,
  query: Record<string, string | number | undefined>,
): Promise<{ ex: Exchange; body: Page }> {
  const ex = await api.get(LIST, { query });
  return { ex, body: ex.json as Page };
}

const reads = new Map<string, Promise<{ ex: Exchange; body: Page }>>();
// The file's checks run in one worker, in order, so that they share the reads above: how many requests a run
// sends (a read-only run's budget) does not depend on how the checks fell to the workers.
test.describe.configure({ mode: 'default' });
/**
 * A page read once per worker and target, for the checks that judge a single answer (what take allows,
 * the default page size) or need the streams it lists; walks and relations read afresh.
 */
function readOnce(api: Api, config: Config, query: { take?: number }): Promise<{ ex: Exchange; body: Page }> {
  const key = `${config.baseUrl} ${query.take ?? ''}`;
  if (!reads.has(key)) reads.set(key, page(api, query));
  return reads.get(key)!;
}
/** The next cursor of the listing's first page at take=1 (read once), or undefined where it has none. */
async function nextCursor(api: Api, config: Config): Promise<string | undefined> {
  const first = (await readOnce(api, config, { take: 1 })).body as Partial<Page> | undefined;
  return typeof first?.next === 'string' && first.next !== '' ? first.next : undefined;
}
const NO_NEXT = 'The first page of one stream has no next cursor: the target lists one stream or none';

/** The listing's first page at take=100: the streams the checks of single streams address. */
const firstPage = async (api: Api, config: Config) =>
  (await readOnce(api, config, { take: 100 })).body as Partial<Page> | undefined;

/** Whether a page ends the walk: next absent or empty, or no items (the last page's form is not shown). */
const isLast = (p: Page) => !p.next || p.eventStreams.length === 0;

/**
 * "take: Results per page": a page holds at most take items, and a page
 * with fewer holds the last of them — no item follows it. Whether the last
 * page carries next (leading to an empty page) is not shown, so a short page
 * with next is fine as long as the page after it is empty.
 */
function checkPageSize(ex: Exchange, body: Page, size: number, shortBefore: Exchange | undefined): void {
  must('event-streams.list.take.page-size', body.eventStreams.length <= size, {
    expected: `at most ${size} items`,
    actual: `${body.eventStreams.length} items`,
    exchange: ex,
  });
  if (!shortBefore) return;
  must('event-streams.list.take.page-size', body.eventStreams.length === 0, {
    expected: `no item after a page of fewer than ${size} (${requestLine(shortBefore)})`,
    actual: `${body.eventStreams.length} items on the page after it`,
    exchange: ex,
  });
}

/** Walks every page by next; checks termination, duplicates and page sizes on the way. */
async function walk(
  api: Api,
  take: number | undefined,
  /** Send take on the first page only, and follow next without it (the default size, 50, from there). */
  takeOnFirstOnly = false,
  maxPages = MAX_PAGES,
  /** Given, the first page is the one this worker read already (readOnce). */
  config?: Config,
  /** Given, what the check does between two pages (after each page with a next): `what` says it, for a duplicate. */
  meanwhile?: { between: (page: Page, n: number) => Promise<void>; what: () => string },
): Promise<{ ids: string[]; streams: Array<{ id?: string }>; pages: number; last: Page }> {
  const ids: string[] = [];
  const streams: Array<{ id?: string }> = [];
  const followed = new Set<string>();
  let from: string | undefined;
  let shortBefore: Exchange | undefined;
  for (let n = 1; ; n++) {
    const sent = takeOnFirstOnly && n > 1 ? undefined : take;
    const { ex, body } =
      n === 1 && config ? await readOnce(api, config, { take: sent }) : await page(api, { take: sent, from });
    mustSucceed('event-streams.list.success', ex);
    mustMatchSchema('event-stream-page', body, ex);
    const size = sent ?? 50;
    checkPageSize(ex, body, size, shortBefore);
    for (const s of body.eventStreams) {
      must('event-streams.list.next.no-duplicates', !ids.includes(s.id!), {
        expected: 'each stream once in a walk',
        actual: `stream ${s.id} again on page ${n}${meanwhile ? ` (${meanwhile.what()})` : ''}`,
        exchange: ex,
      });
      ids.push(s.id!);
      streams.push(s);
    }
    if (isLast(body)) return { ids, streams, pages: n, last: body };
    must('event-streams.list.next.terminates', n < maxPages, {
      expected: `a last page within ${maxPages} pages`,
      actual: `page ${n} still has next`,
      exchange: ex,
    });
    // A cursor already followed leads to a page already read: following next would go round for ever.
    must('event-streams.list.next.terminates', !followed.has(body.next!), {
      expected: 'a next never given before in this walk',
      actual: `page ${n} gives again the next ${JSON.stringify(body.next)}`,
      exchange: ex,
    });
    followed.add(body.next!);
    await meanwhile?.between(body, n);
    shortBefore = body.eventStreams.length < size ? ex : undefined;
    from = body.next;
  }
}

test.describe('event streams @event-streams', () => {
  const held = declareRules('event-streams.get.success', 'event-streams.list.success', 'event-streams.get.same-stream');
  test(
    'should list every event stream the tenant is known to hold (CONFORMANCE_EVENT_STREAM_IDS), each as its GET answers it, read by its id before this check lists it (relation: the listing is of the streams the tenant holds)',
    held,
    async ({ api, config }) => {
      test.skip(
        !config.eventStreamIds.length,
        'CONFORMANCE_EVENT_STREAM_IDS is not set: which streams the tenant holds is unknown, so an empty listing cannot be told from an empty tenant',
      );
      skipBeyondReadOnlyBudget(config, 'these requests are');
      // Each known stream by its id first, before this check lists any (ten at most, spread over the list): a
      // stream is read by its id whether or not a listing showed it before (a GET served from what the listing
      // cached answers only streams already listed). Then the listing as read (its own rules are decided by the
      // walks), each stream the same in both.
      const step = Math.ceil(config.eventStreamIds.length / 10);
      const gets: Array<[string, Exchange]> = [];
      for (const id of config.eventStreamIds.filter((_, i) => i % step === 0).reverse()) {
        const ex = await api.get(pathOf('event-streams.get', { id }));
        gets.push([id, ex]);
        must(held.eventStreamsGetSuccess, ex.status === 200 && (ex.json as { id?: unknown })?.id === id, {
          expected: `200 and stream ${id}: CONFORMANCE_EVENT_STREAM_IDS names it as a stream the tenant holds`,
          actual: `status ${ex.status}, id ${JSON.stringify((ex.json as { id?: unknown })?.id ?? null)}`,
          exchange: ex,
        });
      }
      const listed = new Map<string, unknown>();
      let last: Exchange | undefined;
      for (let from: string | undefined, n = 0; n < MAX_PAGES; n++) {
        const { ex, body } = await page(api, { take: 100, from });
        last = ex;
        if (ex.status < 200 || ex.status >= 300 || !Array.isArray(body?.eventStreams)) break;
        for (const s of body.eventStreams) listed.set(String(s.id), s);
        if (isLast(body)) break;
        from = body.next;
      }
      for (const [id, ex] of gets) {
        must(held.eventStreamsListSuccess, listed.has(id), {
          expected: `stream ${id}, which GET answers, among the ${listed.size} streams the listing walk showed`,
          actual: `not listed (ids listed: ${[...listed.keys()].slice(0, 10).join(', ') || 'none'})`,
          exchange: last,
        });
        must(held.eventStreamsGetSameStream, sameJson(ex.json, listed.get(id)), {
          expected: `GET /event-streams/${id} answers the stream as the listing shows it`,
          actual: ex.text.slice(0, 200),
          exchange: ex,
        });
      }
    },
  );

  const success = declareRules('event-streams.list.success', 'http.json-bodies', schemaRules('event-stream-page'));
  test('should list a page of event streams', success, async ({ api, config }) => {
    const { ex, body } = await readOnce(api, config, {});
    mustSucceed(success.eventStreamsListSuccess, ex);
    mustBeJson(success.httpJsonBodies, ex);
    mustMatchSchema('event-stream-page', body, ex);
    observe('event-streams.status', 'list answered', String(ex.status));
  });

  for (const take of [1, 50, 100]) {
    const range = declareRules('event-streams.list.take.range', 'event-streams.list.take.page-size');
    test(`should accept take=${take} and return at most ${take} streams`, range, async ({ api, config }) => {
      const { ex, body } = await readOnce(api, config, { take });
      mustSucceed(range.eventStreamsListTakeRange, ex);
      must(range.eventStreamsListTakePageSize, body.eventStreams.length <= take, {
        expected: `at most ${take} streams`,
        actual: `${body.eventStreams.length}`,
        exchange: ex,
      });
    });
  }

  for (const take of ['0', '101', '-1', '1.5', 'ten']) {
    const range2 = declareRules('event-streams.list.take.range', 'http.json-error-bodies');
    test(`should refuse take=${take}`, range2, async ({ api }) => {
      const { ex } = await page(api, { take });
      mustRefuse(range2.eventStreamsListTakeRange, ex, `take=${take} is outside the integers 1 to 100`);
      mustBeJsonErrorBody(range2, ex);
    });
  }

  // The range holds on every page: a request with from (the next page's cursor) may be read apart.
  const withFrom = declareRules(
    'event-streams.list.take.range',
    'event-streams.list.take.page-size',
    'http.json-error-bodies',
  );
  test(
    "should refuse take outside 1..100 with from, the next page's cursor, beside it, and accept 1 and 100 there",
    withFrom,
    async ({ api, config }) => {
      skipBeyondReadOnlyBudget(config, 'the take partitions with a cursor are');
      const from = await nextCursor(api, config);
      test.skip(from === undefined, NO_NEXT);
      for (const take of ['0', '101', '-1', '1.5', 'ten']) {
        const { ex } = await page(api, { take, from: from! });
        mustRefuse(
          withFrom.eventStreamsListTakeRange,
          ex,
          `take=${take} is outside the integers 1 to 100 (with from=${from})`,
        );
        mustBeJsonErrorBody(withFrom, ex);
      }
      for (const take of [1, 100]) {
        const { ex, body } = await page(api, { take, from: from! });
        mustSucceed(withFrom.eventStreamsListTakeRange, ex);
        checkPageSize(ex, body, take, undefined);
      }
    },
  );

  const spelt = declareRules('event-streams.list.take.range', 'http.json-error-bodies');
  test(
    'should refuse every spelling of take that no reading makes an integer from 1 to 100: digits then other characters, a fraction, an exponent or a wrap past the range, negative zero, digit separators, digits of other scripts',
    spelt,
    async ({ api, config }) => {
      const all = integerQueryOutside(1, 100);
      // Against an external target, the first of each shortcut (letters, a fraction, an exponent, a wrap); in a
      // read-only run, within its request budget, digits then letters alone (parseInt's reading).
      const external = config.writes === 'none' ? [0] : [0, 3, 4, 6];
      for (const [i, { what, value }] of all.entries()) {
        if (!config.embedded && !external.includes(i)) continue;
        const { ex } = await page(api, { take: value });
        mustRefuse(spelt.eventStreamsListTakeRange, ex, `take=${value} (${what}) is no integer from 1 to 100`);
        mustBeJsonErrorBody(spelt, ex);
      }
    },
  );

  const range3 = declareRules('event-streams.list.take.range');
  test('should refuse any take outside 1..100 (property)', range3, async ({ api, config }) => {
    // The fixed points (0, 101, -1, a fraction, letters) decide the rule in a read-only run.
    skipBeyondReadOnlyBudget(config, 'the drawn values of take are');
    const outside = fc.oneof(fc.integer({ min: -1000, max: 0 }), fc.integer({ min: 101, max: 100_000 }));
    await fc.assert(
      fc.asyncProperty(outside, async (take) => {
        mustRefuse(
          range3.eventStreamsListTakeRange,
          (await page(api, { take })).ex,
          `take=${take} is outside 1 to 100`,
        );
      }),
      fcParams(config, 15),
    );
  });

  const range4 = declareRules('event-streams.list.take.range', 'event-streams.list.take.page-size');
  test('should accept any take in 1..100 and size the page by it (property)', range4, async ({ api, config }) => {
    // Against an external target the page after a short page is read once a run, whatever the draws, so
    // that the run's request count does not depend on them (its budget).
    let followed = false;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 100 }), async (take) => {
        const { ex, body } = await page(api, { take });
        mustSucceed(range4.eventStreamsListTakeRange, ex);
        checkPageSize(ex, body, take, undefined);
        if (isLast(body) || body.eventStreams.length === take || (followed && !config.embedded)) return;
        followed = true;
        // A short page with next: the page after it must be empty.
        const after = await page(api, { take, from: body.next });
        checkPageSize(after.ex, after.body, take, ex);
      }),
      fcParams(config, 10),
    );
  });

  const takeDefault = declareRules('event-streams.list.take.default');
  test('should size a page as take=50 when take is absent', takeDefault, async ({ api, config }) => {
    const dflt = await readOnce(api, config, {});
    const fifty = await readOnce(api, config, { take: 50 });
    mustSucceed(takeDefault.eventStreamsListTakeDefault, dflt.ex);
    must(takeDefault.eventStreamsListTakeDefault, dflt.body.eventStreams.length === fifty.body.eventStreams.length, {
      expected: `the same number of streams as take=50 (${fifty.body.eventStreams.length})`,
      actual: `${dflt.body.eventStreams.length} streams`,
      exchange: dflt.ex,
    });
  });

  const terminates = declareRules(
    'event-streams.list.next.terminates',
    'event-streams.list.next.no-duplicates',
    'event-streams.list.next.no-gap',
    'event-streams.list.take.page-size',
    schemaRules('event-stream-page'),
  );
  test('should walk every page by next with no duplicate, no gap, and an end', terminates, async ({ api, config }) => {
    const big = await walk(api, 100, false, MAX_PAGES, config);
    observe(
      'event-streams.list.last-page',
      'next on the last page',
      big.last.next === undefined ? 'absent' : big.last.next === '' ? 'empty string' : `present, then an empty page`,
      { items: big.last.eventStreams.length },
    );
    // The same sequence, every stream equal in every field, whatever the page size: pages read by next
    // join up exactly (each next resumes right after the page it ends), with take, without it, and
    // with take on the first page only (from then honoured without take).
    const same = async (take: number | undefined, firstOnly: boolean) => {
      // The pages such a walk needs, and two more: a walk past them does not end.
      const bound = Math.ceil(big.ids.length / (firstOnly ? 50 : (take ?? 50))) + 2 + (firstOnly ? 1 : 0);
      const other = await walk(api, take, firstOnly, Math.max(MAX_PAGES, bound), config);
      const a = big.streams.map(canonicalJson);
      const b = other.streams.map(canonicalJson);
      const at = a.findIndex((x, i) => x !== b[i]);
      const how = `take=${take ?? '(absent)'}${firstOnly ? ' on the first page, then next alone' : ''}`;
      must(terminates.eventStreamsListNextNoGap, a.length === b.length && at === -1, {
        expected: `the walk with ${how} gives the ${big.ids.length} streams of the take=100 walk, in its order, each the same`,
        actual:
          at === -1
            ? `${b.length} streams`
            : `position ${at}: ${big.ids[at] ?? '(none)'} expected, ${other.ids[at] ?? '(none)'} read${big.ids[at] === other.ids[at] ? ' (the same id, other fields)' : ''}`,
      });
    };
    await same(undefined, false);
    if (config.embedded) await same(50, false);
    // Generated page sizes: a small one makes many pages (bounded against an external target).
    const few = Math.max(1, Math.ceil(big.ids.length / (config.embedded ? 5 : 2)));
    for (const take of config.embedded ? [1, 7, few, 99] : [few]) await same(take, false);
    await same(config.embedded ? 3 : few, true);
    // Relation: two walks of other page sizes advanced in turn with the same token each give that sequence: a
    // page is what its cursor names, never what the token read last.
    const sizes = config.embedded ? [10, 20] : [few, few + 1];
    const walks = sizes.map((take) => ({
      take,
      ids: [] as string[],
      from: undefined as string | undefined,
      done: false,
    }));
    const bound = Math.max(MAX_PAGES, Math.ceil(big.ids.length / Math.min(...sizes)) + 2);
    for (let n = 0; n < bound && walks.some((w) => !w.done); n++)
      for (const w of walks.filter((x) => !x.done)) {
        const { ex, body } = await page(api, { take: w.take, from: w.from });
        mustSucceed('event-streams.list.success', ex);
        w.ids.push(...(Array.isArray(body?.eventStreams) ? body.eventStreams.map((x) => String(x.id)) : []));
        if (isLast(body)) w.done = true;
        else w.from = body.next;
      }
    for (const w of walks) {
      const at = big.ids.findIndex((id, i) => id !== w.ids[i]);
      must(terminates.eventStreamsListNextNoGap, at === -1 && w.ids.length === big.ids.length, {
        expected: `the walk with take=${w.take}, advanced in turn with one of take=${sizes.find((t) => t !== w.take)} on the same token, gives the ${big.ids.length} streams of the take=100 walk, in its order`,
        actual:
          at === -1
            ? `${w.ids.length} streams`
            : `position ${at}: ${big.ids[at]} expected, ${w.ids[at] ?? '(none)'} read`,
      });
    }
  });

  /**
   * Relation between a walk and the reads made during it: GET is safe (RFC 9110 9.2.1: reading is not writing), so
   * reading streams by id between the pages of a walk changes nothing the walk returns. After each page: its last
   * stream (the one its next may name), its first, one of the first page (a further one on each page), and the
   * stream the plain walk lists after this page's last (not yet listed). Each page size the walks above use, against
   * an external target the one of about two pages. Judged against the plain walks taken just before and just after:
   * where those two differ (streams created or deleted by others meanwhile), only the duplicates are judged.
   */
  const readMeanwhile = declareRules(
    'event-streams.list.next.terminates',
    'event-streams.list.next.no-duplicates',
    'event-streams.list.next.no-gap',
    'event-streams.list.take.page-size',
    schemaRules('event-stream-page'),
  );
  test(
    'should walk every page by next to the same streams in the same order, no duplicate and no gap, whatever streams are read by id during the walk, listed ones and ones not yet listed (relation: GET is safe, RFC 9110 9.2.1)',
    readMeanwhile,
    async ({ api, config }) => {
      const before = await walk(api, 100);
      test.skip(before.ids.length < 2, 'The target lists fewer than two event streams: no walk has two pages');
      const few = Math.max(1, Math.ceil(before.ids.length / (config.embedded ? 5 : 2)));
      const walks: Array<{ how: string; ids: string[]; reads: string[] }> = [];
      for (const take of config.embedded ? [few, 7, 1, undefined] : [few]) {
        const how = `take=${take ?? '(absent)'}`;
        const reads: string[] = [];
        let firstIds: string[] = [];
        const bound = Math.max(MAX_PAGES, Math.ceil(before.ids.length / (take ?? 50)) + 2);
        const between = async (p: Page, n: number) => {
          const listed = p.eventStreams.map((s) => String(s.id));
          if (n === 1) firstIds = listed;
          const last = listed[listed.length - 1]!;
          const at = before.ids.indexOf(last);
          const ahead = at === -1 ? undefined : before.ids[at + 1];
          for (const id of new Set([last, listed[0]!, firstIds[(n - 1) % firstIds.length]!, ahead])) {
            if (id === undefined) continue;
            await api.get(one(id));
            reads.push(id);
          }
        };
        const what = () =>
          `walk with ${how}, streams read by id after each page so far: ${reads.slice(-8).join(', ')}${reads.length > 8 ? ` (last 8 of ${reads.length})` : ''}`;
        const read = await walk(api, take, false, bound, undefined, { between, what });
        walks.push({ how, ids: read.ids, reads });
      }
      const after = await walk(api, 100);
      // The plain walks disagree: the listing changed meanwhile (by others), so no walk can be held to either.
      if (before.ids.join() !== after.ids.join()) {
        test.info().annotations.push({
          type: 'note',
          description: `The plain walks at take=100 before and after the walks with reads differ (${before.ids.length} and ${after.ids.length} streams): the listing changed meanwhile, so the walks with reads were judged for duplicates only`,
        });
        return;
      }
      for (const w of walks) {
        const at = before.ids.findIndex((id, i) => id !== w.ids[i]);
        must(readMeanwhile.eventStreamsListNextNoGap, at === -1 && w.ids.length === before.ids.length, {
          expected: `the walk with ${w.how}, ${w.reads.length} streams read by id during it, gives the ${before.ids.length} streams of the plain take=100 walks taken before and after it, in their order (GET is safe: RFC 9110 9.2.1)`,
          actual:
            at === -1
              ? `${w.ids.length} streams`
              : `position ${at}: ${before.ids[at]} expected, ${w.ids[at] ?? '(none)'} read${w.reads.includes(before.ids[at]!) ? ` (${before.ids[at]} was read by id during the walk)` : ''}`,
        });
      }
    },
  );

  const asListed = declareRules(
    'event-streams.get.success',
    'event-streams.get.same-stream',
    'http.path-id.percent-encoding',
  );
  test(
    'should get every listed stream by id equal, in every field, to its listing entry, its id spelt canonically or in a spelling RFC 3986 makes the same',
    asListed,
    async ({ api, config }) => {
      // The listing as read (its own rules are decided by the walks above).
      const streams: Array<{ id?: string }> = [];
      for (let from: string | undefined, n = 0; n < MAX_PAGES; n++) {
        const body = from === undefined ? await firstPage(api, config) : (await page(api, { take: 100, from })).body;
        streams.push(...(body?.eventStreams ?? []));
        if (!body?.eventStreams || isLast(body as Page)) break;
        from = body.next;
      }
      test.skip(!streams.length, 'The target holds no event stream to read');
      // Against an external target, two: the first and one further on.
      const step = config.embedded ? 1 : Math.max(1, Math.ceil(streams.length / 2));
      // Every other read spells the id as RFC 3986 makes the same (lower-case hex, unreserved characters
      // percent-encoded): the same stream read two ways, the listing's and the spelt id's, at no extra request.
      for (const [i, listed] of streams.filter((_, i) => i % step === 0).entries()) {
        const spellings = equivalentSegments(listed.id!);
        const n = spellings.length;
        const spelt = i % (n + 1) === 0 ? undefined : spellings[n - (i % (n + 1))];
        const asEntry = (ex: Exchange) => ex.status >= 200 && ex.status < 300 && sameJson(ex.json, listed);
        let ex: Exchange | undefined;
        if (spelt) {
          const byEquivalent = await api.get(`${LIST}/${spelt.raw}`);
          // Where the spelt read differs, the canonical one tells which rule it breaks (read only then): the
          // spelling, where the canonical id is served as listed; otherwise the checks of the canonical read below.
          must(
            asListed.httpPathIdPercentEncoding,
            asEntry(byEquivalent) || !asEntry((ex = await api.get(one(listed.id!)))),
            {
              expected: `a 2xx with stream ${listed.id} as the listing showed it and as its canonical id is answered (${JSON.stringify(listed).slice(0, 150)}): the id spelt with ${spelt.what} is the same stream`,
              actual: `status ${byEquivalent.status}, ${byEquivalent.text.slice(0, 200)}`,
              exchange: byEquivalent,
            },
          );
          if (asEntry(byEquivalent)) continue;
        }
        ex ??= await api.get(one(listed.id!));
        mustSucceed(asListed.eventStreamsGetSuccess, ex);
        must(asListed.eventStreamsGetSameStream, sameJson(ex.json, listed), {
          expected: `stream ${listed.id} as the listing showed it: ${JSON.stringify(listed).slice(0, 200)}`,
          actual: ex.text.slice(0, 200),
          exchange: ex,
        });
      }
    },
  );

  const near = declareRules('event-streams.get.same-stream');
  test(
    "should never answer a stream for an id near a listed one (RFC 3986: another path), one letter of an id spelt in both cases in the other case included, nor for a listed stream's name of an id's length",
    near,
    async ({ api, config }) => {
      const body = await firstPage(api, config);
      test.skip(!body?.eventStreams?.[0]?.id, 'The target holds no event stream whose id could be varied');
      const id = body!.eventStreams![0]!.id!;
      // Ids in both cases carry case: one letter's case changed names another id.
      const variants = [...nearIds(id), ...caseVariants(id)];
      // With writes on (out of the read-only run's request budget), one letter's case changed too.
      const caseToo = config.writes !== 'none';
      // The listed streams' names as ids: another member of a stream names no stream by id (a lookup by id or
      // name answers one). Those of an id's length, which a check of the length lets through to the lookup.
      const listedIds = new Set(body!.eventStreams!.map((s) => s.id));
      const names = (body!.eventStreams as Array<{ name?: unknown }>)
        .map((s) => s.name)
        .filter((n): n is string => typeof n === 'string' && n.length === id.length && !listedIds.has(n))
        .map((n) => ({ what: "a listed stream's name", raw: encodeURIComponent(n), decoded: n }));
      for (const v of config.embedded
        ? [...variants, ...names]
        : [
            ...variants.filter((v, i) => i === 0 || i === 5 || (caseToo && v.what.startsWith('the case of'))),
            ...names.slice(0, 1),
          ]) {
        const ex = await api.get(`${LIST}/${v.raw}`);
        const got = (ex.json as { id?: unknown } | undefined)?.id;
        must(near.eventStreamsGetSameStream, ex.status < 200 || ex.status >= 300 || got === v.decoded, {
          expected: `no stream for ${JSON.stringify(v.decoded)} (${v.what}), or that stream itself`,
          actual: `status ${ex.status}, stream ${String(got)}`,
          exchange: ex,
        });
      }
    },
  );

  /**
   * Relation between resource kinds (RESTler's "a resource reached through another's id"): an id of a resource of
   * another kind names no event stream. The ids the run knows, in config: the self-service profile, the
   * experiments, the client grants, the user. Of those of 26 characters (an event stream id's length) the answer
   * is a refusal (a 4xx: unknown, or an id not of the stream id's format, which is not shown) or a stream the
   * listing holds under that very id; of the others, a 4xx ("length exactly 26"). Never the other resource, nor a
   * 5xx. Each resource is touched just before its id is asked: the profile's custom text written (where writes
   * are on: as it reads, so nothing changes), the others read, so that a cache the touch fills is the one asked.
   */
  const otherKinds = declareRules('event-streams.get.same-stream', 'event-streams.get.id.length');
  test(
    'should answer no event stream for the id of a resource of another kind the run knows (the self-service profile, its custom text just written; the experiments, the client grants, the user, each just read): a 4xx, or a listed stream of that id, never the other resource (relation between resource kinds)',
    otherKinds,
    async ({ api, config }) => {
      // Against an external target, one id of each kind (the read-only run's budget).
      const some = <T>(all: T[]) => (config.embedded ? all : all.slice(0, 1));
      const kinds: Array<{ kind: string; ids: string[]; touch: (id: string) => Promise<unknown> }> = [
        {
          kind: 'experiment',
          ids: some(config.experimentIds),
          // The experiment read by its path (not shown by the document: whatever it answers, it was asked).
          touch: (id) => api.get(pathOf('experiments.transition', { id }).replace(/\/status$/, '')),
        },
        {
          kind: 'client grant',
          ids: some([...(config.clientGrantId ? [config.clientGrantId] : []), ...config.otherClientGrantIds]),
          touch: (id) => api.get(pathOf('client-grants.get', { id })),
        },
        {
          kind: 'user',
          ids: config.userId ? [config.userId] : [],
          touch: (id) => api.get(pathOf('token-sets.list', { id })),
        },
      ];
      const profileId = config.selfServiceProfileId;
      skipBeyondReadOnlyBudget(config, "the reads of other resources' ids are");
      test.skip(
        !profileId && kinds.every((k) => k.ids.length === 0),
        'No id of another kind is configured (CONFORMANCE_SELF_SERVICE_PROFILE_ID, _EXPERIMENT_IDS, _CLIENT_GRANT_ID(S), _USER_ID)',
      );
      // A stream answered for such an id is right only where the listing holds a stream of that id.
      const listsStream = async (id: string): Promise<boolean> => {
        for (let from: string | undefined, n = 0; n < MAX_PAGES; n++) {
          const { ex, body } = await page(api, { take: 100, from });
          if (ex.status < 200 || ex.status >= 300 || !Array.isArray(body?.eventStreams)) return false;
          if (body.eventStreams.some((s) => s.id === id)) return true;
          if (isLast(body)) return false;
          from = body.next;
        }
        return false;
      };
      const ask = async (kind: string, id: string, touched: string) => {
        const ex = await api.get(one(id));
        const length = [...id].length;
        const got = (ex.json as { id?: unknown } | undefined)?.id;
        if (length !== 26)
          mustRefuse(
            otherKinds.eventStreamsGetIdLength,
            ex,
            `the id of the ${kind} ${id} (${touched}), of ${length} characters; a stream id has exactly 26`,
          );
        const stream = ex.status >= 200 && ex.status < 300 && got === id && (await listsStream(id));
        must(otherKinds.eventStreamsGetSameStream, (ex.status >= 400 && ex.status < 500) || stream, {
          expected: `a 4xx, or a stream the listing holds under that id: ${id} is the id of the ${kind} (${touched}), which is no event stream (a 5xx is no answer)`,
          actual: `status ${ex.status}${ex.status >= 200 && ex.status < 300 ? `, ${ex.text.slice(0, 160)}${got === id ? ' (no listed stream has this id)' : ''}` : ''}`,
          exchange: ex,
        });
      };
      if (profileId) {
        // Where writes are on, written: the text as the snapshot reads it, put back as it is (nothing changes for
        // the checks of custom text running beside this one); where it cannot be read, on a disposable target alone,
        // the suite's text key (left, and said so). Otherwise read, as the snapshot reads it (not shown by the
        // document: whatever it answers, it was asked).
        const textPath = customTextPath(profileId);
        const read = await api.get(textPath);
        const map =
          read.status >= 200 &&
          read.status < 300 &&
          typeof read.json === 'object' &&
          read.json !== null &&
          !Array.isArray(read.json) &&
          Object.values(read.json).every((v) => typeof v === 'string')
            ? read.json
            : undefined;
        if (config.writes !== 'none' && map) {
          const written = await api.put(textPath, { json: map });
          await ask(
            'self-service profile',
            profileId,
            `its custom text just written as read, answered ${written.status}`,
          );
        } else if (config.writes === 'disposable') {
          await withCustomTextRestored(api, profileId, async () => {
            const written = await api.put(textPath, {
              json: { [config.customTextKey]: 'Conformance: a profile is no event stream.' },
            });
            await ask('self-service profile', profileId, `its custom text just written, answered ${written.status}`);
          });
        } else await ask('self-service profile', profileId, `its custom text just read, answered ${read.status}`);
      }
      for (const { kind, ids, touch } of kinds)
        for (const id of ids) {
          await touch(id);
          await ask(kind, id, 'just read');
        }
    },
  );

  const success2 = declareRules(
    'event-streams.get.success',
    'event-streams.get.same-stream',
    'http.json-bodies',
    schemaRules('event-stream'),
  );
  test('should get each listed stream by id, as listed', success2, async ({ api, config }) => {
    const body = await firstPage(api, config);
    test.skip(!body?.eventStreams?.length, 'The target holds no event stream to read');
    // Against an external target the first only (the check above reads more, by equality).
    for (const listed of body!.eventStreams!.slice(0, config.embedded ? 3 : 1)) {
      const ex = await api.get(one(listed.id!));
      mustSucceed(success2.eventStreamsGetSuccess, ex);
      mustBeJson(success2.httpJsonBodies, ex);
      mustMatchSchema('event-stream', ex.json, ex);
      const got = (ex.json as { id?: unknown }).id;
      must(success2.eventStreamsGetSameStream, got === undefined || got === listed.id, {
        expected: `id ${listed.id}`,
        actual: `id ${String(got)}`,
        exchange: ex,
      });
    }
  });

  for (const length of [25, 27]) {
    const idLength = declareRules('event-streams.get.id.length');
    test(`should refuse a stream id of ${length} characters`, idLength, async ({ api }) => {
      const ex = await api.get(one('e'.repeat(length)));
      mustRefuse(idLength.eventStreamsGetIdLength, ex, `id of ${length} characters; exactly 26 required`);
    });
  }

  const lengthened = declareRules('event-streams.get.id.length', 'http.json-error-bodies');
  test("should refuse a listed stream's id with a character added or removed", lengthened, async ({ api, config }) => {
    const body = await firstPage(api, config);
    test.skip(!body?.eventStreams?.[0]?.id, 'The target holds no event stream whose id could be lengthened');
    const id = body!.eventStreams![0]!.id!;
    // A target that cuts a longer id to 26 characters would serve this stream: the limit is exactly 26.
    // Against an external target, one character added (its last again) and one removed.
    const others = [`${id}a`, `${id}${id.slice(-1)}`, id.slice(0, -1)];
    for (const other of config.embedded ? others : others.slice(1)) {
      const ex = await api.get(one(other));
      mustRefuse(
        lengthened.eventStreamsGetIdLength,
        ex,
        `id of ${[...other].length} characters, made from the listed ${id}; exactly 26 required`,
      );
      mustBeJsonErrorBody(lengthened, ex);
    }
  });

  const anyLength = declareRules('event-streams.get.id.length');
  test('should refuse stream ids of any length but 26 (property)', anyLength, async ({ api, config }) => {
    // The fixed lengths 25 and 27 decide the rule in a read-only run.
    skipBeyondReadOnlyBudget(config, 'the drawn lengths are');
    const len = fc.oneof(fc.integer({ min: 1, max: 25 }), fc.integer({ min: 27, max: 200 }));
    await fc.assert(
      fc.asyncProperty(len, async (n) => {
        mustRefuse(anyLength.eventStreamsGetIdLength, await api.get(one('s'.repeat(n))), `id of ${n} characters`);
      }),
      fcParams(config, 10),
    );
  });

  const status = declareRules('event-streams.status');
  test('should be observed answering an unknown id of 26 characters', status, async ({ api }) => {
    const ex = await api.get(one('z'.repeat(26)));
    observe(status.eventStreamsStatus, 'unknown 26-character id answered', String(ex.status));
  });
});

authChecks('event-streams.list', (api, _c, auth) => api.get(LIST, { auth, query: { take: 1 } }));
// The next page: a request with from may be served apart from the first page's.
authChecks(
  'event-streams.list',
  (api, _c, auth, from) => {
    test.skip(from === undefined, NO_NEXT);
    return api.get(LIST, { auth, query: { take: 1, from: from! } });
  },
  {
    target: nextCursor,
    query: "from, the next page's cursor",
  },
);
// The probe reads a listed stream, so that the run's token can be seen accepted (2xx) and a forged one seen refused.
authChecks('event-streams.get', (api, _c, auth, id) => api.get(one(id ?? 'z'.repeat(26)), { auth }), {
  target: async (api, config) => (await firstPage(api, config))?.eventStreams?.[0]?.id,
});
