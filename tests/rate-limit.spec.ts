/**
 * Errors 429 and Limits: over the rate limit, the token-set listing answers
 * 429 with X-RateLimit-Limit, -Remaining and -Reset, which describe the rate
 * limit. Numeric values and windows are not shown: the probe sends at most
 * CONFORMANCE_RATE_LIMIT_PROBE_MAX requests, reaching no limit within them is
 * an observation, and header values are read in any numeric form. Over the
 * limit, the same request under another spelling (of its Authorization's
 * scheme, of its request target's query or path) is served no more.
 * The listing is Generally Available (Versioning): no answer of the probe,
 * a 429 no more than a 200, announces it as deprecated.
 * Runs after every other check (its own Playwright project), and only with
 * CONFORMANCE_RATE_LIMIT_PROBE=on.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Api, connectionPool, type Exchange } from '../harness/requests/client.ts';
import type { Config } from '../harness/run/config.ts';
import { resetDelayMs } from '../harness/requests/rate-limit.ts';
import { must, mustBeJsonErrorBody, mustNotBeDeprecated, mustStatus, observe } from '../harness/vocabulary/must.ts';
import { test } from '../harness/fixtures/fixtures.ts';
import { fetchToken } from '../harness/requests/tokens.ts';
import { declareRules, type RuleRef } from '../harness/vocabulary/declare.ts';
import { pathOf } from '../spec/operations.ts';

const HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;
/** A header value in any numeric form: integer or fraction (numeric values are not shown). */
const num = (v: string | undefined): number | undefined =>
  v !== undefined && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : undefined;
/**
 * Answers in a row, after one that said Remaining 0, that neither refuse with
 * 429 nor show budget again (Remaining above 0) before its Reset, after which
 * the limit is plainly not enforced. Not 1: at the edge of a budget, a 200
 * with Remaining 0 is correct, and a token bucket may let one more through.
 */
const UNREFUSED_RUN = 5;
/**
 * How late after X-RateLimit-Reset a request may still be refused: Reset in
 * whole epoch seconds may be rounded down by up to a second. Waiting as the
 * header says, plus this, must work.
 */
const RESET_TOLERANCE_MS = 1000;
const YEAR_MS = 366 * 24 * 3_600_000;
/** The longest the probe waits for a window to reset before trying again. */
const MAX_RESET_WAIT_MS = 20_000;
/**
 * How long before the fresh window's latest announced X-RateLimit-Reset the probe asks once more (the late request):
 * within the last RESET_TOLERANCE_MS before it, where a refusal is still due (the window runs) and where anything a
 * 429 arms for a window's length from that moment (a window of 2 s or more) would outlast the reset and its tolerance.
 * The request sent once that reset has passed (plus the tolerance) must be served all the same.
 */
const LATE_BEFORE_RESET_MS = 550;
/**
 * Where in the second (of the client's clock) the fresh window's first request is sent: a window counted from its
 * first request for whole seconds then ends 100 ms before the whole second its X-RateLimit-Reset names (epoch seconds,
 * rounded up), so that LATE_BEFORE_RESET_MS before that reset is still within the window, by 450 ms. A choice of
 * when to send, not a wait for the target: any phase is a correct input, this one the most telling.
 */
const WINDOW_PHASE_MS = 900;
/** Room kept in the check's timeout for the fresh window's late request and the one after its reset. */
const DEADLINE_MARGIN_MS = 3_000;
/**
 * Requests sent right after a window's first 429 (the first window's and the fresh one's): the headers describe
 * the limit on every 429, not only on the first a token gets, and every request over the limit is refused, not
 * only the first. Those answered after the 429's X-RateLimit-Reset (less RESET_TOLERANCE_MS) are in a window
 * that may have reset (a token bucket refills): only those answered before it are held to a 429.
 */
const AFTER_429 = 3;
/**
 * Other spellings of the same Authorization, sent right after the first window's 429 (and its AFTER_429): the
 * auth-scheme is case-insensitive (RFC 9110 11.1, RFC 6750 2.1) and one or more spaces may follow it (1*SP, RFC 6750
 * 2.1, RFC 9110 11.4). The limit is the token's, not the header's spelling: each is over the limit as the 429 was.
 * In order of weight, so that a short budget spends itself on the case first.
 */
const RESPELLINGS = [
  { scheme: 'bearer', header: (t: string) => `bearer ${t}` },
  { scheme: 'BEARER', header: (t: string) => `BEARER ${t}` },
  { scheme: 'bEaReR', header: (t: string) => `bEaReR ${t}` },
  { scheme: 'Bearer and two spaces', header: (t: string) => `Bearer  ${t}` },
] as const;
/**
 * Other spellings of the same request target, sent right after RESPELLINGS: its query component (RFC 3986 3.4, the
 * request-target of RFC 9110 7.1) and its path's equivalent forms. The listing names no query parameter, so a query
 * is one it does not name: a server may ignore it or refuse it (400), but the request is still the listing, and the
 * limit is the operation's and the token's, not the URL's: each is over the limit as the 429 was. Not a trailing
 * slash (RFC 3986 6.2.4 makes it another URI, one the document does not define). In order of weight.
 */
