/**
 * fast-check arbitraries of valid values, one per schema, built by hand from
 * the document (selftest/model/document.ts), not from the schemas. Each is
 * typed with the generated type of its schema (schemas/types.ts), so a schema
 * change that the arbitrary no longer fits is a compile error.
 */
import * as fc from 'fast-check';
import type * as T from '../../schemas/types.ts';
import type { SchemaName } from '../../schemas/index.ts';
import { inScopeScopes } from '../../spec/operations.ts';
import {
  ALLOCATION_STRATEGIES,
  CONNECTION_OPTIONS_STRINGS,
  DEFAULT_FOR,
  EVENT_STREAM_STATUSES,
  EVENT_TYPES,
  EXPERIMENT_ID_ALPHABET,
  EXPERIMENT_STATUSES,
  LIMITS,
  OIDC_METADATA_BOOLEANS,
  OIDC_METADATA_STRING_ARRAYS,
  OIDC_METADATA_STRINGS,
  ORGANIZATION_USAGES,
  SUBJECT_TYPES,
  TRANSITION_TARGETS,
} from './document.ts';

// ---------------------------------------------------------------- basics

/** Any string, any code point (lengths in JSON Schema count code points). */
export const text = fc.string({ unit: 'binary', maxLength: 12 });
/** A string of exactly `n` code points, any code points. */
export const textOfLength = (n: number): fc.Arbitrary<string> =>
  fc.string({ unit: 'binary', minLength: n, maxLength: n });
/** A string of `min` to `max` code points. */
export const textBetween = (min: number, max: number): fc.Arbitrary<string> =>
  fc.string({ unit: 'binary', minLength: min, maxLength: max });

export const nonEmptyArray = <V>(item: fc.Arbitrary<V>, maxLength = 3): fc.Arbitrary<[V, ...V[]]> =>
  fc.tuple(item, fc.array(item, { maxLength: maxLength - 1 })).map(([head, tail]): [V, ...V[]] => [head, ...tail]);

/** Any JSON object (string keys, JSON values). */
export const jsonObject: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), {
  maxKeys: 4,
});

/** JSON integers: small and near the safe-integer edge. */
export const jsonInteger = fc.oneof(fc.integer(), fc.maxSafeInteger());
/** Finite JSON numbers, integral or not. */
export const jsonNumber = fc.double({ noNaN: true, noDefaultInfinity: true });

const pad = (n: number, width = 2): string => String(Math.abs(n)).padStart(width, '0');

/**
 * RFC 3339 date-times: years 1000..9998, `T` separator, optional fraction,
 * `Z` or a numeric offset ±hh:mm (the offset shifts the local time shown).
 */
export const dateTime: fc.Arbitrary<string> = fc
  .record({
    instant: fc.date({
      min: new Date('1000-01-02T00:00:00Z'),
      max: new Date('9998-12-30T23:59:59Z'),
      noInvalidDate: true,
    }),
    offsetMinutes: fc.oneof(fc.constant(0), fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 })),
    zulu: fc.boolean(),
    fraction: fc.option(fc.stringMatching(/^\.[0-9]{1,9}$/), { nil: '' }),
  })
  .map(({ instant, offsetMinutes, zulu, fraction }) => {
    const local = new Date(instant.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 19);
    const offset =
      offsetMinutes === 0 && zulu
        ? 'Z'
        : `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.trunc(offsetMinutes / 60))}:${pad(offsetMinutes % 60)}`;
    return local + fraction + offset;
  });

/** Either a documented sample value or any string. */
const sampleOr = (sample: string): fc.Arbitrary<string> => fc.oneof(fc.constant(sample), text);

// ------------------------------------------------------------- resources

/** Resources: Federated connection token set (no field required; extra properties allowed). */
const TOKEN_SET_KEYS = ['id', 'connection', 'scope', 'expires_at', 'issued_at', 'last_used_at'];
export const tokenSetExtras: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(
  text.filter((k) => !TOKEN_SET_KEYS.includes(k)),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 3 },
);
export const tokenSet: fc.Arbitrary<T.FederatedConnectionTokenSet> = fc
  .tuple(
    fc.record(
      {
        id: text,
        connection: text,
        scope: text,
        expires_at: fc.option(dateTime, { nil: null }),
        issued_at: dateTime,
        last_used_at: fc.option(dateTime, { nil: null }),
      },
      { requiredKeys: [] },
    ),
    tokenSetExtras,
  )
  .map(([known, extra]) => ({ ...extra, ...known }));

