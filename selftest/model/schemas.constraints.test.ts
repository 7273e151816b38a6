/**
 * Every constraint the document states, from both sides: values on the edge
 * are accepted, values one step over it are rejected with the expected JSON
 * Schema keyword, at the expected place, naming the expected rule.
 * One test per case; each title names the constraint.
 */
import { test } from '@playwright/test';
import * as fc from 'fast-check';
import type { SchemaName } from '../../schemas/index.ts';
import * as arb from './arbitraries.ts';
import { assertAccepts, assertRejects, pointer, setAt, type Rejection } from './check.ts';
import {
  ALLOCATION_STRATEGIES,
  DEFAULT_FOR,
  EVENT_STREAM_STATUSES,
  EVENT_TYPES,
  EXPERIMENT_ID_ALPHABET,
  EXPERIMENT_ID_EXCLUDED,
  EXPERIMENT_REQUIRED,
  EXPERIMENT_STATUSES,
  LIMITS,
  ORGANIZATION_USAGES,
  SUBJECT_TYPES,
  TRANSITION_TARGETS,
} from './document.ts';

interface Case {
  title: string;
  schema: SchemaName;
  values: fc.Arbitrary<unknown>;
  /** 'accept', or how the validator must reject. */
  expect: 'accept' | Rejection;
}

/** Valid values of `base` with `path` replaced by values of `field` (undefined deletes it). */
const withField = <B>(base: fc.Arbitrary<B>, path: string, field: fc.Arbitrary<unknown>): fc.Arbitrary<B> =>
  fc.tuple(base, field).map(([b, v]) => setAt(b, path, v));

/** Strings outside `values`: random strings and near misses (case, spaces, truncation, a NUL). */
const outsiderOf = (values: readonly string[]): fc.Arbitrary<string> =>
  fc
    .oneof(
      fc.string(),
      fc.string({ unit: 'binary', maxLength: 12 }),
      fc
        .constantFrom(...values)
        .chain((v) =>
          fc.constantFrom(
            v.toUpperCase(),
            v[0]!.toUpperCase() + v.slice(1),
            ` ${v}`,
            `${v} `,
            `${v}\u0000`,
            v.slice(0, -1),
            `${v}s`,
          ),
        ),
    )
    .filter((s) => !values.includes(s));

const cases: Case[] = [];
const accept = (title: string, schema: SchemaName, values: fc.Arbitrary<unknown>): void => {
  cases.push({ title: `${schema}: ${title} is accepted`, schema, values, expect: 'accept' });
};
const reject = (title: string, schema: SchemaName, values: fc.Arbitrary<unknown>, expect: Rejection): void => {
  cases.push({
    title: `${schema}: ${title} is rejected (${expect.keyword}${expect.rule ? ` [${expect.rule}]` : ''})`,
    schema,
    values,
    expect,
  });
};

// --------------------------------------------------------- string lengths

