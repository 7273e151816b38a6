/**
 * Endpoints 1. List token sets of a user:
 * GET /users/{id}/federated-connections-tokensets
 */
import {
  mustBeJson,
  mustMatchSchema,
  mustRefuse,
  mustStatus,
  must,
  observe,
  mustBeJsonErrorBody,
  mustNotBeDeprecated,
} from '../harness/vocabulary/must.ts';
import { requireFixture, requireWrites, skipBeyondReadOnlyBudget, test } from '../harness/fixtures/fixtures.ts';
import { nonce, type EventCauser } from '../harness/fixtures/triggers.ts';
import { fc, fcParams, pathSafeString } from '../harness/vocabulary/properties.ts';
import { authChecks } from '../harness/vocabulary/auth-checks.ts';
import { declareRules, type RuleRef } from '../harness/vocabulary/declare.ts';
import type { Exchange } from '../harness/requests/client.ts';
import { pathOf } from '../spec/operations.ts';
import { envelopeOf } from '../harness/vocabulary/events.ts';
import { history, READ } from './events-history.ts';
import {
  ALPHABETS,
  equivalentSegments,
  LISTING_QUERIES,
  nearIds,
  plainText,
  type AlphabetName,
} from '../harness/vocabulary/partitions.ts';

const path = (id: string) => pathOf('token-sets.list', { id });
/** Clocks of the suite and the target may differ: a set expired less than this ago may still be listed. */
const CLOCK_SKEW_MS = 60_000;
/** A user id that no tenant holds, of a given length. */
const unknownUser = (length = 40) => `conformance-nobody-${'x'.repeat(Math.max(0, length - 19))}`.slice(0, length);