export const tokenSetList: fc.Arbitrary<T.FederatedConnectionTokenSetList> = fc.array(tokenSet, { maxLength: 4 });

/** Resources: Experiment, allocation object (no field marked required). */
export const allocation: fc.Arbitrary<T.Allocation> = fc.record(
  {
    variation_id: text,
    segment_id: text,
    weight: jsonInteger,
    priority: jsonInteger,
    is_control: fc.boolean(),
    is_fallback: fc.boolean(),
  },
  { requiredKeys: [] },
);

export const experimentId: fc.Arbitrary<string> = fc
  .string({ unit: fc.constantFrom(...EXPERIMENT_ID_ALPHABET), minLength: 1, maxLength: 24 })
  .map((suffix) => `exp_${suffix}`);

/** Resources: Experiment. */
export const experiment: fc.Arbitrary<T.Experiment> = fc.record(
  {
    id: experimentId,
    name: text,
    feature_flag_id: text,
    authentication_flow: text,
    allocation_strategy: fc.constantFrom(...ALLOCATION_STRATEGIES),
    assignment_config: fc.record({ subject: sampleOr('device') }, { requiredKeys: [] }),
    status: fc.constantFrom(...EXPERIMENT_STATUSES),
    is_valid: fc.boolean(),
    allocations: fc.array(allocation, { maxLength: 3 }),
    created_at: dateTime,
    updated_at: dateTime,
    description: text,
    started_at: dateTime,
    ended_at: dateTime,
  },
  {
    requiredKeys: [
      'id',
      'name',
      'feature_flag_id',
      'authentication_flow',
      'allocation_strategy',
      'assignment_config',
      'status',
      'is_valid',
      'allocations',
      'created_at',
      'updated_at',
    ],
  },
);

/** Endpoints 2: the transition request body. */
export const experimentTransitionRequest: fc.Arbitrary<T.ExperimentTransitionRequest> = fc.record({
  status: fc.constantFrom(...TRANSITION_TARGETS),
});