{
  const rule = 'event-stream.name.length' as const;
  const name = (n: number) => withField(arb.eventStream, 'name', arb.textOfLength(n));
  reject('name of 0 characters', 'event-stream', name(0), { keyword: 'minLength', at: '/name', rule });
  accept('name of 1 character', 'event-stream', name(LIMITS.eventStreamNameMin));
  accept('name of 128 characters', 'event-stream', name(LIMITS.eventStreamNameMax));
  reject('name of 129 characters', 'event-stream', name(LIMITS.eventStreamNameMax + 1), {
    keyword: 'maxLength',
    at: '/name',
    rule,
  });
}
{
  const rule = 'event-stream.id.length' as const;
  const id = (n: number) => withField(arb.eventStream, 'id', arb.textOfLength(n));
  reject('id of 25 characters', 'event-stream', id(LIMITS.eventStreamIdLength - 1), {
    keyword: 'minLength',
    at: '/id',
    rule,
  });
  accept('id of exactly 26 characters', 'event-stream', id(LIMITS.eventStreamIdLength));
  reject('id of 27 characters', 'event-stream', id(LIMITS.eventStreamIdLength + 1), {
    keyword: 'maxLength',
    at: '/id',
    rule,
  });
  reject('id of 25 characters (format event-stream-id)', 'event-stream', id(LIMITS.eventStreamIdLength - 1), {
    keyword: 'format',
    at: '/id',
    rule,
  });
  reject(
    'event stream of a page with an id of 27 characters',
    'event-stream-page',
    withField(arb.eventStreamPage, 'eventStreams/0/id', arb.textOfLength(LIMITS.eventStreamIdLength + 1)),
    { keyword: 'maxLength', at: '/eventStreams/0/id', rule },
  );
}
{
  const rule = 'event-stream.status.enum' as const;
  reject(
    'status longer than 8 characters',
    'event-stream',
    withField(arb.eventStream, 'status', arb.textBetween(LIMITS.eventStreamStatusMaxLength + 1, 20)),
    { keyword: 'maxLength', at: '/status', rule },
  );
}
{
  const rule = 'event-stream.subscriptions.min-items' as const;
  reject('subscriptions with 0 items', 'event-stream', withField(arb.eventStream, 'subscriptions', fc.constant([])), {
    keyword: 'minItems',
    at: '/subscriptions',
    rule,
  });
  accept(
    'subscriptions with 1 item',
    'event-stream',
    withField(
      arb.eventStream,
      'subscriptions',
      fc.record({ event_type: fc.constantFrom(...EVENT_TYPES) }).map((s) => [s]),
    ),
  );
}
{
  // The keys of custom text are not shown; one fixed key keeps the pointer known.
  const value = (n: number) => withField(arb.customText, 'welcome', arb.textOfLength(n));
  accept('value of 0 characters', 'custom-text', value(0));
  accept('value of 2000 characters', 'custom-text', value(LIMITS.customTextValueMax));
  reject('value of 2001 characters', 'custom-text', value(LIMITS.customTextValueMax + 1), {
    keyword: 'maxLength',
    at: '/welcome',
    rule: 'custom-text.types',
  });
}
{
  const rule = 'client-grant.authorization-details-types.length' as const;
  const item = (n: number) =>
    withField(
      arb.clientGrant,
      'authorization_details_types',
      arb.textOfLength(n).map((s) => [s]),
    );
  reject('authorization_details_types item of 0 characters', 'client-grant', item(0), {
    keyword: 'minLength',
    at: '/authorization_details_types/0',
    rule,
  });
  accept('authorization_details_types item of 1 character', 'client-grant', item(LIMITS.authorizationDetailsTypeMin));
  accept(
    'authorization_details_types item of 255 characters',
    'client-grant',
    item(LIMITS.authorizationDetailsTypeMax),
  );
  reject(
    'authorization_details_types item of 256 characters',
    'client-grant',
    item(LIMITS.authorizationDetailsTypeMax + 1),
    { keyword: 'maxLength', at: '/authorization_details_types/0', rule },
  );
  accept(
    'empty authorization_details_types array',
    'client-grant',
    withField(arb.clientGrant, 'authorization_details_types', fc.constant([])),
  );
}
{
  reject("audience ''", 'client-grant', withField(arb.clientGrant, 'audience', fc.constant('')), {
    keyword: 'minLength',
    at: '/audience',
    rule: 'client-grant.audience.min-length',
  });
  accept('audience of 1 character', 'client-grant', withField(arb.clientGrant, 'audience', arb.textOfLength(1)));
  reject("scope item ''", 'client-grant', withField(arb.clientGrant, 'scope', fc.constant([''])), {
    keyword: 'minLength',
    at: '/scope/0',
    rule: 'client-grant.scope.items.min-length',
  });
  accept(
    'scope item of 1 character',
    'client-grant',
    withField(
      arb.clientGrant,
      'scope',
      arb.textOfLength(1).map((s) => [s]),
    ),
  );
}
{
  reject('JWKS with 0 keys', 'jwks', fc.constant({ keys: [] }), {
    keyword: 'minItems',
    at: '/keys',
    rule: 'custom-signing-keys.put.min-one-key',
  });
  accept(
    'JWKS with 1 key',
    'jwks',
    arb.jwk.map((k) => ({ keys: [k] })),
  );
}

// ------------------------------------------------------ enum outsiders

