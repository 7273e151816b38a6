/**
 * The HTTP layer, for every operation: "All request and response bodies are
 * JSON unless stated" (Endpoints). Every refusal the HTTP layer can give
 * (an unknown route, a method the path does not take, a media type it does
 * not take, a body too large or too deep, odd query forms, an Accept it
 * cannot meet) answers a JSON body with a JSON media type; which status it
 * uses is not shown, but the status that arrives follows RFC 9110's
 * checklist (a 405 carries Allow, a 401 a challenge, and Allow lists what
 * the path serves).
 * So does a path whose segments are no percent-encoding of UTF-8 (RFC 3986
 * 2.1, 2.5), in every segment of every operation with a path parameter.
 * A read answers the same JSON value, whatever proactive negotiation fields
 * (RFC 9110 12.5: Accept, Accept-Charset, Accept-Encoding, Accept-Language)
 * it carries, or refuses them 406.
 * Writes go only to ids that do not exist, so nothing on the target can change.
 */
import { atReadOnlyBudget, requireWrites, skipBeyondReadOnlyBudget, test } from '../harness/fixtures/fixtures.ts';
import { customTextPath } from '../harness/fixtures/restore.ts';
import type { Api, Exchange, RequestOptions } from '../harness/requests/client.ts';
import { isJsonMediaType } from '../harness/requests/client.ts';
import { declareRules, schemaRules, type RuleRef } from '../harness/vocabulary/declare.ts';
import { must, mustBeJsonErrorBody, mustMatchSchema } from '../harness/vocabulary/must.ts';
import type { SchemaName } from '../schemas/index.ts';
import { NOT_ACCEPTABLE, differences, negotiationsFor } from '../harness/vocabulary/negotiation.ts';
import { mustFollowStatusChecklist } from '../harness/vocabulary/auth-checks.ts';
import {
  ADMITS_JSON,
  DEEP_NESTING,
  FRAMEWORK_QUERIES,
  MALFORMED_PERCENT_ENDINGS,
  admitsJsonArb,
  notEquivalentSegments,
  withNestedMember,
} from '../harness/vocabulary/partitions.ts';
import { sameJson } from '../harness/vocabulary/json.ts';
import { fc } from '../harness/vocabulary/properties.ts';
import type { Config } from '../harness/run/config.ts';
import { operations, pathOf, type OperationId } from '../spec/operations.ts';

const UNKNOWN = {
  user: 'conformance-nobody-http',
  grant: 'cgr_conformanceNoSuchGrant',
  stream: 'est_conformancenosuchstrea',
  experiment: 'exp_conformanceNoSuchExperiment',
  profile: 'ssp_conformanceNoSuchProfile',
};
const TEXT = pathOf('custom-text.put', { id: UNKNOWN.profile, language: 'en', page: 'get-started' });
const MOVE = pathOf('experiments.transition', { id: UNKNOWN.experiment });

interface Provocation {
  what: string;
  writes?: boolean;
  /** Sent to an external target only where writes are on (the read-only run is at its request budget). */
  beyondBudget?: boolean;
  /** A read of nothing that exists, however its path is read: a 2xx would answer for another resource. */
  namesNothing?: boolean;
  /** One request, or one per partition of an input. */
  send: (api: Api, config: Config) => Promise<Exchange | Exchange[]>;
}

const send =
  (method: string, path: string, opts: RequestOptions = {}) =>
  (api: Api) =>
    api.send(method, path, opts);