/** Resources: Client grant. client_id and default_for are never both present. */
export const clientGrant: fc.Arbitrary<T.ClientGrant> = fc
  .tuple(
    fc.record(
      {
        id: text,
        audience: textBetween(1, 12),
        scope: fc.array(textBetween(1, 12), { maxLength: 3 }),
        organization_usage: fc.constantFrom(...ORGANIZATION_USAGES),
        allow_any_organization: fc.boolean(),
        is_system: fc.boolean(),
        subject_type: fc.constantFrom(...SUBJECT_TYPES),
        authorization_details_types: fc.array(
          textBetween(LIMITS.authorizationDetailsTypeMin, LIMITS.authorizationDetailsTypeMax),
          { maxLength: 3 },
        ),
        allow_all_scopes: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
    fc.oneof(
      fc.constant({}),
      fc.record({ client_id: text }),
      fc.record({ default_for: fc.constantFrom(...DEFAULT_FOR) }),
    ),
  )
  .map(([fields, owner]) => ({ ...fields, ...owner }));

/** Resources: Event stream (no field marked required). */
export const eventStream: fc.Arbitrary<T.EventStream> = fc.record(
  {
    id: textOfLength(LIMITS.eventStreamIdLength),
    name: textBetween(LIMITS.eventStreamNameMin, LIMITS.eventStreamNameMax),
    subscriptions: nonEmptyArray(
      fc.record({ event_type: fc.oneof(fc.constantFrom(...EVENT_TYPES), text) }, { requiredKeys: [] }),
    ),
    destination: fc.record(
      {
        type: sampleOr('webhook'),
        configuration: fc.record(
          {
            webhook_endpoint: fc.oneof(fc.webUrl(), text),
            webhook_authorization: fc.record({ method: sampleOr('basic'), username: text }, { requiredKeys: [] }),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
    status: fc.constantFrom(...EVENT_STREAM_STATUSES),
    created_at: dateTime,
    updated_at: dateTime,
  },
  { requiredKeys: [] },
);

/** Endpoints 6: one page of event streams. */
export const eventStreamPage: fc.Arbitrary<T.EventStreamPage> = fc.record(
  { eventStreams: fc.array(eventStream, { maxLength: 3 }), next: text },
  { requiredKeys: ['eventStreams'] },
);

/** Resources: Custom signing key (JWK). Required fields and formats: not shown. */
export const jwk: fc.Arbitrary<T.Jwk> = fc.record(
  {
    kty: sampleOr('EC'),
    kid: text,
    use: sampleOr('sig'),
    key_ops: fc.array(sampleOr('verify'), { maxLength: 3 }),
    n: text,
    e: text,
    x: text,
    y: text,
    x5u: fc.oneof(fc.webUrl(), text),
    x5c: fc.array(text, { maxLength: 3 }),
    x5t: text,
    'x5t#S256': text,
  },
  { requiredKeys: [] },
);

/** A JWKS with at least one key (Limits: custom signing keys array, minimum 1 item). */
export const jwks: fc.Arbitrary<T.Jwks> = fc.record({ keys: nonEmptyArray(jwk) });

/** Resources: Self-service profile custom text. */
export const customText: fc.Arbitrary<T.CustomText> = fc.dictionary(text, textBetween(0, LIMITS.customTextValueMax), {
  maxKeys: 4,
});

// ---------------------------------------------------------------- events

export const eventType: fc.Arbitrary<T.EventType> = fc.constantFrom(...EVENT_TYPES);

const strings = fc.array(text, { maxLength: 3 });
const optionalRecord = <R extends Record<string, unknown>>(model: { [K in keyof R]: fc.Arbitrary<R[K]> }): fc.Arbitrary<
  Partial<R>
> => fc.record(model, { requiredKeys: [] }) as fc.Arbitrary<Partial<R>>;
const fieldsOf = <V>(names: readonly string[], value: fc.Arbitrary<V>): Record<string, fc.Arbitrary<V>> =>
  Object.fromEntries(names.map((n) => [n, value]));

/** Events: Context (inside data). */
export const eventContext: fc.Arbitrary<T.EventContext> = fc.record(
  {
    tenant: fc.record({ tenant_id: text }, { requiredKeys: [] }),
    client: fc.record({ id: text, name: text, metadata: jsonObject }, { requiredKeys: [] }),
    connection: fc.record({ id: text, name: text, strategy: text }, { requiredKeys: [] }),
    request: fc.record(
      {
        geo: fc.record(
          {
            continent_code: text,
            country_code: text,
            country_name: text,
            subdivision_code: text,
            subdivision_name: text,
            city_name: text,
            time_zone: text,
            latitude: jsonNumber,
            longitude: jsonNumber,
          },
          { requiredKeys: [] },
        ),
        hostname: text,
        ip: text,
        method: text,
        user_agent: text,
        custom_domain: text,
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

/** Events: Data object of `connection.created`. */
export const connectionCreatedObject: fc.Arbitrary<T.ConnectionCreatedObject> = fc.record(
  {
    id: text,
    name: text,
    strategy: sampleOr('oidc'),
    authentication: fc.record({ active: fc.boolean() }, { requiredKeys: [] }),
    display_name: text,
    enabled_clients: strings,
    is_domain_connection: fc.boolean(),
    metadata: jsonObject,
    realms: strings,
    connected_accounts: fc.record({ active: fc.boolean(), cross_app_access: fc.boolean() }, { requiredKeys: [] }),
    show_as_button: fc.boolean(),
    options: optionalRecord<T.ConnectionOptions>({
      ...fieldsOf(CONNECTION_OPTIONS_STRINGS, text),
      connection_settings: jsonObject,
      upstream_params: jsonObject,
      domain_aliases: strings,
      non_persistent_attrs: strings,
      federated_connections_access_tokens: fc.record({ active: fc.boolean() }, { requiredKeys: [] }),
      id_token_session_expiry_supported: fc.boolean(),
      send_back_channel_nonce: fc.boolean(),
      // The document says "(array)" without an item type.
      id_token_signed_response_algs: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
      attribute_map: fc.record({ attributes: jsonObject, userinfo_scope: text }, { requiredKeys: [] }),
      oidc_metadata: optionalRecord<T.OidcMetadata>({
        ...fieldsOf(OIDC_METADATA_STRINGS, text),
        ...fieldsOf(OIDC_METADATA_STRING_ARRAYS, strings),
        ...fieldsOf(OIDC_METADATA_BOOLEANS, fc.boolean()),
      }),
    }),
  },
  { requiredKeys: [] },
);

/** Events: Event envelope. */
export const eventEnvelope: fc.Arbitrary<T.EventEnvelope> = fc.record(
  {
    specversion: sampleOr('1.0'),
    type: fc.oneof(eventType, text),
    source: text,
    id: text,
    time: dateTime,
    data: fc.record(
      { object: fc.oneof(connectionCreatedObject, jsonObject), context: eventContext },
      { requiredKeys: [] },
    ),
    svctenant: text,
    svcstream: text,
    svcpurpose: sampleOr('test'),
  },
  { requiredKeys: [] },
);

/** Events: Payload of each data line of an event message. */
export const sseEventPayload: fc.Arbitrary<T.SseEventPayload> = fc.record(
  { type: eventType, offset: text, event: eventEnvelope },
  { requiredKeys: ['offset', 'event'] },
);

/** An `error` message payload (shape not shown beyond `type`). */
export const sseErrorPayload: fc.Arbitrary<T.SseErrorPayload> = fc.record(
  { type: fc.constant('error' as const), offset: text },
  { requiredKeys: [] },
);

/** An `offset-only` heartbeat: it carries the cursor. */
export const sseOffsetOnlyPayload: fc.Arbitrary<T.SseOffsetOnlyPayload> = fc.record(
  { type: fc.constant('offset-only' as const), offset: text },
  { requiredKeys: ['offset'] },
);

// ---------------------------------------------------------- token endpoint

/** Authentication 2: the client-credentials token request, audience `/api/v2/`. */
export const tokenRequest: fc.Arbitrary<T.TokenRequest> = fc.record(
  {
    grant_type: fc.constant('client_credentials' as const),
    client_id: textBetween(1, 12),
    client_secret: textBetween(1, 12),
    audience: fc.oneof(
      fc.constant('/api/v2/'),
      fc.domain().map((d) => `https://${d}/api/v2/`),
    ),
    scope: fc.subarray([...inScopeScopes]).map((s) => s.join(' ')),
  },
  { requiredKeys: ['grant_type', 'audience'] },
);

const base64url = fc.string({
  unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
  minLength: 1,
  maxLength: 24,
});

/** RFC 6749 5.1 token response; the access token is a JWT (RFC 7519 1: a JWS of three segments or a JWE of five). */
export const tokenResponse: fc.Arbitrary<T.TokenResponse> = fc.record(
  {
    access_token: fc.oneof(
      fc.tuple(base64url, base64url, fc.oneof(fc.constant(''), base64url)).map((parts) => parts.join('.')),
      // A JWE (RFC 7519 1): five segments, the encrypted key empty under direct encryption.
      fc
        .tuple(base64url, fc.oneof(fc.constant(''), base64url), base64url, base64url, base64url)
        .map((parts) => parts.join('.')),
    ),
    token_type: fc.constantFrom('Bearer', 'bearer', 'BEARER'),
    expires_in: fc.oneof(fc.nat(), fc.double({ min: 0, max: 1e9, noNaN: true })),
    scope: fc.subarray([...inScopeScopes]).map((s) => s.join(' ')),
  },
  { requiredKeys: ['access_token', 'token_type'] },
);

// ----------------------------------------------------------------- table

/** One valid-value arbitrary per schema; a schema without one is a compile error. */
export const validValues: { [K in SchemaName]: fc.Arbitrary<T.SchemaTypes[K]> } = {
  allocation: allocation,
  'client-grant': clientGrant,
  'connection-created-object': connectionCreatedObject,
  'custom-text': customText,
  'event-context': eventContext,
  'event-envelope': eventEnvelope,
  'event-stream': eventStream,
  'event-stream-page': eventStreamPage,
  'event-type': eventType,
  experiment: experiment,
  'experiment-transition-request': experimentTransitionRequest,
  jwk: jwk,
  jwks: jwks,
  'sse-error-payload': sseErrorPayload,
  'sse-event-payload': sseEventPayload,
  'sse-offset-only-payload': sseOffsetOnlyPayload,
  'token-request': tokenRequest,
  'token-response': tokenResponse,
  'token-set': tokenSet,
  'token-set-list': tokenSetList,
};