const enumCases: {
  schema: SchemaName;
  field: string;
  values: readonly string[];
  base: fc.Arbitrary<unknown>;
  rule: Rejection['rule'];
}[] = [
  {
    schema: 'experiment',
    field: 'status',
    values: EXPERIMENT_STATUSES,
    base: arb.experiment,
    rule: 'experiment.status.enum',
  },
  {
    schema: 'experiment',
    field: 'allocation_strategy',
    values: ALLOCATION_STRATEGIES,
    base: arb.experiment,
    rule: 'experiment.allocation-strategy.enum',
  },
  {
    schema: 'experiment-transition-request',
    field: 'status',
    values: TRANSITION_TARGETS,
    base: arb.experimentTransitionRequest,
    rule: 'experiments.transition.status-enum',
  },
  {
    schema: 'client-grant',
    field: 'organization_usage',
    values: ORGANIZATION_USAGES,
    base: arb.clientGrant,
    rule: 'client-grant.organization-usage.enum',
  },
  {
    schema: 'client-grant',
    field: 'default_for',
    values: DEFAULT_FOR,
    base: arb.clientGrant.map((g) => setAt(g, 'client_id', undefined)),
    rule: 'client-grant.default-for.enum',
  },
  {
    schema: 'client-grant',
    field: 'subject_type',
    values: SUBJECT_TYPES,
    base: arb.clientGrant,
    rule: 'client-grant.subject-type.enum',
  },
  {
    schema: 'event-stream',
    field: 'status',
    values: EVENT_STREAM_STATUSES,
    base: arb.eventStream,
    rule: 'event-stream.status.enum',
  },
];
for (const c of enumCases) {
  reject(`${c.field} outside ${c.values.join(', ')}`, c.schema, withField(c.base, c.field, outsiderOf(c.values)), {
    keyword: 'enum',
    at: pointer(c.field),
    rule: c.rule,
  });
}
reject('status draft (not an allowed target)', 'experiment-transition-request', fc.constant({ status: 'draft' }), {
  keyword: 'enum',
  at: '/status',
  rule: 'experiments.transition.status-enum',
});
reject('event type outside the documented list', 'event-type', outsiderOf(EVENT_TYPES), {
  keyword: 'enum',
  at: '',
  rule: 'events.message.event-field',
});
reject('event type error (a payload type, not an event type)', 'event-type', fc.constantFrom('error', 'offset-only'), {
  keyword: 'enum',
  at: '',
});

// ------------------------------------------------------------ date-times

const dateTimeFields: { schema: SchemaName; base: fc.Arbitrary<unknown>; field: string }[] = [
  ...['created_at', 'updated_at', 'started_at', 'ended_at'].map((field) => ({
    schema: 'experiment' as const,
    base: arb.experiment,
    field,
  })),
  ...['expires_at', 'issued_at', 'last_used_at'].map((field) => ({
    schema: 'token-set' as const,
    base: arb.tokenSet,
    field,
  })),
  ...['created_at', 'updated_at'].map((field) => ({ schema: 'event-stream' as const, base: arb.eventStream, field })),
  { schema: 'event-envelope', base: arb.eventEnvelope, field: 'time' },
];
const malformedDateTimes: { title: string; values: fc.Arbitrary<string> }[] = [
  {
    title: 'an impossible calendar date or time (month 13, 30 February, hour 24, minute 60, offset +24:00)',
    values: fc.constantFrom(
      '2024-13-01T00:00:00Z',
      '2023-02-29T12:00:00Z',
      '2024-02-30T12:00:00Z',
      '2024-01-01T24:00:00Z',
      '2024-01-01T12:60:00Z',
      '2024-01-01T12:00:00+24:00',
      '2024-00-10T00:00:00Z',
    ),
  },
  {
    title: 'a string that is no date-time (yesterday, epoch seconds, HTTP date, empty)',
    values: fc.oneof(
      fc.constantFrom('yesterday', '1704067200', 'Mon, 01 Jan 2024 00:00:00 GMT', '', 'now'),
      fc.string({ maxLength: 8 }).filter((s) => !/\d{4}-/.test(s)),
    ),
  },
  { title: 'a date without a time', values: arb.dateTime.map((s) => s.slice(0, 10)) },
  { title: 'a date-time without an offset', values: arb.dateTime.map((s) => s.replace(/(Z|[+-]\d\d:\d\d)$/, '')) },
  {
    title: 'a date-time with a one-digit month or day',
    values: fc.constantFrom('2024-1-01T00:00:00Z', '2024-01-1T00:00:00Z'),
  },
];
for (const f of dateTimeFields) {
  accept(`${f.field} as an RFC 3339 date-time`, f.schema, withField(f.base, f.field, arb.dateTime));
  for (const m of malformedDateTimes) {
    reject(`${f.field} as ${m.title}`, f.schema, withField(f.base, f.field, m.values), {
      keyword: 'format',
      at: pointer(f.field),
      rule: 'timestamps.date-time',
    });
  }
}