/** One request per refusal the HTTP layer can produce, on paths of every operation. */
const PROVOCATIONS: readonly Provocation[] = [
  { what: 'an unknown route under {base_url}', send: send('GET', '/conformance-no-such-route') },
  { what: 'GET on the experiment move (a POST)', send: send('GET', MOVE) },
  {
    what: 'take given twice on the event-stream listing',
    send: send('GET', pathOf('event-streams.list'), { query: { take: ['1', '2'] } }),
  },
  {
    what: 'take and from in bracket form on the event-stream listing',
    send: send('GET', pathOf('event-streams.list'), { query: { 'take[]': '1', 'from[]': 'x' } }),
  },
  {
    what: 'Accept: text/html on an unknown client grant',
    send: send('GET', pathOf('client-grants.get', { id: UNKNOWN.grant }), { headers: { accept: 'text/html' } }),
  },
  {
    what: 'Accept: application/xml on the event-stream listing',
    send: send('GET', pathOf('event-streams.list'), { headers: { accept: 'application/xml' } }),
  },
  {
    what: 'DELETE on an unknown client grant',
    writes: true,
    send: send('DELETE', pathOf('client-grants.get', { id: UNKNOWN.grant })),
  },
  {
    what: 'POST on an unknown event stream',
    writes: true,
    send: send('POST', pathOf('event-streams.get', { id: UNKNOWN.stream }), { json: {} }),
  },
  {
    what: "PATCH on an unknown user's token sets",
    writes: true,
    send: send('PATCH', pathOf('token-sets.list', { id: UNKNOWN.user }), { json: {} }),
  },
  {
    what: 'PUT on the experiment move (a POST)',
    writes: true,
    send: send('PUT', MOVE, { json: { status: 'paused' } }),
  },
  {
    what: "OPTIONS on an unknown profile's custom text",
    beyondBudget: true,
    send: send('OPTIONS', TEXT),
  },
  {
    // A path that takes more than one method (PUT, and where the target offers it GET): Allow lists them all.
    what: "PATCH on an unknown profile's custom text",
    writes: true,
    send: send('PATCH', TEXT, { json: { introduction: 'x' } }),
  },
  {
    what: 'a move sent as text/plain',
    writes: true,
    send: send('POST', MOVE, { body: '{"status":"paused"}', contentType: 'text/plain' }),
  },
  {
    what: 'custom text sent as application/xml',
    writes: true,
    send: send('PUT', TEXT, { body: '<introduction>x</introduction>', contentType: 'application/xml' }),
  },
  {
    what: 'custom text of 3 MB',
    writes: true,
    send: send('PUT', TEXT, { json: { introduction: 'x'.repeat(3_000_000) } }),
  },
  ...DEEP_NESTING.flatMap((depth): Provocation[] => [
    {
      // RFC 8259 9: a parser may limit nesting; past a recursive copy's or serialiser's stack, a server refuses.
      what: `a move whose body holds a member ${depth.toLocaleString('en')} arrays deep`,
      writes: true,
      send: send('POST', MOVE, {
        body: withNestedMember({ status: 'paused' }, 'x-conformance', depth),
        contentType: 'application/json',
      }),
    },
    {
      what: `custom text whose body holds a member ${depth.toLocaleString('en')} arrays deep`,
      writes: true,
      send: send('PUT', TEXT, {
        body: withNestedMember({ introduction: 'x' }, 'x-conformance', depth),
        contentType: 'application/json',
      }),
    },
  ]),
  {
    what: 'custom text nested 100,000 arrays deep (RFC 8259 9: a parser may limit nesting, and then refuses)',
    writes: true,
    send: send('PUT', TEXT, { body: `${'['.repeat(100_000)}${']'.repeat(100_000)}`, contentType: 'application/json' }),
  },
];

/** What the operations with a path parameter are sent: ids that do not exist, the allowed enum values, a body. */
const PATH_VALUES: Partial<Record<OperationId, { params: Record<string, string>; json?: unknown }>> = {
  'token-sets.list': { params: { id: UNKNOWN.user } },
  'experiments.transition': { params: { id: UNKNOWN.experiment }, json: { status: 'paused' } },
  'client-grants.get': { params: { id: UNKNOWN.grant } },
  'event-streams.get': { params: { id: UNKNOWN.stream } },
  'custom-text.put': {
    params: { id: UNKNOWN.profile, language: 'en', page: 'get-started' },
    json: { introduction: 'x' },
  },
};