const TARGET_SPELLINGS = [
  {
    spelt: 'with a query parameter the listing does not name, ?x=1 (RFC 3986 3.4)',
    request: (path: string) => ({ path, query: { x: '1' } }),
  },
  {
    spelt: 'with a cache buster, ?_=<milliseconds> (RFC 3986 3.4)',
    request: (path: string) => ({ path, query: { _: String(Date.now()) } }),
  },
  {
    spelt: "with a parameter named like an SDK's, ?include_totals=true (RFC 3986 3.4)",
    request: (path: string) => ({ path, query: { include_totals: 'true' } }),
  },
  {
    spelt: 'with an empty query, the ? alone (RFC 3986 3.4 and 6.2.3: an empty component, its delimiter kept)',
    request: (path: string) => ({ path, emptyQuery: true }),
  },
  {
    spelt: 'with an unreserved letter of its path percent-encoded, /%75sers/ (RFC 3986 2.3 and 6.2.2.2: the same URI)',
    request: (path: string) => ({ path: path.replace(/^\/users\//, '/%75sers/') }),
  },
] as const satisfies readonly {
  spelt: string;
  request: (path: string) => { path: string; query?: Record<string, string>; emptyQuery?: true };
}[];

/** The form of X-RateLimit-Reset, for the observation: epoch seconds or seconds to go, with or without a fraction. */
function resetForm(v: string | undefined): string {
  const n = num(v);
  if (n === undefined) return v === undefined ? 'absent' : 'not a number';
  return `${n > 1e9 ? 'epoch seconds' : 'seconds to go'}${Number.isInteger(n) ? '' : ' with a fraction'}`;
}

/** What the probe found, kept for the run (see the beforeAll). */
interface Found {
  limited: Exchange | undefined;
  seen: Seen[];
  unrefused: Seen[];
  afterReset: { ex: Exchange; waitedMs: number } | undefined;
  noRetry: string | undefined;
  second: Seen[];
  after429: Seen[];
  afterSecond429: Seen[];
  /** Absent in a probe kept by an earlier version of this file. */
  respelt?: Seen[];
  /** Absent in a probe kept by an earlier version of this file. */
  retargeted?: Seen[];
  /** Absent in a probe kept by an earlier version of this file. */
  late?: Seen;
  /** Absent in a probe kept by an earlier version of this file. */
  afterFreshReset?: Seen;
  /** Absent in a probe kept by an earlier version of this file. */
  noFreshRetry?: string;
}

interface Seen {
  ex: Exchange;
  /** When the answer arrived (ms). */
  at: number;
  /** When its request was sent (ms; absent in a probe kept by an earlier version of this file). */
  sent?: number;
  /** How its Authorization spelt the scheme, where not `Bearer` and one space (RESPELLINGS; never the token). */
  scheme?: string;
  /** How its request target was spelt, where not the listing's path alone (TARGET_SPELLINGS). */
  target?: string;
}

test.describe('rate limit of the token-set listing @rate-limit @token-sets', () => {
  let limited: Exchange | undefined;
  const seen: Seen[] = [];
  /** Answers after a Remaining 0, within its window, that were neither a 429 nor a renewed budget. */
  let unrefused: Seen[] = [];
  /** The request sent once the 429's X-RateLimit-Reset had passed, and how long it waited. */
  let afterReset: { ex: Exchange; waitedMs: number } | undefined;
  /** Why no request was sent after the reset. */
  let noRetry: string | undefined;
  /** The fresh window after the reset, sent until its 429 with the same token: its answers in order. */
  const second: Seen[] = [];
  /** The answers to the requests sent right after the first 429 (AFTER_429), before waiting for its reset. */
  const after429: Seen[] = [];
  /** The answers to the requests sent right after the fresh window's 429 (AFTER_429), within the probe's budget. */
  const afterSecond429: Seen[] = [];
  /** The answers to the same token with the scheme spelt otherwise (RESPELLINGS), sent after after429. */
  const respelt: Seen[] = [];
  /** The answers to the same token with the request target spelt otherwise (TARGET_SPELLINGS), sent after respelt. */
  const retargeted: Seen[] = [];
  /**
   * The request sent in the last second before the fresh window's latest announced X-RateLimit-Reset (LATE_BEFORE_RESET_MS),
   * after its 429 and the requests right after it: the client that asks again just before the reset.
   */
  let late: Seen | undefined;
  /** The request sent once the fresh window's latest announced X-RateLimit-Reset (late's among them) had passed. */
  let afterFreshReset: Seen | undefined;
  /** Why no late request, or none after the fresh window's reset, was sent. */
  let noFreshRetry: string | undefined;
  /** Every 429 the probe got, in order: the first, those right after it, the fresh window's and those after it. */
  const refusals = (): Seen[] =>
    [
      seen.at(-1),
      ...after429,
      ...respelt,
      ...retargeted.filter(onListingPath),
      second.at(-1),
      ...afterSecond429,
      late,
    ].filter((x): x is Seen => x !== undefined && x.ex.status === 429);
  /**
   * Whether an answer is to the listing's path as the document spells it, whatever its query: a server that does
   * not decode /%75sers/ may refuse it as a path of its own, not the listing's 429 the headers rule is about.
   */
  const onListingPath = (x: Seen): boolean => x.ex.target.split('?', 1)[0] === seen[0]?.ex.target.split('?', 1)[0];
  /**
   * Of `after` (answers to requests sent after the 429 `refused`, with the same token), those that arrived before
   * the moment its X-RateLimit-Reset names, less RESET_TOLERANCE_MS: still within the window the 429 refused in,
   * however the target counts. None where the 429 gives no numeric Reset (the window's extent is not known).
   */
  const beforeResetOf = (refused: Seen, after: readonly Seen[]): Seen[] => {
    const delay = resetDelayMs(refused.ex.headers['x-ratelimit-reset'], refused.at);
    return delay === undefined ? [] : after.filter((x) => x.at < refused.at + delay - RESET_TOLERANCE_MS);
  };

  /** The limit the target announced before any 429 (X-RateLimit-Limit of its first answer that has one). */
  const announced = (): { limit: number; s: Seen } | undefined => {
    const s = seen.find((x) => x.ex.status !== 429 && num(x.ex.headers['x-ratelimit-limit']) !== undefined);
    return s && { limit: num(s.ex.headers['x-ratelimit-limit'])!, s };
  };
  /**
   * Why no 429 came, where the reason is outside the target (the probe's budget, a limit not announced);
   * undefined when the target announced a limit the probe went past within its window: then no 429 is the
   * target's doing, and the checks that need one fail instead of skipping.
   */
  const no429Reason = (): string | undefined => {
    const a = announced();
    if (!a) return `No 429 within the probe's ${seen.length} requests, and no X-RateLimit-Limit announced before one`;
    if (admittedInWindow(a.s) <= a.limit)
      return `No 429 within the probe: the announced limit ${a.limit} was not passed within its window (CONFORMANCE_RATE_LIMIT_PROBE_MAX ${seen.length})`;
    return undefined;
  };
  /**
   * The answers admitted (not 429) in the window `first` is in, from it on: up to the first 429, the first
   * answer whose X-RateLimit-Remaining rose (a renewed window), or its X-RateLimit-Reset, whichever comes first.
   */
  const admittedInWindow = (first: Seen, answers: readonly Seen[] = seen): number => {
    const delay = resetDelayMs(first.ex.headers['x-ratelimit-reset'], first.at);
    if (delay === undefined) return 0;
    const end = first.at + delay;
    let n = 0;
    let before = num(first.ex.headers['x-ratelimit-remaining']);
    for (const x of answers.slice(answers.indexOf(first))) {
      const remaining = num(x.ex.headers['x-ratelimit-remaining']);
      if (x.ex.status === 429 || x.at >= end || (remaining !== undefined && before !== undefined && remaining > before))
        break;
      if (remaining !== undefined) before = remaining;
      n++;
    }
    return n;
  };
  /** Fails `rule` when no 429 came for the target's own doing (see no429Reason); skips with the reason otherwise. */
  const need429 = (rule: Parameters<typeof must>[0]) => {
    if (limited) return;
    const why = no429Reason();
    test.skip(why !== undefined, why ?? '');
    const a = announced()!;
    must(rule, false, {
      expected: `a 429 once the ${a.limit} requests X-RateLimit-Limit announced were admitted within its window (X-RateLimit-Reset ${a.s.ex.headers['x-ratelimit-reset']})`,
      actual: `${admittedInWindow(a.s)} requests admitted within that window, no 429 (the same token reused throughout)`,
      exchange: seen.at(-1)?.ex,
    });
  };

  /** The target whose probe the state above holds (its project and base URL). */
  let loadedFor: string | undefined;
  /** What the probe found of each target this worker checked, by target. */
  const probed = new Map<string, Found>();

  /** Puts what the probe found of a target in the state above. */
  function load(found: Found): void {
    ({ limited, unrefused, afterReset, noRetry, late, afterFreshReset, noFreshRetry } = found);
    for (const [into, from] of [
      [seen, found.seen],
      [second, found.second],
      [after429, found.after429],
      // A probe kept by an earlier version of this file has none.
      [afterSecond429, found.afterSecond429 ?? []],
      [respelt, found.respelt ?? []],
      [retargeted, found.retargeted ?? []],
    ] as const)
      into.splice(0, into.length, ...from);
  }

  // A beforeEach, not a beforeAll: a worker may check several targets in turn (npm run verify's shared workers,
  // harness/fixtures/targets.ts), each check with its own target's configuration. The probe is still sent once per
  // target: what it found is kept for the worker, and in a file for a later one.
  test.beforeEach(async ({ config }, testInfo) => {
    test.skip(
      !config.rateLimitProbe,
      "CONFORMANCE_RATE_LIMIT_PROBE is off: the probe would spend the tenant's rate limit",
    );
    const target = `${testInfo.project.name}\n${config.baseUrl}`;
    if (loadedFor === target) return;
    // After a failed check Playwright goes on in a new worker, which comes here again: the probe is sent once
    // per run and target, and a new worker reads what it found, so every later check is judged, none skipped.
    const kept = join(
      testInfo.project.outputDir,
      `rate-limit-probe-${createHash('sha256').update(target).digest('hex').slice(0, 16)}.json`,
    );
    let found = probed.get(target);
    if (found === undefined && existsSync(kept)) found = JSON.parse(readFileSync(kept, 'utf8')) as Found;
    if (found === undefined) {
      load({
        limited: undefined,
        seen: [],
        unrefused: [],
        afterReset: undefined,
        noRetry: undefined,
        second: [],
        after429: [],
        afterSecond429: [],
        respelt: [],
        retargeted: [],
        late: undefined,
        afterFreshReset: undefined,
        noFreshRetry: undefined,
      });
      // The probe shares the check's timeout (none: no deadline).
      await probe(config, testInfo.timeout ? Date.now() + testInfo.timeout : Infinity);
      found = {
        limited,
        seen: [...seen],
        unrefused,
        afterReset,
        noRetry,
        second: [...second],
        after429: [...after429],
        afterSecond429: [...afterSecond429],
        respelt: [...respelt],
        retargeted: [...retargeted],
        late,
        afterFreshReset,
        noFreshRetry,
      };
      mkdirSync(dirname(kept), { recursive: true });
      writeFileSync(kept, JSON.stringify(found));
    }
    probed.set(target, found);
    load(found);
    loadedFor = target;
  });

  /** Drives one token past the limit, and on: what it finds is the state above. */
  async function probe(config: Config, deadline: number): Promise<void> {
    const token = config.rateLimitCredentials
      ? await fetchToken(config, config.rateLimitCredentials, 'rate-limit')
      : config.runToken!;
    const pool = connectionPool();
    const api = new Api(pool, config, token);
    const path = pathOf('token-sets.list', { id: config.userId ?? 'conformance-nobody' });
    // The suite's client (undici) drops an empty query from the URL it is given: this one adds the `?` back.
    const emptyQueryApi = new Api(
      pool.compose((dispatch) => (opts, handler) => dispatch({ ...opts, path: `${opts.path}?` }, handler)),
      config,
      token,
    );
    /** One request of the probe: its answer, when it was sent and when the answer arrived. */
    const send = async (spelling?: (typeof RESPELLINGS)[number]): Promise<Seen> => {
      const sent = Date.now();
      const ex = await api.get(path, { see429: true, ...(spelling && { auth: { header: spelling.header(token) } }) });
      return { ex, at: Date.now(), sent, ...(spelling && { scheme: spelling.scheme }) };
    };
    /** One request of the probe with its target spelt otherwise (TARGET_SPELLINGS), the token's Authorization as sent. */
    const sendTo = async (spelling: (typeof TARGET_SPELLINGS)[number]): Promise<Seen> => {
      const sent = Date.now();
      const r: { path: string; query?: Record<string, string>; emptyQuery?: true } = spelling.request(path);
      const ex = await (r.emptyQuery ? emptyQueryApi : api).get(r.path, { see429: true, query: r.query });
      // The evidence shows the `?` the dispatcher added, so that its reproduction sends what was sent.
      const shown = r.emptyQuery ? { ...ex, target: `${ex.target}?`, url: `${ex.url}?` } : ex;
      return { ex: shown, at: Date.now(), sent, target: spelling.spelt };
    };
    /** The answer that said Remaining 0, and until when its window lasts. */
    let spent: { seen: Seen; until: number } | undefined;
    for (let i = 0; i < config.rateLimitProbeMax && !limited && unrefused.length < UNREFUSED_RUN; i++) {
      const s = await send();
      const ex = s.ex;
      seen.push(s);
      if (ex.status === 429) {
        limited = ex;
        break;
      }
      const remaining = num(ex.headers['x-ratelimit-remaining']);
      if (spent && s.at < spent.until && !(ex.status < 300 && remaining !== undefined && remaining > 0))
        unrefused.push(s);
      else unrefused = [];
      if (remaining === 0 && (!spent || s.at >= spent.until)) {
        spent = { seen: s, until: s.at + (resetDelayMs(ex.headers['x-ratelimit-reset'], s.at) ?? 1000) };
      } else if (remaining !== undefined && remaining > 0) spent = undefined;
    }
    if (limited) {
      // A few more requests at once, within the probe's budget: each that is refused is a 429 like the first.
      while (after429.length < AFTER_429 && seen.length + after429.length < config.rateLimitProbeMax)
        after429.push(await send());
      // The same token with the scheme spelt otherwise, within the same window and the probe's budget: the limit
      // is the token's, whatever the case of its scheme (RFC 9110 11.1) or the spaces after it.
      for (const spelling of RESPELLINGS)
        if (seen.length + after429.length + respelt.length < config.rateLimitProbeMax)
          respelt.push(await send(spelling));
      // The same listing with its request target spelt otherwise, within the same window and the probe's budget: the
      // limit is the operation's, whatever the query (RFC 3986 3.4) or the spelling of an equivalent path.
      for (const spelling of TARGET_SPELLINGS)
        if (seen.length + after429.length + respelt.length + retargeted.length < config.rateLimitProbeMax)
          retargeted.push(await sendTo(spelling));
      // Waiting as X-RateLimit-Reset says must work: one request once the window has reset (the latest Reset
      // of the 429s, in case the refused requests were counted too).
      const resets = [seen.at(-1)!, ...after429, ...respelt, ...retargeted]
        .filter((x) => x.ex.status === 429)
        .map((x) => resetDelayMs(x.ex.headers['x-ratelimit-reset'], x.at))
        .filter((d): d is number => d !== undefined);
      const delay = resets.length ? Math.max(...resets) : undefined;
      if (delay === undefined) noRetry = 'the 429 gave no numeric X-RateLimit-Reset to wait for';
      else if (delay > MAX_RESET_WAIT_MS)
        noRetry = `the 429's window resets in ${Math.round(delay / 1000)} s, past the probe's ${MAX_RESET_WAIT_MS / 1000} s wait`;
      else {
        // The announced reset plus the tolerance, and on to the next WINDOW_PHASE_MS of the clock: the fresh
        // window begins with this request, its end where the late request below finds it still running.
        const from = Date.now();
        await until(from + delay + RESET_TOLERANCE_MS);
        await until(Date.now() + ((WINDOW_PHASE_MS - (Date.now() % 1000) + 1000) % 1000));
        const waitedMs = Date.now() - from;
        const fresh = await send();
        afterReset = { ex: fresh.ex, waitedMs };
        // The window that begins with it is fresh: send on with the same token until its 429, one past the
        // limit the 429 announced (and within the probe's budget), to count what that window admits.
        second.push(fresh);
        const lim = num(limited.headers['x-ratelimit-limit']) ?? num(afterReset.ex.headers['x-ratelimit-limit']);
        const max = Math.min(config.rateLimitProbeMax, (lim ?? config.rateLimitProbeMax) + 1);
        while (second.length < max && second.at(-1)!.ex.status !== 429) second.push(await send());
        // Over the fresh window's limit too, a few more at once: each is over the limit as the 429 was.
        if (second.at(-1)!.ex.status === 429)
          while (afterSecond429.length < AFTER_429 && second.length + afterSecond429.length < config.rateLimitProbeMax)
            afterSecond429.push(await send());
        await lateAndAfterReset(config, deadline);
      }
    }

    /**
     * The fresh window's 429 was followed right away by a few requests (AFTER_429); now one more, late, in the last
     * second before the latest reset they announced (LATE_BEFORE_RESET_MS), then nothing until that reset (its own
     * among them) has passed: the request sent then is the one the check judges.
     */
    async function lateAndAfterReset(config: Config, deadline: number): Promise<void> {
      const spent = (needed: number) =>
        second.length + afterSecond429.length + (late ? 1 : 0) + needed > config.rateLimitProbeMax;
      if (second.at(-1)!.ex.status !== 429) return void (noFreshRetry = 'the fresh window gave no 429');
      const first = latestResetAt([second.at(-1)!, ...afterSecond429]);
      if (first === undefined)
        return void (noFreshRetry = "the fresh window's 429 gave no numeric X-RateLimit-Reset to wait for");
      if (first - Date.now() > MAX_RESET_WAIT_MS || first + RESET_TOLERANCE_MS + DEADLINE_MARGIN_MS > deadline)
        return void (noFreshRetry = `the fresh window resets in ${Math.round((first - Date.now()) / 1000)} s, past the probe's wait (the check's timeout, or ${MAX_RESET_WAIT_MS / 1000} s)`);
      if (spent(2)) return void (noFreshRetry = "the probe's budget (CONFORMANCE_RATE_LIMIT_PROBE_MAX) was spent");
      if (first - LATE_BEFORE_RESET_MS > Date.now()) {
        await until(first - LATE_BEFORE_RESET_MS);
        late = await send();
      }
      // A late request admitted may have begun a window, one that says nothing is left (Remaining 0) ends at its Reset.
      const then = latestResetAt([second.at(-1)!, ...afterSecond429, ...(late ? [late] : [])])!;
      if (then + RESET_TOLERANCE_MS + DEADLINE_MARGIN_MS > deadline || spent(1))
        return void (noFreshRetry = `the late request announced a reset past the probe's wait or budget`);
      await until(then + RESET_TOLERANCE_MS);
      afterFreshReset = await send();
    }
  }

  /** Waits until the instant `at` (epoch ms) of the client's clock, the one the headers' reset is read by. */
  const until = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
  /**
   * The latest instant (epoch ms) at which the answers' X-RateLimit-Reset names an end of refusal: those of the 429s,
   * and of the answers that said nothing is left (Remaining 0). Undefined where none gives a numeric Reset.
   */
  const latestResetAt = (answers: readonly Seen[]): number | undefined => {
    const at = answers
      .filter((x) => x.ex.status === 429 || num(x.ex.headers['x-ratelimit-remaining']) === 0)
      .map((x) => {
        const d = resetDelayMs(x.ex.headers['x-ratelimit-reset'], x.at);
        return d === undefined ? undefined : x.at + d;
      })
      .filter((d): d is number => d !== undefined);
    return at.length ? Math.max(...at) : undefined;
  };

  const status = declareRules('token-sets.list.rate-limit.status');
  test('should answer 429 over the limit', status, async ({ config }) => {
    // A limit the target's owner declared (CONFORMANCE_RATE_LIMIT_EXPECTED): more requests than it allows within
    // one of its windows, all admitted, are a limit not enforced, whatever the headers said (or did not).
    const declared = config.rateLimitExpected;
    if (!limited && declared !== undefined && seen.length > 0) {
      const inWindow = seen.filter((x) => x.at - seen[0]!.at < declared.windowMs);
      must(status.tokenSetsListRateLimitStatus, inWindow.length <= declared.limit, {
        expected: `a 429 once ${declared.limit} requests were admitted within ${declared.windowMs / 1000} s (CONFORMANCE_RATE_LIMIT_EXPECTED)`,
        actual: `${inWindow.length} requests admitted within ${declared.windowMs / 1000} s, no 429`,
        exchange: inWindow.at(-1)?.ex,
      });
    }
    if (!limited) {
      // The limit the target announced is the limit it enforces: past it within its window, a 429.
      if (announced() && no429Reason() === undefined) need429(status.tokenSetsListRateLimitStatus);
      // The target said it had no budget left, then kept answering without a 429: its limit is not enforced.
      must(status.tokenSetsListRateLimitStatus, unrefused.length < UNREFUSED_RUN, {
        expected: `a 429 once X-RateLimit-Remaining said 0, within its window (X-RateLimit-Reset)`,
        actual: `${unrefused.length} answers in a row after Remaining 0, none a 429: ${unrefused.map((s) => s.ex.status).join(', ')}`,
        exchange: unrefused.at(-1)?.ex,
      });
      // A target that says nothing may have a limit above the probe.
      observe('rate-limit.values', 'limit reached within the probe', 'no', {
        requests: seen.length,
        lastRemaining: seen.at(-1)?.ex.headers['x-ratelimit-remaining'] ?? null,
      });
      return;
    }
    mustStatus(status.tokenSetsListRateLimitStatus, limited, 429);
    observe('rate-limit.values', 'limit reached within the probe', 'yes', {
      requests: seen.length,
      limit: limited.headers['x-ratelimit-limit'],
      reset: limited.headers['x-ratelimit-reset'],
    });
  });

  const headers = declareRules('token-sets.list.rate-limit.headers', 'http.json-error-bodies');
  test(
    'should describe the limit in X-RateLimit-Limit, -Remaining and -Reset on every 429, not only the first',
    headers,
    async () => {
      need429(headers.tokenSetsListRateLimitHeaders);
      // The first 429, those refused right after it within its window, and the fresh window's: each is a 429.
      const all = refusals();
      for (const [i, x] of all.entries()) {
        mustBeJsonErrorBody(headers, x.ex);
        const missing = HEADERS.filter((h) => x.ex.headers[h] === undefined);
        must(headers.tokenSetsListRateLimitHeaders, missing.length === 0, {
          expected: `${HEADERS.join(', ')} on 429 ${i + 1} of the ${all.length} the probe got (same token)`,
          actual: `missing ${missing.join(', ')}`,
          exchange: x.ex,
        });
      }
    },
  );

  const countdown = declareRules('rate-limit.header-values');
  test('should have counted X-RateLimit-Remaining down before the 429', countdown, async () => {
    need429(countdown.rateLimitHeaderValues);
    // Answers before the 429 that carry both numbers (a target may send them on the 429 only).
    const counted = seen
      .slice(0, -1)
      .map((s) => [num(s.ex.headers['x-ratelimit-remaining']), num(s.ex.headers['x-ratelimit-limit'])] as const)
      .filter((p): p is readonly [number, number] => p[0] !== undefined && p[1] !== undefined);
    // A limit that refuses, while every answer before said the whole limit remained, was not described.
    must(countdown.rateLimitHeaderValues, !counted.length || counted.some(([rem, lim]) => rem < lim), {
      expected:
        'X-RateLimit-Remaining below X-RateLimit-Limit on some answer before the 429 (the requests were counted)',
      actual: `${counted.length} answers before the 429, each with Remaining equal to Limit (${counted[0]?.[1]})`,
      exchange: seen.at(-2)?.ex,
    });
    const over = counted.filter(([rem, lim]) => rem > lim);
    must(countdown.rateLimitHeaderValues, over.length === 0, {
      expected: 'Remaining ≤ Limit on every answer',
      actual: over.map(([rem, lim]) => `Remaining ${rem}, Limit ${lim}`).join('; '),
    });
  });

  const reset = declareRules('rate-limit.header-values');
  test('should take a request again once X-RateLimit-Reset has passed', reset, async () => {
    need429(reset.rateLimitHeaderValues);
    test.skip(noRetry !== undefined, noRetry ?? '');
    must(reset.rateLimitHeaderValues, afterReset!.ex.status !== 429, {
      expected: `no 429 ${afterReset!.waitedMs} ms after the 429s (the latest of their X-RateLimit-Reset, the first's ${limited!.headers['x-ratelimit-reset']}, plus at least ${RESET_TOLERANCE_MS} ms)`,
      actual: `status ${afterReset!.ex.status}, X-RateLimit-Reset now ${afterReset!.ex.headers['x-ratelimit-reset']}`,
      exchange: afterReset!.ex,
    });
  });

  const truthful = declareRules('token-sets.list.rate-limit.headers');
  test(
    "should name in every 429's X-RateLimit-Reset a moment after which the token is served again, whatever it sent meanwhile: after a window's 429 and several requests right after it, or a few and one more in the last second before the announced reset, the first request once the latest announced reset has passed is not refused",
    truthful,
    async () => {
      need429(truthful.tokenSetsListRateLimitHeaders);
      // Each window with what the client sent between its first 429 and the request judged. Only a 429 is judged: a
      // 429 announcing Remaining above 0 may be another limit's (several at once), but each 429's Reset is when
      // that refusal ends, so no reading lets the request sent after the latest of them be refused again.
      const windows = [
        {
          name: 'the first window',
          meanwhile: `its 429 and, right after it, ${after429.length + respelt.length + retargeted.length} requests (the same request, the scheme and the target spelt otherwise), then nothing`,
          // As the probe waited: for the latest reset of the 429s.
          refused: [seen.at(-1)!, ...after429, ...respelt, ...retargeted].filter((x) => x.ex.status === 429),
          // The fresh window's first request: the one sent once the first window's reset had passed.
          after: afterReset && second[0],
          why: noRetry,
        },
        {
          name: 'the fresh window',
          meanwhile: `its 429, ${afterSecond429.length} requests right after it${late ? `, and one more ${late.ex.status === 429 ? 'refused' : `answered ${late.ex.status}`} ${LATE_BEFORE_RESET_MS} ms before the latest reset they announced` : ''}, then nothing`,
          refused: [...second.slice(-1), ...afterSecond429, ...(late ? [late] : [])],
          after: afterFreshReset,
          why: noFreshRetry ?? noRetry,
        },
      ];
      const judged: string[] = [];
      const notJudged: string[] = [];
      for (const w of windows) {
        const resetAt = latestResetAt(w.refused);
        if (!w.after || resetAt === undefined) {
          notJudged.push(`${w.name}: ${w.why ?? 'no numeric X-RateLimit-Reset on its 429s'}`);
          continue;
        }
        if ((w.after.sent ?? w.after.at) < resetAt + RESET_TOLERANCE_MS) {
          notJudged.push(`${w.name}: its request after the reset went before the reset plus ${RESET_TOLERANCE_MS} ms`);
          continue;
        }
        const x = w.after;
        const h = x.ex.headers;
        judged.push(w.name);
        must(truthful.tokenSetsListRateLimitHeaders, x.ex.status !== 429, {
          expected: `served, not 429: sent ${(x.sent ?? x.at) - resetAt} ms after ${new Date(resetAt).toISOString()}, the latest X-RateLimit-Reset that ${w.name}'s ${w.refused.filter((y) => y.ex.status === 429).length} 429s announced (the first's ${w.refused[0]?.ex.headers['x-ratelimit-reset']}), the client having sent ${w.meanwhile}`,
          actual: `429 again, now with X-RateLimit-Remaining ${h['x-ratelimit-remaining']} and X-RateLimit-Reset ${h['x-ratelimit-reset']}: the reset the 429s announced did not describe the limit`,
          exchange: x.ex,
        });
      }
      if (notJudged.length) test.info().annotations.push({ type: 'not judged', description: notJudged.join('; ') });
      test.skip(!judged.length, `No request was sent after a window's announced reset: ${notJudged.join('; ')}`);
    },
  );

  const headerValues = declareRules('rate-limit.header-values');
  test(
    'should give numbers that describe the rate limit on every 429, a reset still to come among them',
    headerValues,
    async () => {
      need429(headerValues.rateLimitHeaderValues);
      // Every 429 the probe got: the first, those refused right after it, the fresh window's.
      for (const x of refusals()) {
        const ex = x.ex;
        const present = HEADERS.filter((h) => ex.headers[h] !== undefined);
        // Any numeric form: integers, fractions, epoch seconds or seconds to go (numeric values are not shown).
        const bad = present.filter((h) => num(ex.headers[h]) === undefined);
        must(headerValues.rateLimitHeaderValues, bad.length === 0, {
          expected: 'numbers',
          actual: bad.map((h) => `${h}: ${ex.headers[h]}`).join(', '),
          exchange: ex,
        });
        const [limit, remaining] = [num(ex.headers['x-ratelimit-limit']), num(ex.headers['x-ratelimit-remaining'])];
        // A Reset below 0 is neither a moment (epoch seconds: before 1970) nor a wait.
        const negative = (
          [
            ['X-RateLimit-Limit', limit],
            ['X-RateLimit-Remaining', remaining],
            ['X-RateLimit-Reset', num(ex.headers['x-ratelimit-reset'])],
          ] as const
        ).filter(([, v]) => v !== undefined && v < 0);
        must(headerValues.rateLimitHeaderValues, negative.length === 0, {
          expected: 'a limit, a remaining count and a reset not below 0',
          actual: negative.map(([h, v]) => `${h}: ${v}`).join(', '),
          exchange: ex,
        });
        if (limit !== undefined && remaining !== undefined) {
          must(headerValues.rateLimitHeaderValues, remaining <= limit, {
            expected: 'Remaining ≤ Limit',
            actual: `Remaining ${remaining}, Limit ${limit}`,
            exchange: ex,
          });
        }
        // Reset names a moment (epoch seconds) or a wait (seconds): in either reading, within a year. Windows are
        // not shown, but a Reset decades ahead (epoch milliseconds read as seconds) describes no limit.
        const delay = resetDelayMs(ex.headers['x-ratelimit-reset'], x.at);
        must(headerValues.rateLimitHeaderValues, delay === undefined || delay <= YEAR_MS, {
          expected: 'X-RateLimit-Reset at most a year ahead, as epoch seconds or seconds to wait',
          actual: `X-RateLimit-Reset ${ex.headers['x-ratelimit-reset']}: ${Math.round((delay ?? 0) / YEAR_MS)} years ahead`,
          exchange: ex,
        });
        // A reset still to come: an epoch-seconds Reset is not before the 429 arrived (less a second of
        // rounding). A Reset in the past describes no window of this one.
        const n = num(ex.headers['x-ratelimit-reset']);
        if (n === undefined || n <= 1e9) continue;
        must(headerValues.rateLimitHeaderValues, n * 1000 >= x.at - RESET_TOLERANCE_MS, {
          expected: `X-RateLimit-Reset on a 429 not before the 429 arrived (${new Date(x.at).toISOString()})`,
          actual: `X-RateLimit-Reset ${n}: ${new Date(n * 1000).toISOString()}, ${Math.round((x.at - n * 1000) / 1000)} s before`,
          exchange: ex,
        });
      }
      const ex = limited!;
      const remaining = num(ex.headers['x-ratelimit-remaining']);
      observe(
        'rate-limit.values',
        'X-RateLimit-Remaining on the 429',
        remaining === 0 ? '0' : remaining === undefined ? 'absent' : 'above 0',
      );
      observe('rate-limit.values', 'form of X-RateLimit-Reset', resetForm(ex.headers['x-ratelimit-reset']), {
        reset: ex.headers['x-ratelimit-reset'] ?? null,
      });
      const first = seen[0]!.ex.headers;
      observe(
        'rate-limit.values',
        'headers on a non-429 answer',
        seen[0]!.ex.status === 429
          ? 'no answer before the 429'
          : HEADERS.filter((h) => first[h] !== undefined).join(', ') || 'none',
      );
    },
  );

  const everyAnswer = declareRules('rate-limit.header-values');
  test(
    'should describe one possible limit on every answer that carries the headers, 429 or not: Remaining between 0 and Limit, a Reset not below 0 and not already past',
    everyAnswer,
    async () => {
      test.skip(!seen.length, 'The probe sent no request');
      // The headers are named once for the interface (Limits: "Rate-limit headers are ..."): wherever a target sends
      // them, they describe its limit. Whether a 429 comes within the probe or not, a Remaining above the Limit or
      // below 0, or an epoch Reset already past when the answer arrived, describes no limit at all.
      let judged = 0;
      const all = [...seen, ...after429, ...respelt, ...retargeted, ...second, ...afterSecond429];
      for (const x of [...all, ...(late ? [late] : []), ...(afterFreshReset ? [afterFreshReset] : [])]) {
        const h = x.ex.headers;
        const [limit, remaining, reset] = [
          num(h['x-ratelimit-limit']),
          num(h['x-ratelimit-remaining']),
          num(h['x-ratelimit-reset']),
        ];
        if (limit === undefined && remaining === undefined && reset === undefined) continue;
        judged++;
        must(
          everyAnswer.rateLimitHeaderValues,
          (remaining === undefined || remaining >= 0) &&
            (limit === undefined || remaining === undefined || remaining <= limit),
          {
            expected: '0 ≤ X-RateLimit-Remaining ≤ X-RateLimit-Limit',
            actual: `Remaining ${h['x-ratelimit-remaining']}, Limit ${h['x-ratelimit-limit']} (status ${x.ex.status})`,
            exchange: x.ex,
          },
        );
        must(everyAnswer.rateLimitHeaderValues, reset === undefined || reset >= 0, {
          expected: 'X-RateLimit-Reset not below 0: a moment in epoch seconds or a wait in seconds',
          actual: `X-RateLimit-Reset ${h['x-ratelimit-reset']} (status ${x.ex.status})`,
          exchange: x.ex,
        });
        if (reset === undefined || reset <= 1e9) continue;
        must(everyAnswer.rateLimitHeaderValues, reset * 1000 >= x.at - RESET_TOLERANCE_MS, {
          expected: `an epoch-seconds X-RateLimit-Reset not before the answer arrived (${new Date(x.at).toISOString()})`,
          actual: `X-RateLimit-Reset ${reset}: ${new Date(reset * 1000).toISOString()}, ${Math.round((x.at - reset * 1000) / 1000)} s before (status ${x.ex.status})`,
          exchange: x.ex,
        });
      }
      observe(
        'rate-limit.values',
        'answers of the probe carrying the headers',
        `${judged} of ${all.length + (late ? 1 : 0) + (afterFreshReset ? 1 : 0)}`,
      );
    },
  );

  const lifecycle = declareRules('versioning.lifecycle');
  test(
    "should announce the Generally Available listing as deprecated on no answer of the probe, its 429s among them (the label is the operation's, so every answer of it, admitted or refused over the limit, carries it alike)",
    lifecycle,
    async () => {
      test.skip(!seen.length, 'The probe sent no request');
      // In the order sent: each request went after the answer before it arrived, the bound where a probe kept by an
      // earlier version of this file did not record when its request was sent. Not the answers to other spellings
      // of the target (TARGET_SPELLINGS): a Deprecation field is about its target URI (RFC 9745), and those URIs are
      // not the one the document labels.
      const all = [
        ...seen,
        ...after429,
        ...respelt,
        ...second,
        ...afterSecond429,
        ...(late ? [late] : []),
        ...(afterFreshReset ? [afterFreshReset] : []),
      ];
      for (const [i, x] of all.entries())
        mustNotBeDeprecated(lifecycle.versioningLifecycle, x.ex, x.sent ?? all[i - 1]?.at ?? x.at);
    },
  );

  const overLimit = declareRules('token-sets.list.rate-limit.status');
  test(
    "should answer 429 to every request over the limit within the window, not only the first: the requests sent after a window's 429 and answered before its X-RateLimit-Reset are 429 too (admitted within one window stays at most X-RateLimit-Limit)",
    overLimit,
    async () => {
      need429(overLimit.tokenSetsListRateLimitStatus);
      // The first window's 429 and the fresh one's, each with the requests sent right after it, same token.
      const windows = [
        { name: 'the first window', refused: limited && seen.at(-1)!, after: after429 },
        { name: 'the fresh window', refused: second.at(-1), after: afterSecond429 },
      ];
      let judged = 0;
      for (const { name, refused, after } of windows) {
        if (refused?.ex.status !== 429) continue;
        // A window the target announced as reset may admit again: only answers before the 429's own Reset count.
        const within = beforeResetOf(refused, after);
        judged += within.length;
        for (const [i, x] of within.entries())
          must(overLimit.tokenSetsListRateLimitStatus, x.ex.status === 429, {
            expected: `429 to request ${i + 1} of the ${after.length} sent after the 429 of ${name} (X-RateLimit-Limit ${refused.ex.headers['x-ratelimit-limit']}), answered ${x.at - refused.at} ms after it, before its X-RateLimit-Reset ${refused.ex.headers['x-ratelimit-reset']} (less ${RESET_TOLERANCE_MS} ms): still over the limit`,
            actual: `status ${x.ex.status}, X-RateLimit-Remaining ${x.ex.headers['x-ratelimit-remaining']} (the same token)`,
            exchange: x.ex,
          });
      }
      test.skip(
        judged === 0,
        "No request after a 429 was answered before that 429's X-RateLimit-Reset (no numeric Reset, the probe's budget spent, or the window's extent passed): no window to judge",
      );
    },
  );

  const respelling = declareRules('token-sets.list.rate-limit.status');
  test(
    "should answer 429 over the limit to the same token whatever the spelling of its auth-scheme (bearer, BEARER, bEaReR: case-insensitive, RFC 9110 11.1 and RFC 6750 2.1; two spaces after it, 1*SP): the limit is the token's, so no spelling is admitted before the 429's X-RateLimit-Reset",
    respelling,
    async () => {
      need429(respelling.tokenSetsListRateLimitStatus);
      const refused = seen.at(-1)!;
      test.skip(
        respelt.length === 0,
        `The probe's budget (CONFORMANCE_RATE_LIMIT_PROBE_MAX) was spent by the 429 and the requests right after it: no other spelling sent`,
      );
      // Only those answered within the window the 429 refused in: after its Reset the window may have renewed.
      const within = beforeResetOf(refused, respelt);
      for (const x of within) {
        // Admitted is the limit bypassed, and a 5xx is no answer to a request over the limit. A spelling refused
        // otherwise with a 4xx (401 or 400: the bearer check read the scheme or the spaces strictly) admits nothing
        // either; the bearer rules decide that, not this one.
        must(respelling.tokenSetsListRateLimitStatus, x.ex.status >= 400 && x.ex.status < 500, {
          expected: `a refusal, 429, to the same token with the scheme spelt ${x.scheme}, answered ${x.at - refused.at} ms after the 429 (X-RateLimit-Limit ${refused.ex.headers['x-ratelimit-limit']}), before its X-RateLimit-Reset ${refused.ex.headers['x-ratelimit-reset']} (less ${RESET_TOLERANCE_MS} ms): the token is still over its limit`,
          actual: `status ${x.ex.status}, X-RateLimit-Remaining ${x.ex.headers['x-ratelimit-remaining']}: ${x.ex.status >= 500 ? 'a server error' : 'admitted, the limit bypassed by the spelling of the scheme'}`,
          exchange: x.ex,
        });
      }
      const otherwise = within.filter((x) => x.ex.status !== 429).map((x) => `${x.scheme}: ${x.ex.status}`);
      if (otherwise.length)
        test.info().annotations.push({ type: 'refused otherwise than 429', description: otherwise.join(', ') });
      const late = respelt.filter((x) => !within.includes(x)).map((x) => x.scheme);
      if (late.length)
        test.info().annotations.push({
          type: 'not judged',
          description: `answered after the 429's X-RateLimit-Reset (less ${RESET_TOLERANCE_MS} ms), or no numeric Reset: ${late.join(', ')}`,
        });
      test.skip(
        within.length === 0,
        "No respelt request was answered before the 429's X-RateLimit-Reset (no numeric Reset, or the window's extent passed): no window to judge",
      );
    },
  );

  const retargeting = declareRules('token-sets.list.rate-limit.status');
  test(
    "should serve the listing over the limit under no spelling of its request target (RFC 3986 3.4 and RFC 9110 7.1: a query it does not name, ?x=1, a cache buster, ?include_totals=true, an empty ?; RFC 3986 6.2.2.2: /%75sers/, the same URI): the limit is the operation's, so none is served (2xx) nor fails (5xx) before the 429's X-RateLimit-Reset: 429, another 4xx, or a redirect that serves nothing",
    retargeting,
    async () => {
      need429(retargeting.tokenSetsListRateLimitStatus);
      const refused = seen.at(-1)!;
      test.skip(
        retargeted.length === 0,
        `The probe's budget (CONFORMANCE_RATE_LIMIT_PROBE_MAX) was spent by the 429 and the requests right after it: no other spelling of the target sent`,
      );
      // Only those answered within the window the 429 refused in: after its Reset the window may have renewed.
      const within = beforeResetOf(refused, retargeted);
      for (const x of within) {
        // Served (2xx) is the limit bypassed by the spelling, and a 5xx is no answer to a request over the limit. A
        // 4xx admits nothing: 429, or a refusal of the query the listing does not name (400, 422) or of a path the
        // server does not decode (404); the document leaves those open. A 3xx serves nothing either: a redirect to
        // another spelling (the normalised path, the query dropped) names a request that is itself counted.
        must(retargeting.tokenSetsListRateLimitStatus, x.ex.status >= 300 && x.ex.status < 500, {
          expected: `a refusal, 429 (or another 4xx, or a redirect), to the listing ${x.target}, the same token, answered ${x.at - refused.at} ms after the 429 (X-RateLimit-Limit ${refused.ex.headers['x-ratelimit-limit']}), before its X-RateLimit-Reset ${refused.ex.headers['x-ratelimit-reset']} (less ${RESET_TOLERANCE_MS} ms): the token is still over the listing's limit`,
          actual: `status ${x.ex.status}, X-RateLimit-Remaining ${x.ex.headers['x-ratelimit-remaining']}: ${x.ex.status >= 500 ? 'a server error' : 'served, the limit bypassed by the spelling of the request target'}`,
          exchange: x.ex,
        });
      }
      const otherwise = within.filter((x) => x.ex.status !== 429).map((x) => `${x.target}: ${x.ex.status}`);
      if (otherwise.length)
        test.info().annotations.push({ type: 'answered otherwise than 429', description: otherwise.join('; ') });
      const late = retargeted.filter((x) => !within.includes(x)).map((x) => x.target);
      if (late.length)
        test.info().annotations.push({
          type: 'not judged',
          description: `answered after the 429's X-RateLimit-Reset (less ${RESET_TOLERANCE_MS} ms), or no numeric Reset: ${late.join('; ')}`,
        });
      test.skip(
        within.length === 0,
        "No request with its target spelt otherwise was answered before the 429's X-RateLimit-Reset (no numeric Reset, or the window's extent passed): no window to judge",
      );
    },
  );

  const enforced = declareRules('token-sets.list.rate-limit.status', 'rate-limit.header-values');
  test(
    'should admit, in a fresh window, as many requests as X-RateLimit-Limit says and answer the next 429, X-RateLimit-Remaining counting each down to 0 (the limit announced is the limit enforced; every request counts, its token reused)',
    enforced,
    async ({ config }) => {
      // The first window: no more admitted within it than its first answer announced (every request of the reused token counts).
      const a = announced();
      if (a) {
        const n = admittedInWindow(a.s);
        must(enforced.tokenSetsListRateLimitStatus, limited !== undefined || n <= a.limit, {
          expected: `at most ${a.limit} requests admitted (X-RateLimit-Limit) before X-RateLimit-Reset ${a.s.ex.headers['x-ratelimit-reset']}, then 429`,
          actual: `${n} admitted within that window, the same token reused, no 429`,
          exchange: seen.at(-1)?.ex,
        });
      }
      test.skip(!limited && no429Reason() !== undefined, no429Reason() ?? '');
      test.skip(noRetry !== undefined, `${noRetry}: no fresh window to count`);
      // The fresh window after the reset: the Limit header equals the number of requests it admits.
      const last = second.at(-1)!;
      const limit = num(limited!.headers['x-ratelimit-limit']) ?? num(second[0]!.ex.headers['x-ratelimit-limit']);
      test.skip(limit === undefined, 'No numeric X-RateLimit-Limit to compare (rate-limit.header-values decides that)');
      const admitted = second.filter((x) => x.ex.status !== 429).length;
      test.skip(
        last.ex.status !== 429 && admitted >= config.rateLimitProbeMax,
        `The fresh window's limit ${limit} is past CONFORMANCE_RATE_LIMIT_PROBE_MAX ${config.rateLimitProbeMax}`,
      );
      // Within one window: every answer before the 429 arrived before the first answer's Reset (less the tolerance).
      test.skip(
        resetDelayMs(second[0]!.ex.headers['x-ratelimit-reset']) === undefined,
        "The fresh window's first answer carries no numeric X-RateLimit-Reset (a target may send the headers on the 429 only): the window's extent is not known",
      );
      const within = admittedInWindow(second[0]!, second) === admitted;
      test.skip(!within, "The fresh window's requests outlasted its X-RateLimit-Reset: no single window to count");
      must(enforced.rateLimitHeaderValues, last.ex.status === 429 && admitted === limit, {
        expected: `in the window that began after the 429's X-RateLimit-Reset, ${limit} requests admitted (X-RateLimit-Limit ${limit}), then 429`,
        actual: `${admitted} admitted, then ${last.ex.status === 429 ? '429' : `no 429 (last status ${last.ex.status})`}`,
        exchange: last.ex,
      });
      // X-RateLimit-Remaining counts the request it answers: the k-th admitted of the window says Limit - k, the last 0.
      for (const [k, x] of second.filter((y) => y.ex.status !== 429).entries()) {
        const remaining = num(x.ex.headers['x-ratelimit-remaining']);
        if (remaining === undefined) continue;
        must(enforced.rateLimitHeaderValues, remaining === limit! - (k + 1), {
          expected: `X-RateLimit-Remaining ${limit! - (k + 1)} on the request ${k + 1} of ${limit} the fresh window admitted (the request answered counted)`,
          actual: `X-RateLimit-Remaining ${remaining}`,
          exchange: x.ex,
        });
      }
    },
  );
});