// -------------------------------------------------------- nullable times

accept('expires_at null', 'token-set', withField(arb.tokenSet, 'expires_at', fc.constant(null)));
accept('last_used_at null', 'token-set', withField(arb.tokenSet, 'last_used_at', fc.constant(null)));
reject('issued_at null', 'token-set', withField(arb.tokenSet, 'issued_at', fc.constant(null)), {
  keyword: 'type',
  at: '/issued_at',
  rule: 'timestamps.date-time',
});

// --------------------------------------------------- token-set extras

accept(
  'token set with properties beyond the documented ones',
  'token-set',
  fc
    .tuple(
      arb.tokenSet,
      arb.tokenSetExtras.filter((e) => Object.keys(e).length > 0),
    )
    .map(([t, e]) => ({ ...e, ...t })),
);
reject('token-set list that is not an array', 'token-set-list', arb.tokenSet, { keyword: 'type', at: '' });

// -------------------------------------------------------- experiment id

{
  const rule = 'experiment.id.pattern' as const;
  const suffix = fc.string({ unit: fc.constantFrom(...EXPERIMENT_ID_ALPHABET), maxLength: 10 });
  const id = (values: fc.Arbitrary<string>) => withField(arb.experiment, 'id', values);
  accept('id exp_ followed by characters of [A-HJ-NP-Za-km-z1-9]', 'experiment', id(arb.experimentId));
  reject(
    'id containing 0, O, I or l',
    'experiment',
    id(fc.tuple(suffix, fc.constantFrom(...EXPERIMENT_ID_EXCLUDED), suffix).map(([a, c, b]) => `exp_${a}${c}${b}`)),
    { keyword: 'pattern', at: '/id', rule },
  );
  reject("id with an empty suffix ('exp_')", 'experiment', id(fc.constant('exp_')), {
    keyword: 'pattern',
    at: '/id',
    rule,
  });
  reject(
    'id with a wrong prefix (EXP_, exp-, exp, xp_, Exp_, none)',
    'experiment',
    id(
      fc
        .tuple(
          fc.constantFrom('EXP_', 'exp-', 'exp', 'xp_', 'Exp_', ''),
          arb.experimentId.map((s) => s.slice(4)),
        )
        .map(([p, s]) => p + s),
    ),
    { keyword: 'pattern', at: '/id', rule },
  );
  reject(
    'id with other characters (_, -, space, é, newline)',
    'experiment',
    id(fc.tuple(suffix, fc.constantFrom('_', '-', ' ', 'é', '\n', '.'), suffix).map(([a, c, b]) => `exp_${a}${c}${b}`)),
    { keyword: 'pattern', at: '/id', rule },
  );
}

// ----------------------------------------------------- required fields

for (const field of EXPERIMENT_REQUIRED) {
  reject(
    `experiment without ${field} (required)`,
    'experiment',
    withField(arb.experiment, field, fc.constant(undefined)),
    { keyword: 'required', at: '', missing: field, rule: 'experiment.required' },
  );
}
for (const field of ['description', 'started_at', 'ended_at']) {
  accept(
    `experiment without ${field} (optional)`,
    'experiment',
    withField(arb.experiment, field, fc.constant(undefined)),
  );
}
reject('transition request without status', 'experiment-transition-request', fc.constant({}), {
  keyword: 'required',
  at: '',
  missing: 'status',
  rule: 'experiments.transition.status-required',
});
reject('JWKS without keys', 'jwks', fc.constant({}), {
  keyword: 'required',
  at: '',
  missing: 'keys',
  rule: 'jwks.keys',
});
for (const field of ['access_token', 'token_type']) {
  reject(
    `token response without ${field} (RFC 6749 5.1)`,
    'token-response',
    withField(arb.tokenResponse, field, fc.constant(undefined)),
    { keyword: 'required', at: '', missing: field, rule: 'oauth.token.response' },
  );
}

// ------------------------------------------------------- client grant