/**
 * RFC 3986 2.1, 2.5: every segment of the path of every operation with a path parameter (the parameters and
 * the fixed segments), ending in each malformed percent-encoding (MALFORMED_PERCENT_ENDINGS). Against an
 * external target without writes, none: that run counts about 181 requests of its 195 (selftest/suite/budget.test.ts), varying with which
 * worker runs which check first, and the room left is for that variation. (A read to send there, should room be made: a client
 * grant's id ending in a % without hex digits, what a proxy in front of the service is likeliest to answer.)
 */
const READ_ONLY_MALFORMED: Record<string, string> = {};
const MALFORMED_PATHS: Provocation[] = operations.flatMap((op) => {
  const values = PATH_VALUES[op.id];
  if (!op.path.includes('{')) return [];
  if (values === undefined) throw new Error(`http.spec: no path values for ${op.id}`);
  const segments = op.path.split('/').slice(1);
  return segments.map((segment, i): Provocation => {
    const readOnly = READ_ONLY_MALFORMED[`${op.id} ${segment}`];
    const spelt = (ending: string) =>
      `/${segments
        .map(
          (s, j) =>
            `${s.startsWith('{') ? encodeURIComponent(values.params[s.slice(1, -1)]!) : s}${j === i ? ending : ''}`,
        )
        .join('/')}`;
    return {
      what: `${op.method} ${op.path} with ${segment} ending in a malformed percent-encoding (RFC 3986 2.1, 2.5: ${MALFORMED_PERCENT_ENDINGS.map((e) => e.raw).join(' ')})`,
      writes: op.writes,
      beyondBudget: readOnly === undefined,
      namesNothing: op.method === 'GET',
      send: async (api, config) => {
        const all = MALFORMED_PERCENT_ENDINGS.map((e) => e.raw);
        const sent = config.embedded || config.writes !== 'none' || readOnly === undefined ? all : [readOnly];
        const out: Exchange[] = [];
        for (const ending of sent)
          out.push(await api.send(op.method, spelt(ending), values.json === undefined ? {} : { json: values.json }));
        return out;
      },
    };
  });
});

test.describe('the HTTP layer answers JSON @http', () => {
  for (const p of [...PROVOCATIONS, ...MALFORMED_PATHS]) {
    const json = declareRules(
      'http.json-error-bodies',
      'http.json-bodies',
      'http.method-not-allowed.allow',
      'http.unauthorized.challenge',
      ...(p.namesNothing ? (['http.path-id.percent-encoding'] as const) : []),
    );
    test(`should answer ${p.what} in JSON, and never with a server error`, json, async ({ api, config }) => {
      if (p.writes) requireWrites(config);
      if (p.beyondBudget) skipBeyondReadOnlyBudget(config, 'these requests are');
      for (const ex of [await p.send(api, config)].flat()) {
        // RFC 9110 15.5.6 / 11.6.1, whatever status the target chose: a 405 names the methods, a 401 challenges.
        mustFollowStatusChecklist(json, ex);
        const body = ex.text.trim() !== '';
        const inJson = isJsonMediaType(ex.contentType) && ex.json !== undefined;
        const success = ex.status >= 200 && ex.status < 300;
        if (p.namesNothing)
          must('http.path-id.percent-encoding', !success, {
            expected:
              'no 2xx: the path names nothing that exists, however it is read (RFC 3986 2.1, 2.5: no percent-encoding of UTF-8)',
            actual: `status ${ex.status}`,
            exchange: ex,
          });
        if (success) {
          must(json.httpJsonBodies, !body || inJson, {
            expected: 'a JSON body with a JSON media type',
            actual: `Content-Type ${ex.contentType || '(none)'}, body ${inJson ? 'JSON' : 'not JSON'}`,
            exchange: ex,
          });
          continue;
        }
        // A refusal's status is not shown; its body is JSON (a 4xx without one holds no JSON text). A 5xx is never a pass.
        must(json.httpJsonErrorBodies, ex.status >= 300 && (inJson || (!body && ex.status < 400)), {
          expected: 'a refusal whose body is JSON with a JSON media type',
          actual: `status ${ex.status}, Content-Type ${ex.contentType || '(none)'}, body ${body ? (inJson ? 'JSON' : 'not JSON') : 'empty'}`,
          exchange: ex,
        });
      }
    });
  }
});