test.describe('token sets of a user @token-sets', () => {
  const success = declareRules(
    'token-sets.list.success',
    'http.json-bodies',
    'token-set.types',
    'timestamps.date-time',
    'token-sets.list.active-only',
    'versioning.lifecycle',
  );
  test(
    'should answer 200 with a JSON array of the active token sets, not announced as deprecated',
    success,
    async ({ api, config }) => {
      const userId = requireFixture(config.userId, 'CONFORMANCE_USER_ID');
      const sentAt = Date.now();
      const ex = await api.get(path(userId));
      mustStatus(success.tokenSetsListSuccess, ex, 200);
      mustBeJson(success.httpJsonBodies, ex);
      must(success.tokenSetsListSuccess, Array.isArray(ex.json), {
        expected: 'a JSON array',
        actual: typeof ex.json,
        exchange: ex,
      });
      mustMatchSchema('token-set-list', ex.json, ex);
      mustNotBeDeprecated(success.versioningLifecycle, ex, sentAt);
      // "(active ones)": no set that expired before the request was sent, allowing for clock skew.
      const before = sentAt - CLOCK_SKEW_MS;
      const expired = (ex.json as Array<{ id?: string; expires_at?: string | null }>).filter(
        (t) => typeof t.expires_at === 'string' && Date.parse(t.expires_at) < before,
      );
      must(success.tokenSetsListActiveOnly, expired.length === 0, {
        expected: `only active token sets: none whose expires_at is before ${new Date(before).toISOString()} (the request's time less ${CLOCK_SKEW_MS / 1000} s of clock skew)`,
        actual: `${expired.length} expired: ${expired
          .slice(0, 3)
          .map((t) => `${t.id} expires_at ${t.expires_at}`)
          .join('; ')}`,
        exchange: ex,
      });
      // Relation: the same read again answers in the same shape. A server may answer a repeated read from a
      // cache, whose copy must be the answer, with its types (the first read of a user and the next alike).
      const again = await api.get(path(userId));
      mustStatus(success.tokenSetsListSuccess, again, 200);
      mustNotBeDeprecated(success.versioningLifecycle, again, sentAt);
      mustMatchSchema('token-set-list', again.json, again);
      // Partition of the query: the paging and projection parameters of the interface's other listings and of
      // list endpoints of its kind (page, per_page, include_totals, fields, sort), which this operation does not
      // name. Ignored or refused, the answer announces no deprecation; taken, it is the listing of active sets.
      // Against an external target, one (per_page).
      for (const query of config.embedded ? LISTING_QUERIES : LISTING_QUERIES.slice(0, 1)) {
        const asked = await api.get(path(userId), { query });
        mustNotBeDeprecated(success.versioningLifecycle, asked, sentAt);
        if (asked.status < 200 || asked.status >= 300) continue;
        mustMatchSchema('token-set-list', asked.json, asked);
        const old = (Array.isArray(asked.json) ? (asked.json as Array<{ expires_at?: unknown }>) : []).filter(
          (t) => typeof t.expires_at === 'string' && Date.parse(t.expires_at) < before,
        );
        must(success.tokenSetsListActiveOnly, old.length === 0, {
          expected: `only active token sets, asked with ${new URLSearchParams(query as Record<string, string>)} (a parameter the operation does not name)`,
          actual: `${old.length} expired`,
          exchange: asked,
        });
      }
      // The other users named (CONFORMANCE_USER_IDS): a listing of one token set, or none, is an array as well.
      for (const other of config.otherUserIds) {
        const listed = await api.get(path(other));
        mustStatus(success.tokenSetsListSuccess, listed, 200);
        mustNotBeDeprecated(success.versioningLifecycle, listed, sentAt);
        must(success.tokenSetsListSuccess, Array.isArray(listed.json), {
          expected: `a JSON array of the token sets of ${other}, however many it holds`,
          actual: typeof listed.json,
          exchange: listed,
        });
        mustMatchSchema('token-set-list', listed.json, listed);
      }
    },
  );

  const known = declareRules('token-sets.list.success', 'token-sets.list.active-only');
  test(
    "should list exactly the user's active token sets, where the tenant's owner names them",
    known,
    async ({ api, config }) => {
      const userId = requireFixture(config.userId, 'CONFORMANCE_USER_ID');
      const expected = config.userTokenSetIds;
      test.skip(
        !expected,
        "CONFORMANCE_USER_TOKEN_SET_IDS is not set: which token sets the user holds is known only to the tenant's owner",
      );
      const ex = await api.get(path(userId));
      mustStatus(known.tokenSetsListSuccess, ex, 200);
      const got = Array.isArray(ex.json) ? (ex.json as Array<{ id?: unknown }>).map((t) => String(t.id)) : [];
      const missing = expected!.filter((id) => !got.includes(id));
      const extra = got.filter((id) => !expected!.includes(id));
      must(known.tokenSetsListSuccess, missing.length === 0, {
        expected: `the user's active token sets: ${expected!.join(', ')}`,
        actual: `missing ${missing.join(', ')}`,
        exchange: ex,
      });
      must(known.tokenSetsListActiveOnly, extra.length === 0 && got.length === new Set(got).size, {
        expected: `only the user's active token sets, each once: ${expected!.join(', ')}`,
        actual: `also ${extra.join(', ') || '(a set twice)'}`,
        exchange: ex,
      });
    },
  );

  const fresh = declareRules('token-sets.list.success', 'token-sets.list.active-only');
  test(
    'should list no token set for a user the suite has just created (writes)',
    fresh,
    async ({ api, events, config }) => {
      test.skip(config.writes === 'none', 'CONFORMANCE_WRITES=none: the suite creates no user');
      requireFixture(config.userConnection, 'CONFORMANCE_USER_CONNECTION');
      // A user made a moment ago has signed in nowhere: it holds no federated token set.
      const n = nonce();
      const id = await events.causer.createUser(n);
      const ex = await api.get(path(id));
      mustStatus(fresh.tokenSetsListSuccess, ex, 200);
      must(fresh.tokenSetsListActiveOnly, Array.isArray(ex.json) && ex.json.length === 0, {
        expected: `[] for ${id}, a user created a moment ago`,
        actual: ex.text.slice(0, 200),
        exchange: ex,
      });
    },
  );

  /**
   * Writes beside the listing, to the user and not to its token sets (PATCH /users/{id}, a route outside the
   * interface), each followed by the listing: its profile updated, the user blocked, the user let in again.
   * `blocked`: the state the write leaves the user in (absent: as it was). `keepsSets`: the write has no bearing
   * on what is held for the user, so a set listed before is listed after; what blocking does to what is held is
   * not shown (a target may revoke a blocked user's sets), so there a set gone is noted, not failed.
   */
  const BESIDE_WRITES: ReadonlyArray<{
    what: string;
    write: (causer: EventCauser, id: string) => Promise<Exchange>;
    blocked?: boolean;
    keepsSets: boolean;
  }> = [
    { what: 'its profile updated (user_metadata)', write: (c, id) => c.touchUser(id, nonce()), keepsSets: true },
    {
      what: 'the user blocked ({"blocked": true})',
      write: (c, id) => c.setUserBlocked(id, true),
      blocked: true,
      keepsSets: false,
    },
    {
      what: 'the user let in again ({"blocked": false})',
      write: (c, id) => c.setUserBlocked(id, false),
      blocked: false,
      keepsSets: false,
    },
  ];
  const besideWrites = declareRules('token-sets.list.success', 'token-sets.list.active-only');
  test(
    "should list the user's active token sets, the same as before, after each write beside the listing: its profile updated, the user blocked, the user let in again (a write beside the listing changes nothing it lists; a blocked user is still a user)",
    besideWrites,
    async ({ api, events, config }) => {
      const userId = requireFixture(config.userId, 'CONFORMANCE_USER_ID');
      requireWrites(config);
      // A profile update of the named user cannot be put back (its updated_at moves): only on a disposable target.
      test.skip(
        config.writes !== 'disposable',
        `CONFORMANCE_WRITES=${config.writes}: the profile of ${userId} is not updated, nor the user blocked, where the target's state is kept`,
      );
      type Listed = Array<{ id?: unknown; expires_at?: unknown; issued_at?: unknown }>;
      const setsOf = (ex: Exchange): Listed => (Array.isArray(ex.json) ? (ex.json as Listed) : []);
      const idsOf = (sets: Listed) => sets.map((t) => String(t.id)).join(', ') || 'none';
      // Relation: the listing before the writes, and the listing after each of them.
      const beforeAt = Date.now();
      const before = await api.get(path(userId));
      mustStatus(besideWrites.tokenSetsListSuccess, before, 200);
      const held = new Map(setsOf(before).map((t) => [String(t.id), t]));
      // Where the user was blocked already (the profile update's answer says so), it is left blocked at the end.
      let blockedAtStart = false;
      let blockedNow = false;
      const refused: string[] = [];
      let judged = 0;
      try {
        for (const w of BESIDE_WRITES) {
          const write = await w.write(events.causer, userId);
          // The write is a route outside the eight operations: its refusal, or its failure, decides none of their
          // rules. A refused block leaves the user as it was: the write that lets it in again is left out too.
          if (write.status < 200 || write.status >= 300) {
            refused.push(
              write.status >= 500
                ? `${w.what}: failed with a server error (${write.status}), on a route outside the interface`
                : `${w.what}: refused (${write.status})`,
            );
            if (w.blocked === true) break;
            continue;
          }
          if (w === BESIDE_WRITES[0])
            blockedAtStart = (write.json as { blocked?: unknown } | undefined)?.blocked === true;
          if (w.blocked !== undefined) blockedNow = w.blocked;
          const sentAt = Date.now();
          const ex = await api.get(path(userId));
          judged++;
          // "404: The user does not exist": a blocked user exists, and its listing is that of an existing user.
          must(besideWrites.tokenSetsListSuccess, ex.status === 200 && Array.isArray(ex.json), {
            expected: `200 and a JSON array of the token sets of ${userId}, a user that exists, after ${w.what}`,
            actual: `status ${ex.status}: ${ex.text.slice(0, 200)}`,
            exchange: ex,
          });
          const got = setsOf(ex);
          const expired = got.filter(
            (t) => typeof t.expires_at === 'string' && Date.parse(t.expires_at) < sentAt - CLOCK_SKEW_MS,
          );
          must(besideWrites.tokenSetsListActiveOnly, expired.length === 0, {
            expected: `only active token sets of ${userId}, after ${w.what}`,
            actual: `${expired.length} expired: ${expired.map((t) => `${String(t.id)} expires_at ${String(t.expires_at)}`).join('; ')}`,
            exchange: ex,
          });
          // A set listed before may have expired since (within the clock skew, listed or not), and a set issued
          // since the first listing may be new (a sign-in meanwhile). A set issued before it and active now was
          // active then: listed now and not then, one of the two listings left out an active set.
          const ids = new Set(got.map((t) => String(t.id)));
          const extra = got.filter(
            (t) =>
              !held.has(String(t.id)) &&
              !(typeof t.issued_at === 'string' && Date.parse(t.issued_at) > beforeAt - CLOCK_SKEW_MS),
          );
          const gone = [...held.values()].filter(
            (t) =>
              !ids.has(String(t.id)) &&
              !(typeof t.expires_at === 'string' && Date.parse(t.expires_at) < sentAt + CLOCK_SKEW_MS),
          );
          const missing = w.keepsSets ? gone : [];
          if (!w.keepsSets && gone.length > 0)
            test.info().annotations.push({
              type: 'note',
              description: `After ${w.what}, the listing of ${userId} no longer holds ${idsOf(gone)} (what blocking does to a user's token sets is not shown)`,
            });
          must(besideWrites.tokenSetsListSuccess, missing.length === 0 && extra.length === 0, {
            expected: `the active token sets listed before the writes (${idsOf([...held.values()])}), after ${w.what}`,
            actual: [
              ...(missing.length ? [`missing ${idsOf(missing)}`] : []),
              ...(extra.length ? [`also ${idsOf(extra)}, issued before the first listing`] : []),
            ].join('; '),
            exchange: ex,
          });
        }
      } finally {
        // Put back: the user let in again where a failed check left it blocked, or blocked as it was found.
        if (blockedNow !== blockedAtStart) {
          const back = await events.causer.setUserBlocked(userId, blockedAtStart);
          if (back.status < 200 || back.status >= 300)
            test.info().annotations.push({
              type: 'not restored',
              description: `PATCH /users/${userId} with {"blocked": ${blockedAtStart}} answered ${back.status}: put it back by hand`,
            });
        }
      }
      // A write refused leaves its part of the partition undecided: skipped with the reason, after what was judged.
      test.skip(
        refused.length > 0,
        `${refused.join('; ')}${judged ? ` (the listing after the ${judged} write(s) taken was as before)` : ''}`,
      );
    },
  );

  const unknownUserRules = declareRules(
    'token-sets.list.unknown-user',
    'http.json-error-bodies',
    'versioning.lifecycle',
  );
  test(
    'should answer 404, in JSON, for a user that does not exist, not announced as deprecated (an error is an answer of the operation too)',
    unknownUserRules,
    async ({ api }) => {
      const sentAt = Date.now();
      const ex = await api.get(path(unknownUser()));
      mustStatus(unknownUserRules.tokenSetsListUnknownUser, ex, 404);
      mustBeJsonErrorBody(unknownUserRules, ex);
      mustNotBeDeprecated(unknownUserRules.versioningLifecycle, ex, sentAt);
    },
  );

  const deleted = declareRules('token-sets.list.unknown-user', 'token-sets.list.success');
  test(
    'should answer 404 for a user once it is deleted, having listed its token sets while it existed, and refuse it under its email and its name while it exists (relation: a deleted user does not exist; the path names a user by its id)',
    deleted,
    async ({ api, config, events }) => {
      requireWrites(config);
      requireFixture(config.userConnection, 'CONFORMANCE_USER_CONNECTION');
      // The user the suite creates to cause events (and deletes): a real user first, then no user at all.
      const n = nonce();
      const id = await events.causer.createUser(n);
      const existing = await api.get(path(id));
      must(deleted.tokenSetsListSuccess, existing.status === 200 && Array.isArray(existing.json), {
        expected: `200 and a JSON array: user ${id} was just created`,
        actual: `status ${existing.status}`,
        exchange: existing,
      });
      // The path names the user by its id: the user's email and name, which the suite gave it, name no user.
      for (const [what, other] of [
        ['email', `conformance+${n}@example.com`],
        ['name', `conformance ${n}`],
      ] as const)
        // A store may make a user's email its id (a custom database): then the email is the id.
        if (other !== id)
          mustRefuse(
            deleted.tokenSetsListUnknownUser,
            await api.get(path(other)),
            `no user has the id ${JSON.stringify(other)}: it is the ${what} of user ${id}, whose listing is answered under its id`,
          );
      await events.causer.deleteUser(id);
      mustStatus(deleted.tokenSetsListUnknownUser, await api.get(path(id)), 404);
    },
  );

  // Relation: the path names a user by its identifier. The email of a user the tenant's history names, where the
  // listing under the user's id answers, is no user's id (read-only: the history is read once per worker).
  const byEmail = declareRules('token-sets.list.unknown-user', READ);
  test(
    "should refuse the listing under the email of a user the tenant's history names, where the listing under its id answers (the path names a user by its id)",
    byEmail,
    async ({ api, config, events }) => {
      const h = await history(byEmail, events, config);
      type UserEnvelope = { type?: string; data?: { object?: { user_id?: unknown; email?: unknown } } };
      const envelopes = h.events.map((m) => envelopeOf(m) as UserEnvelope | undefined);
      // Users the history does not say were deleted, the newest first, each once.
      const gone = new Set(envelopes.filter((e) => e?.type === 'user.deleted').map((e) => e?.data?.object?.user_id));
      const seen = new Set<string>();
      const users = envelopes
        .map((e) => e?.data?.object)
        .filter((o) => typeof o?.user_id === 'string' && typeof o.email === 'string' && o.email.includes('@'))
        .map((o) => ({ id: o!.user_id as string, email: o!.email as string }))
        .reverse()
        // A store may make a user's email its id (a custom database): then the email is the id.
        .filter((u) => u.id !== u.email && !gone.has(u.id) && !seen.has(u.id) && seen.add(u.id));
      // Against an external target two of them at most (the read-only budget).
      let named: { id: string; email: string } | undefined;
      for (const u of users.slice(0, config.embedded ? 5 : 2)) {
        if ((await api.get(path(u.id))).status === 200) {
          named = u;
          break;
        }
      }
      test.skip(
        named === undefined,
        `Of the ${users.length} users with an email the tenant's history names and does not say were deleted, none checked is listed under its id`,
      );
      mustRefuse(
        byEmail.tokenSetsListUnknownUser,
        await api.get(path(named!.email)),
        `no user has the id ${JSON.stringify(named!.email)}: it is the email of user ${named!.id}, whose listing is answered under its id`,
      );
    },
  );

  const near = declareRules('token-sets.list.unknown-user');
  test("should refuse every user id near the real user's (RFC 3986: another path)", near, async ({ api, config }) => {
    const userId = requireFixture(config.userId, 'CONFORMANCE_USER_ID');
    const variants = nearIds(userId);
    for (const v of config.embedded ? variants : variants.filter((_, i) => i === 0 || i === 5)) {
      const ex = await api.get(
        `${path('ID').replace(/ID\/federated-connections-tokensets$/, '')}${v.raw}/federated-connections-tokensets`,
      );
      // No real user holds such an id: refused (404, or a validation failure, whose status is not shown).
      mustRefuse(near.tokenSetsListUnknownUser, ex, `no user has the id ${JSON.stringify(v.decoded)} (${v.what})`);
    }
  });

  const equivalent = declareRules('http.path-id.percent-encoding');
  test(
    "should answer the user's token sets for every spelling of the user id RFC 3986 makes the same (lower-case hex, unreserved characters encoded)",
    equivalent,
    async ({ api, config }) => {
      const userId = requireFixture(config.userId, 'CONFORMANCE_USER_ID');
      const ids = (ex: { json?: unknown }) =>
        Array.isArray(ex.json) ? (ex.json as Array<{ id?: unknown }>).map((t) => String(t.id)).sort() : undefined;
      // The canonical answer, to equal (against an external target, not read again: the user named exists,
      // and its listing is 200, as the check of the listing decides).
      const canonical = config.embedded ? await api.get(path(userId)) : undefined;
      const want = canonical
        ? `status ${canonical.status} with the token sets ${JSON.stringify(ids(canonical))}, as its canonical spelling is answered`
        : `200 with the token sets of ${userId}`;
      // Against an external target, one: every unreserved character encoded, all in lower-case hex.
      const spellings = equivalentSegments(userId);
      for (const v of config.embedded ? spellings : spellings.slice(-1)) {
        const ex = await api.get(
          `${path('ID').replace(/ID\/federated-connections-tokensets$/, '')}${v.raw}/federated-connections-tokensets`,
        );
        const same = canonical
          ? ex.status === canonical.status && JSON.stringify(ids(ex)) === JSON.stringify(ids(canonical))
          : ex.status === 200 && ids(ex) !== undefined;
        must(equivalent.httpPathIdPercentEncoding, same, {
          expected: `${want}: the id spelt with ${v.what} is the same user`,
          actual: `status ${ex.status}, token sets ${JSON.stringify(ids(ex)) ?? ex.text.slice(0, 120)}`,
          exchange: ex,
        });
      }
    },
  );

  const maxLength = declareRules('token-sets.list.user-id.max-length');
  test(
    'should accept a user id of 300 characters and refuse one of 301, plain and in the shape of a user id (provider|id, one and two provider parts): the whole id counts',
    maxLength,
    async ({ api, config }) => {
      // The limit is on the whole path parameter ("maximum length 300 (user identifier)"). User ids carry their
      // identity provider before a | (the configured user's own prefix, where it has one): a server counting only
      // the part after it, or the part before it, takes 301 in that shape. Against an external target, the shape
      // of the configured user alone (the read-only budget).
      const own = config.userId?.includes('|') ? config.userId.slice(0, config.userId.lastIndexOf('|') + 1) : undefined;
      const prefixes = [...new Set(['conformance-nobody-', ...(own ? [own] : []), 'auth0|', 'samlp|conformance|'])];
      const sent = config.embedded ? prefixes : [own ?? 'auth0|'];
      for (const prefix of sent) {
        const [at, over] = [300, 301].map((n) => `${prefix}${'x'.repeat(n - prefix.length)}`);
        const atEx = await api.get(path(at!));
        must(maxLength.tokenSetsListUserIdMaxLength, atEx.status === 404, {
          expected: `status 404 for an unknown user id of 300 characters beginning ${JSON.stringify(prefix)} (an unknown user, not a refused length)`,
          actual: `status ${atEx.status}`,
          exchange: atEx,
        });
        mustRefuse(
          maxLength.tokenSetsListUserIdMaxLength,
          await api.get(path(over!)),
          `user id of 301 characters beginning ${JSON.stringify(prefix)}, over the maximum of 300`,
        );
      }
    },
  );

  const counted = declareRules('token-sets.list.user-id.max-length');
  test(
    'should count the user id in characters in every script: 300 of them an unknown user (404), 301 refused',
    counted,
    async ({ api, config }) => {
      // Every alphabet, at and over the limit: a server counting bytes, UTF-16 units or the encoded path refuses 300.
      const all = Object.keys(ALPHABETS) as AlphabetName[];
      // Against an external target, characters outside the BMP alone: 4 UTF-8 bytes, 2 UTF-16 units and
      // 12 path characters each, so any counting but in characters refuses 300 of them.
      for (const alphabet of config.embedded ? all : (['astral'] as const)) {
        const [at, over] = [300, 301].map(
          (n) => `conformance-${fc.sample(plainText(alphabet, n - 12), { seed: n, numRuns: 1 })[0]}`,
        );
        const atEx = await api.get(path(at!));
        must(counted.tokenSetsListUserIdMaxLength, atEx.status === 404, {
          expected: `status 404 for an unknown user id of 300 ${alphabet} characters (${Buffer.byteLength(at!)} UTF-8 bytes, ${encodeURIComponent(at!).length} in the path): within the limit`,
          actual: `status ${atEx.status}`,
          exchange: atEx,
        });
        mustRefuse(
          counted.tokenSetsListUserIdMaxLength,
          await api.get(path(over!)),
          `a user id of 301 ${alphabet} characters`,
        );
      }
    },
  );

  const maxLength2 = declareRules('token-sets.list.user-id.max-length');
  test('should refuse user ids over 300 characters (property)', maxLength2, async ({ api, config }) => {
    // 301 characters, plain and in a user id's shape, and in every script, decide the rule in a read-only run.
    skipBeyondReadOnlyBudget(config, 'the drawn lengths are');
    await fc.assert(
      fc.asyncProperty(
        // Plain, or in a user id's shape: a provider prefix before a |, the whole counted.
        fc
          .tuple(fc.integer({ min: 301, max: 1200 }), fc.constantFrom('', 'auth0|', 'google-oauth2|', 'samlp|corp|'))
          .chain(([n, prefix]) => pathSafeString(n - prefix.length).map((rest) => `${prefix}${rest}`)),
        async (id) => {
          mustRefuse(
            maxLength2.tokenSetsListUserIdMaxLength,
            await api.get(path(id)),
            `user id of ${id.length} characters`,
          );
        },
      ),
      fcParams(config, 15),
    );
  });

  const insufficientScope = declareRules('token-sets.list.insufficient-scope', 'versioning.lifecycle');
  test(
    // The title as verify/blind-caught-by.json records it; the 403 is held to the listing's lifecycle label too.
    'should answer 403 to a token without read:federated_connections_tokens',
    insufficientScope,
    async ({ limitedApi, config }) => {
      const sentAt = Date.now();
      const ex = await limitedApi.get(path(config.userId ?? unknownUser()));
      mustNotBeDeprecated(insufficientScope.versioningLifecycle, ex, sentAt);
      mustStatus(insufficientScope.tokenSetsListInsufficientScope, ex, 403);
      observe(
        'token-sets.list.scope-named',
        'the 403 body names read:federated_connections_tokens',
        ex.text.includes('read:federated_connections_tokens') ? 'yes' : 'no',
        { body: ex.json ?? ex.text.slice(0, 300) },
      );
    },
  );

  // The lifecycle label is the operation's: its refusal of a request without a token, a 401 answered before the
  // request reaches the listing, is an answer of it too, and announces no deprecation either.
  const unauthenticated = declareRules('versioning.lifecycle');
  test(
    'should not announce the listing as deprecated on its 401 to a request without a token',
    unauthenticated,
    async ({ api, config }) => {
      skipBeyondReadOnlyBudget(config, 'this request is');
      const sentAt = Date.now();
      const ex = await api.get(path(config.userId ?? unknownUser()), { auth: 'none' });
      mustNotBeDeprecated(unauthenticated.versioningLifecycle, ex, sentAt);
    },
  );
});

authChecks('token-sets.list', (api, c, auth) => api.get(path(c.userId ?? unknownUser()), { auth }));