reject(
  'client grant with both client_id and default_for',
  'client-grant',
  fc.tuple(arb.clientGrant, arb.text).map(([g, id]) => ({ ...g, client_id: id, default_for: 'third_party_clients' })),
  { keyword: 'not', at: '', rule: 'client-grant.client-id-default-for.exclusive' },
);
accept(
  'client grant with default_for and no client_id',
  'client-grant',
  withField(
    arb.clientGrant.map((g) => setAt(g, 'client_id', undefined)),
    'default_for',
    fc.constant('third_party_clients'),
  ),
);
accept(
  'client grant with client_id and no default_for',
  'client-grant',
  withField(
    arb.clientGrant.map((g) => setAt(g, 'default_for', undefined)),
    'client_id',
    arb.text,
  ),
);

// --------------------------------------------------------------- events

reject(
  'error payload whose type is not error',
  'sse-error-payload',
  withField(arb.sseErrorPayload, 'type', outsiderOf(['error'])),
  { keyword: 'const', at: '/type' },
);
reject(
  'offset-only payload whose type is not offset-only',
  'sse-offset-only-payload',
  withField(arb.sseOffsetOnlyPayload, 'type', outsiderOf(['offset-only'])),
  { keyword: 'const', at: '/type' },
);
accept(
  'event payload without type (it is injected from the SSE event field)',
  'sse-event-payload',
  withField(arb.sseEventPayload, 'type', fc.constant(undefined)),
);

// ------------------------------------------------------- token endpoint

reject(
  'token request with a grant_type other than client_credentials',
  'token-request',
  withField(arb.tokenRequest, 'grant_type', outsiderOf(['client_credentials'])),
  { keyword: 'const', at: '/grant_type' },
);
reject(
  'token request whose audience does not end in /api/v2/',
  'token-request',
  withField(
    arb.tokenRequest,
    'audience',
    arb.text.filter((s) => !s.endsWith('/api/v2/')),
  ),
  { keyword: 'pattern', at: '/audience' },
);
reject(
  'token response whose access_token is neither a JWS (three base64url segments) nor a JWE (five)',
  'token-response',
  withField(
    arb.tokenResponse,
    'access_token',
    fc.constantFrom('', 'abc', 'a.b', 'a b.c.d', 'a.b.c.d', 'a.b.c.d.e.f', 'a+/.b.c', '.b.c', 'a.b.c..e'),
  ),
  { keyword: 'pattern', at: '/access_token', rule: 'oauth.token.jwt' },
);
accept(
  'token response whose access_token is a JWE (five segments, RFC 7519 1), the encrypted key empty',
  'token-response',
  withField(
    arb.tokenResponse,
    'access_token',
    fc.constantFrom('eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..aXY.Y2lwaGVy.dGFn', 'a.b.c.d.e'),
  ),
);
reject(
  'token response whose token_type is not a string',
  'token-response',
  withField(arb.tokenResponse, 'token_type', fc.constantFrom(1, null, ['Bearer'])),
  { keyword: 'type', at: '/token_type' },
);
accept(
  'token response with any token_type string (RFC 6749 5.1 and 7.1 name no value)',
  'token-response',
  withField(arb.tokenResponse, 'token_type', fc.constantFrom('Bearer', 'bearer', 'N_A')),
);
reject(
  'token response whose expires_in is not a number',
  'token-response',
  withField(arb.tokenResponse, 'expires_in', fc.constantFrom('86400', null, true)),
  { keyword: 'type', at: '/expires_in' },
);
accept(
  'token response with a fractional or large expires_in (a JSON number; the lifetime is not shown)',
  'token-response',
  withField(
    arb.tokenResponse,
    'expires_in',
    fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constantFrom(86399.5, 2 ** 53, 1e12)),
  ),
);
reject(
  'token response whose scope is not space-separated <verb>:<resource>',
  'token-response',
  withField(
    arb.tokenResponse,
    'scope',
    fc.constantFrom('read', 'read:users,read:clients', 'users', ' read:users', 'read:users  read:clients'),
  ),
  { keyword: 'pattern', at: '/scope', rule: 'auth.scope.form' },
);

// ----------------------------------------------------------------- run

for (const c of cases) {
  test(c.title, () => {
    if (c.expect === 'accept') assertAccepts(c.schema, c.values);
    else assertRejects(c.schema, c.values, c.expect);
  });
}