test.describe('every Accept that admits JSON is met @http', () => {
  const served = declareRules(
    'client-grants.get.success',
    'event-streams.list.success',
    'event-streams.get.success',
    'token-sets.list.success',
    'http.json-bodies',
  );
  test(
    'should answer every read with JSON to every Accept that admits it, and whatever query parameter a web framework acts on by itself (a JSONP callback, a format switch): the token-set listing, a client grant, the event-stream listing and an event stream it lists',
    served,
    async ({ api, config }) => {
      // A read-only run against a tenant, at its request budget: the event-stream listing alone.
      const budget = atReadOnlyBudget(config);
      const reads: Array<readonly [RuleRef, string]> = [
        ...(config.clientGrantId && !budget
          ? [[served.clientGrantsGetSuccess, pathOf('client-grants.get', { id: config.clientGrantId })] as const]
          : []),
        ...(config.userId && !budget
          ? [[served.tokenSetsListSuccess, pathOf('token-sets.list', { id: config.userId })] as const]
          : []),
      ];
      reads.push([served.eventStreamsListSuccess, pathOf('event-streams.list')]);
      // The event stream by an id the listing gives (the listing read first); against an external target without
      // writes, none (its budget).
      if (!atReadOnlyBudget(config)) {
        const page = (await api.get(pathOf('event-streams.list'))).json as { eventStreams?: unknown } | unknown[];
        const streams = Array.isArray(page) ? page : page?.eventStreams;
        const id = (Array.isArray(streams) ? (streams as Array<{ id?: unknown }>) : []).find(
          (s) => typeof s.id === 'string',
        )?.id as string | undefined;
        if (id) reads.push([served.eventStreamsGetSuccess, pathOf('event-streams.get', { id })]);
      }
      // Against an external target, the list clients send by default; against the embedded emulator, every listed
      // value and a few drawn from the grammar (case, parameters, weights, white space, other ranges around).
      const seed = config.fc.seed;
      const accepts = config.embedded
        ? [...ADMITS_JSON, ...fc.sample(admitsJsonArb(), { numRuns: 4, ...(seed === undefined ? {} : { seed }) })]
        : ADMITS_JSON.slice(0, 1);
      for (const accept of accepts)
        for (const [rule, path] of reads) {
          const ex = await api.get(path, { headers: { accept } });
          must(rule, ex.status >= 200 && ex.status < 300, {
            expected: `a 2xx: Accept ${accept} admits application/json`,
            actual: `status ${ex.status}`,
            exchange: ex,
          });
          must(served.httpJsonBodies, isJsonMediaType(ex.contentType) && ex.json !== undefined, {
            expected: 'a JSON body with a JSON media type',
            actual: `Content-Type ${ex.contentType || '(none)'}`,
            exchange: ex,
          });
        }
      // Partition of the query: a parameter the interface does not name but a web framework acts on by itself (a
      // JSONP callback, a format switch). Ignored or refused, the answer stays JSON. Against an external target, the
      // callback on the first read.
      const queries = config.embedded ? FRAMEWORK_QUERIES : FRAMEWORK_QUERIES.slice(0, 1);
      for (const { what, query } of queries)
        for (const [, path] of config.embedded ? reads : reads.slice(0, 1)) {
          const ex = await api.get(path, { query });
          must(served.httpJsonBodies, isJsonMediaType(ex.contentType) && ex.json !== undefined, {
            expected: `a JSON body with a JSON media type, ${what} in the query ignored or refused`,
            actual: `status ${ex.status}, Content-Type ${ex.contentType || '(none)'}, body ${ex.json === undefined ? 'not JSON' : 'JSON'}`,
            exchange: ex,
          });
        }
    },
  );

  const refusedInJson = declareRules('http.json-error-bodies');
  test(
    'should answer a refusal in JSON to every Accept that admits it, not only to one that names JSON: an unknown client grant, an unknown event stream and, with writes, a custom text body that is no JSON text (RFC 9110 12.5.1: */* and application/* admit application/json)',
    refusedInJson,
    async ({ api, config }) => {
      skipBeyondReadOnlyBudget(config, 'the refusals under other Accept values are');
      // An unknown client grant, an unknown event stream and, with writes, a custom text body that is no JSON text
      // (refused before anything is stored, whatever the server keeps).
      const refusals: Array<(accept: string) => Promise<Exchange>> = [
        (accept) => api.get(pathOf('client-grants.get', { id: 'cgr_conformance_unknown' }), { headers: { accept } }),
        (accept) => api.get(pathOf('event-streams.get', { id: 'est_conformanceUnknown0000' }), { headers: { accept } }),
      ];
      if (config.writes !== 'none' && config.selfServiceProfileId)
        refusals.push((accept) =>
          api.put(customTextPath(config.selfServiceProfileId!), {
            body: '{"login":',
            contentType: 'application/json',
            headers: { accept },
          }),
        );
      // Against an external target, the wildcard alone; against the embedded emulator, every listed value that does
      // not name application/json itself.
      const accepts = config.embedded ? ADMITS_JSON.filter((a) => !/application\/json/i.test(a)) : ['*/*'];
      for (const accept of accepts)
        for (const send of refusals) {
          // Judged where it is refused (4xx): whether each is refused is other rules' to decide.
          mustBeJsonErrorBody(refusedInJson, await send(accept));
        }
    },
  );
});

test.describe('proactive negotiation changes no answer @http', () => {
  const alike = declareRules(
    'token-sets.list.success',
    'client-grants.get.success',
    'client-grants.get.same-grant',
    'event-streams.list.success',
    'event-streams.get.success',
    'event-streams.get.same-stream',
    schemaRules('token-set-list', 'client-grant', 'event-stream-page', 'event-stream'),
  );
  test(
    'should answer every read with the same JSON value, valid by its schema, whatever proactive negotiation fields it carries (RFC 9110 12.5: Accept-Language a tag, a weighted list, *; Accept admitting JSON; Accept-Charset utf-8; Accept-Encoding identity, gzip, deflate or br alone, a weighted list: the answer in an accepted coding or none, decoding to the same value), or refuse them 406: the token-set listing, a client grant, the event-stream listing and an event stream it lists (relation: GET equals GET)',
    alike,
    async ({ api, config }) => {
      // The document shows no member whose value depends on the request (harness/vocabulary/negotiation.ts): a
      // read with the fields answers what the same read without them answers. A read-only run against a tenant,
      // at its request budget: one read (the client grant, else the event-stream listing) with every field at
      // once, two requests (three where the answers differ). The events stream is left out: two subscriptions
      // never carry the same messages.
      const budget = atReadOnlyBudget(config);
      const sets = negotiationsFor(config, budget);
      const unjudged: string[] = [];
      /**
       * The read without the fields, then with each set: a 2xx (`success`) whose JSON value is the plain read's
       * (`same`). Returns the plain answer.
       */
      const relate = async (
        [success, same]: readonly [RuleRef, RuleRef],
        schema: SchemaName,
        path: string,
      ): Promise<Exchange> => {
        let plain = await api.get(path);
        if (plain.status < 200 || plain.status >= 300) {
          // Whether the read succeeds is its own checks' to decide: here nothing to relate.
          unjudged.push(`GET ${path} answered ${plain.status} without the fields`);
          return plain;
        }
        for (const n of sets) {
          const ex = await api.get(path, { headers: { ...n.headers } });
          if (ex.status === NOT_ACCEPTABLE) {
            unjudged.push(`GET ${path} with ${n.what} answered 406 (RFC 9110 15.5.7)`);
            continue;
          }
          must(success, ex.status >= 200 && ex.status < 300, {
            expected: `a 2xx, as without the fields (${plain.status}), or 406: ${n.what} admits the JSON answer`,
            actual: `status ${ex.status}`,
            exchange: ex,
          });
          mustMatchSchema(schema, ex.json, ex, `answer to GET ${path} with ${n.what}`);
          if (sameJson(ex.json, plain.json)) continue;
          // Different: a read without the fields right after tells a change of the resource in between (not
          // judged, the later sets related to the new answer) from an answer that depends on the fields.
          const after = await api.get(path);
          if (!sameJson(after.json, plain.json)) {
            unjudged.push(`GET ${path} changed between two reads without the fields`);
            plain = after;
            continue;
          }
          must(same, false, {
            expected: `the JSON value GET ${path} answers without ${n.what}, read before and after it alike (RFC 9110 12.5: the fields choose among representations; the document shows none that differ)`,
            actual: `differs in ${differences(plain.json, ex.json, sameJson).slice(0, 6).join('; ')}`,
            exchange: ex,
          });
        }
        return plain;
      };
      if (config.clientGrantId)
        await relate(
          [alike.clientGrantsGetSuccess, alike.clientGrantsGetSameGrant],
          'client-grant',
          pathOf('client-grants.get', { id: config.clientGrantId }),
        );
      if (!budget || !config.clientGrantId) {
        const page = (
          await relate(
            [alike.eventStreamsListSuccess, alike.eventStreamsListSuccess],
            'event-stream-page',
            pathOf('event-streams.list'),
          )
        ).json as { eventStreams?: unknown } | undefined;
        if (!budget) {
          const listed = Array.isArray(page?.eventStreams) ? (page.eventStreams as Array<{ id?: unknown }>) : [];
          const id = config.eventStreamIds[0] ?? listed.find((s) => typeof s.id === 'string')?.id;
          if (typeof id === 'string')
            await relate(
              [alike.eventStreamsGetSuccess, alike.eventStreamsGetSameStream],
              'event-stream',
              pathOf('event-streams.get', { id }),
            );
          if (config.userId)
            await relate(
              [alike.tokenSetsListSuccess, alike.tokenSetsListSuccess],
              'token-set-list',
              pathOf('token-sets.list', { id: config.userId }),
            );
        }
      }
      if (unjudged.length) test.info().annotations.push({ type: 'not judged', description: unjudged.join('; ') });
    },
  );
});

test.describe('a spelling of an id that is no percent-encoding names no resource @http', () => {
  const notTheSame = declareRules('http.path-id.percent-encoding');
  test(
    "should answer no resource for the id of a client grant, a user's token sets or an event stream spelt with a %u escape (RFC 3986 2.1: a % is followed by two hex digits; JavaScript's unescape() and IIS read %uXXXX as a character)",
    notTheSame,
    async ({ api, config }) => {
      skipBeyondReadOnlyBudget(config, 'these requests are');
      const page = (await api.get(pathOf('event-streams.list'))).json as { eventStreams?: unknown } | unknown[];
      const streams = Array.isArray(page) ? page : page?.eventStreams;
      const streamId = (Array.isArray(streams) ? (streams as Array<{ id?: unknown }>) : []).find(
        (s) => typeof s.id === 'string',
      )?.id as string | undefined;
      const resources = [
        ...(config.clientGrantId ? [['client-grants.get', config.clientGrantId] as const] : []),
        ...(config.userId ? [['token-sets.list', config.userId] as const] : []),
        ...(streamId ? [['event-streams.get', streamId] as const] : []),
      ];
      test.skip(resources.length === 0, 'No client grant, user or event stream is known whose id could be respelt');
      for (const [op, id] of resources) {
        const real = await api.get(pathOf(op, { id }));
        for (const v of notEquivalentSegments(id)) {
          const ex = await api.get(pathOf(op, { id: 'ID' }).replace('/ID', `/${v.raw}`));
          const same = ex.status >= 200 && ex.status < 300 && sameJson(ex.json, real.json);
          must(notTheSame.httpPathIdPercentEncoding, !same, {
            expected: `no answer of ${op} for ${id}: the id spelt with ${v.what} is no spelling of it`,
            actual: `status ${ex.status}, the same answer as for ${id}`,
            exchange: ex,
          });
        }
      }
    },
  );
});

test.describe('Allow lists what a path serves @http', () => {
  const served = declareRules('http.method-not-allowed.allow');
  test(
    'should list in the Allow of a 405 every method the path serves, not only the documented one: a GET that answers 2xx on a path whose operation is a write (RFC 9110 15.5.6: "the target resource\'s currently supported methods"; relation)',
    served,
    async ({ api, config }) => {
      skipBeyondReadOnlyBudget(config, 'these requests are');
      // The writes whose paths a target may also serve GET on (other endpoints of these resources: not shown),
      // each with a real resource of its path for the GET, and a method the path cannot take: a PATCH without
      // a body (custom text: of a profile that does not exist), which changes nothing where PATCH is served;
      // without writes, OPTIONS (RFC 9110 9.3.7: safe), which a target may serve, and then nothing is related.
      const method = config.writes === 'none' ? 'OPTIONS' : 'PATCH';
      const paths: Array<[string, string, string]> = [
        [pathOf('custom-signing-keys.put'), pathOf('custom-signing-keys.put'), 'the custom signing keys'],
        ...(config.selfServiceProfileId
          ? [
              [
                pathOf('custom-text.put', { id: config.selfServiceProfileId, language: 'en', page: 'get-started' }),
                TEXT,
                'custom text',
              ] as [string, string, string],
            ]
          : []),
      ];
      const unjudged: string[] = [];
      for (const [real, other, what] of paths) {
        const read = await api.get(real);
        // GET not served there: nothing to relate.
        if (read.status < 200 || read.status >= 300) {
          unjudged.push(`GET on the ${what} path answered ${read.status}`);
          continue;
        }
        const refused = await api.send(method, other);
        // Which status a method the path cannot take gets: not shown.
        if (refused.status !== 405) {
          unjudged.push(`${method} on the ${what} path answered ${refused.status}`);
          continue;
        }
        const allow = (refused.headers['allow'] ?? '').split(',').map((m) => m.trim());
        must(served.httpMethodNotAllowedAllow, allow.includes('GET'), {
          expected: `Allow lists GET: GET ${real.split('?')[0]} answered ${read.status}, so the ${what} path serves it`,
          actual: `Allow: ${refused.headers['allow'] ?? '(none)'}`,
          exchange: refused,
        });
      }
      test.skip(
        unjudged.length === paths.length,
        `No Allow to relate to a GET the target serves: ${unjudged.join('; ')}`,
      );
    },
  );
});

test.describe('Allow agrees with what a path answers @http', () => {
  const allowed = declareRules('http.method-not-allowed.allow');
  /** The methods RFC 9110 9.3 defines that a client sends to a resource (CONNECT and TRACE left out). */
  const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
  const SAFE = new Set<string>(['GET', 'HEAD', 'OPTIONS']);
  /** Every operation's path; where it has a path parameter, for ids that name nothing. */
  const PATHS: ReadonlyArray<{ id: OperationId; path: string; namesNothing: boolean }> = [
    { id: 'token-sets.list', path: pathOf('token-sets.list', { id: UNKNOWN.user }), namesNothing: true },
    { id: 'experiments.transition', path: MOVE, namesNothing: true },
    { id: 'client-grants.get', path: pathOf('client-grants.get', { id: UNKNOWN.grant }), namesNothing: true },
    { id: 'events.subscribe', path: pathOf('events.subscribe'), namesNothing: false },
    { id: 'event-streams.get', path: pathOf('event-streams.get', { id: UNKNOWN.stream }), namesNothing: true },
    { id: 'event-streams.list', path: pathOf('event-streams.list'), namesNothing: false },
    { id: 'custom-signing-keys.put', path: pathOf('custom-signing-keys.put'), namesNothing: false },
    { id: 'custom-text.put', path: TEXT, namesNothing: true },
  ];
  /**
   * Spellings of a path: as the document gives it; a letter of its first segment percent-encoded (RFC 3986 2.3,
   * 6.2.2.2: the same URI, /client-grant%73/{id}); a slash appended (RFC 3986 6.2.3: another URI, which routers
   * often take for the same route). Whether a respelt path is the same resource is the server's to say: it is
   * held to the plain path's answers only where it answers every method as the plain path does.
   */
  const SPELLINGS: ReadonlyArray<{ what: string; spell: (path: string) => string }> = [
    { what: 'as the document spells it', spell: (path) => path },
    {
      what: 'a letter of its first segment percent-encoded (RFC 3986 6.2.2.2: the same URI)',
      spell: (path) =>
        path.replace(
          /^\/([^/?]*?)([A-Za-z])(?=[/?]|$)/,
          (_, head: string, letter: string) => `/${head}%${letter.charCodeAt(0).toString(16).toUpperCase()}`,
        ),
    },
    { what: 'a slash appended (RFC 3986 6.2.3)', spell: (path) => (path.endsWith('/') ? path : `${path}/`) },
  ];
  /** The methods an Allow value lists. */
  const listed = (ex: Exchange) =>
    (ex.headers['allow'] ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter((m) => m !== '');
  test(
    // The title as verify/blind-caught-by.json records it; the check also holds each path respelt (SPELLINGS)
    // to the Allow of the plain path, wherever the respelt path answers every method as the plain path does.
    'should never refuse with 405 a method that an Allow of the same path names, nor name in Allow the method it refused: every method RFC 9110 9.3 defines on the path of every operation (the safe ones everywhere, the others where the path names nothing; relation)',
    allowed,
    async ({ api, config }) => {
      skipBeyondReadOnlyBudget(config, 'these requests are');
      // RFC 9110 15.5.6: Allow holds "the target resource's currently supported methods", so a method it names
      // is not one the same resource refuses as not allowed. Writes go only to paths that name nothing; the event
      // stream is asked neither GET nor HEAD (a stream that does not end), nor anything but OPTIONS otherwise.
      let related = 0;
      for (const p of PATHS) {
        let plain: Map<string, Exchange> | undefined;
        for (const { what, spell } of SPELLINGS) {
          const path = spell(p.path);
          const answers = new Map<string, Exchange>();
          for (const method of METHODS) {
            if (!SAFE.has(method) && (!p.namesNothing || config.writes === 'none')) continue;
            if (p.id === 'events.subscribe' && method !== 'OPTIONS') continue;
            const body = method === 'POST' || method === 'PUT' || method === 'PATCH' ? { json: {} } : {};
            answers.set(method, await api.send(method, path, body));
          }
          // A respelt path is the plain path's resource where every method is answered there as on the plain path
          // (RFC 3986 6.2.3: another URI otherwise, which a server may answer as it likes).
          if (plain !== undefined && [...answers].some(([m, ex]) => ex.status !== plain!.get(m)?.status)) continue;
          for (const refused of answers.values()) {
            if (refused.status !== 405) continue;
            mustFollowStatusChecklist(allowed, refused);
            const allow = listed(refused);
            // The same resource under another spelling: its 405 lists what the plain path's 405 lists (an empty
            // Allow, a resource that allows nothing, is not the resource the plain path names).
            const same = plain?.get(refused.method);
            if (same !== undefined) {
              const missing = listed(same).filter((m) => !allow.includes(m));
              related++;
              must(allowed.httpMethodNotAllowedAllow, missing.length === 0, {
                expected: `Allow lists ${listed(same).join(', ')}, as the 405 to ${refused.method} ${p.path} does: ${path} (${what}) answers every method as the plain path does, so it is the same resource (RFC 9110 15.5.6: "the target resource's currently supported methods")`,
                actual: `Allow: ${JSON.stringify(refused.headers['allow'] ?? '(none)')}, without ${missing.join(', ')}`,
                exchange: refused,
              });
            }
            for (const named of allow) {
              const other = answers.get(named);
              if (!other || other === refused) continue;
              related++;
              must(allowed.httpMethodNotAllowedAllow, other.status !== 405, {
                expected: `${named} ${path} not refused as a method the path does not take: the 405 to ${refused.method} names it in Allow (${refused.headers['allow']})`,
                actual: `status ${other.status}`,
                exchange: other,
              });
            }
          }
          plain ??= answers;
        }
      }
      test.skip(
        related === 0,
        'No 405 named in its Allow another method the suite sent to the same path, and no respelt path answered as the plain path: nothing to relate',
      );
    },
  );
});
