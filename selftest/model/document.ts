/**
 * What the interface document states about the bodies, transcribed by hand
 * from the document (not read from the schemas), so the model tests compare
 * two independent sources: this file and schemas/*.schema.json.
 *
 * Section names follow the document ("Resources and their fields", "Events",
 * "Limits").
 */

// ------------------------------------------------------------------ enums

/** Resources: Experiment, status; States and transitions: Experiment status. */
export const EXPERIMENT_STATUSES = ['draft', 'active', 'paused', 'completed', 'archived'] as const;
/** Endpoints 2: body `status` is one of these; `draft` is not an allowed target. */
export const TRANSITION_TARGETS = ['active', 'paused', 'completed', 'archived'] as const;
/** Resources: Experiment, allocation_strategy. */
export const ALLOCATION_STRATEGIES = ['percentage', 'segment'] as const;
/** Resources: Client grant, organization_usage. */
export const ORGANIZATION_USAGES = ['deny', 'allow', 'require'] as const;
/** Resources: Client grant, default_for ("Only accepted value"). */
export const DEFAULT_FOR = ['third_party_clients'] as const;
/** Resources: Client grant, subject_type. */
export const SUBJECT_TYPES = ['client', 'user'] as const;
/** Resources: Event stream, status. */
export const EVENT_STREAM_STATUSES = ['enabled', 'disabled'] as const;
/** Events: Event types (values of the `event_type` query parameter). */
export const EVENT_TYPES = [
  'connection.created',
  'connection.deleted',
  'connection.updated',
  'group.created',
  'group.deleted',
  'group.member.added',
  'group.member.deleted',
  'group.role.assigned',
  'group.role.deleted',
  'group.updated',
  'organization.connection.added',
  'organization.connection.removed',
  'organization.connection.updated',
  'organization.created',
  'organization.deleted',
  'organization.group.role.assigned',
  'organization.group.role.deleted',
  'organization.member.added',
  'organization.member.deleted',
  'organization.member.role.assigned',
  'organization.member.role.deleted',
  'organization.updated',
  'user.created',
  'user.deleted',
  'user.updated',
] as const;

// ---------------------------------------------------------- experiment id

/** Resources: Experiment, id: pattern `^exp_[A-HJ-NP-Za-km-z1-9]+$` (no 0, O, I, l). */
export const EXPERIMENT_ID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz123456789';
export const EXPERIMENT_ID_EXCLUDED = ['0', 'O', 'I', 'l'] as const;

/** Resources: Experiment, the fields marked required. */
export const EXPERIMENT_REQUIRED = [
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
] as const;

// ----------------------------------------------------------------- limits

export const LIMITS = {
  eventStreamIdLength: 26,
  eventStreamNameMin: 1,
  eventStreamNameMax: 128,
  eventStreamStatusMaxLength: 8,
  authorizationDetailsTypeMin: 1,
  authorizationDetailsTypeMax: 255,
  customTextValueMax: 2000,
  jwksMinKeys: 1,
  subscriptionsMin: 1,
} as const;

// ------------------------------------------------------- field type tables

/**
 * The JSON type of a documented field. `date-time` is a date-time string;
 * `date-time|null` allows null; `string[]` is an array of strings.
 */
export type FieldKind =
  'string' | 'date-time' | 'date-time|null' | 'boolean' | 'integer' | 'number' | 'object' | 'array' | 'string[]';

/** Field paths (slash-separated; a number is an array index) and their kinds. */
export type FieldTable = Readonly<Record<string, FieldKind>>;

const kinds = (kind: FieldKind, names: readonly string[], prefix = ''): Record<string, FieldKind> =>
  Object.fromEntries(names.map((n) => [prefix + n, kind]));

/** Resources: Federated connection token set. */
export const TOKEN_SET_FIELDS: FieldTable = {
  id: 'string',
  connection: 'string',
  scope: 'string',
  expires_at: 'date-time|null',
  issued_at: 'date-time',
  last_used_at: 'date-time|null',
};

/** Resources: Experiment, allocation object. */
export const ALLOCATION_FIELDS: FieldTable = {
  variation_id: 'string',
  segment_id: 'string',
  weight: 'integer',
  priority: 'integer',
  is_control: 'boolean',
  is_fallback: 'boolean',
};

/** Resources: Experiment. */
export const EXPERIMENT_FIELDS: FieldTable = {
  id: 'string',
  name: 'string',
  feature_flag_id: 'string',
  authentication_flow: 'string',
  allocation_strategy: 'string',
  assignment_config: 'object',
  'assignment_config/subject': 'string',
  status: 'string',
  is_valid: 'boolean',
  allocations: 'array',
  created_at: 'date-time',
  updated_at: 'date-time',
  description: 'string',
  started_at: 'date-time',
  ended_at: 'date-time',
  ...kinds('integer', ['weight', 'priority'], 'allocations/0/'),
};

/** Resources: Client grant. */
export const CLIENT_GRANT_FIELDS: FieldTable = {
  id: 'string',
  client_id: 'string',
  audience: 'string',
  scope: 'string[]',
  organization_usage: 'string',
  allow_any_organization: 'boolean',
  default_for: 'string',
  is_system: 'boolean',
  subject_type: 'string',
  authorization_details_types: 'string[]',
  allow_all_scopes: 'boolean',
};

/** Resources: Event stream. */
export const EVENT_STREAM_FIELDS: FieldTable = {
  id: 'string',
  name: 'string',
  subscriptions: 'array',
  'subscriptions/0': 'object',
  'subscriptions/0/event_type': 'string',
  destination: 'object',
  'destination/type': 'string',
  'destination/configuration': 'object',
  'destination/configuration/webhook_endpoint': 'string',
  'destination/configuration/webhook_authorization': 'object',
  'destination/configuration/webhook_authorization/method': 'string',
  'destination/configuration/webhook_authorization/username': 'string',
  status: 'string',
  created_at: 'date-time',
  updated_at: 'date-time',
};

/** Endpoints 6: object with eventStreams (array of event stream objects) and next (string). */
export const EVENT_STREAM_PAGE_FIELDS: FieldTable = {
  eventStreams: 'array',
  'eventStreams/0': 'object',
  'eventStreams/0/name': 'string',
  next: 'string',
};

/** Resources: Custom signing key (JWK). */
export const JWK_FIELDS: FieldTable = {
  ...kinds('string', ['kty', 'kid', 'use', 'n', 'e', 'x', 'y', 'x5u', 'x5t', 'x5t#S256']),
  key_ops: 'string[]',
  x5c: 'string[]',
};

/** A JWKS is an object with `keys`, an array of JWK objects. */
export const JWKS_FIELDS: FieldTable = { keys: 'array', 'keys/0': 'object', 'keys/0/kid': 'string' };

/** Events: Payload of each data line. */
export const SSE_EVENT_PAYLOAD_FIELDS: FieldTable = {
  type: 'string',
  offset: 'string',
  event: 'object',
  'event/time': 'date-time',
};

/** Events: Event envelope. */
export const EVENT_ENVELOPE_FIELDS: FieldTable = {
  ...kinds('string', ['specversion', 'type', 'source', 'id', 'svctenant', 'svcstream', 'svcpurpose']),
  time: 'date-time',
  data: 'object',
  'data/object': 'object',
  'data/context': 'object',
  'data/context/tenant/tenant_id': 'string',
};

/** Events: Context (inside data). */
export const EVENT_CONTEXT_FIELDS: FieldTable = {
  tenant: 'object',
  'tenant/tenant_id': 'string',
  client: 'object',
  'client/id': 'string',
  'client/name': 'string',
  'client/metadata': 'object',
  connection: 'object',
  ...kinds('string', ['id', 'name', 'strategy'], 'connection/'),
  request: 'object',
  'request/geo': 'object',
  ...kinds(
    'string',
    [
      'continent_code',
      'country_code',
      'country_name',
      'subdivision_code',
      'subdivision_name',
      'city_name',
      'time_zone',
    ],
    'request/geo/',
  ),
  ...kinds('number', ['latitude', 'longitude'], 'request/geo/'),
  ...kinds('string', ['hostname', 'ip', 'method', 'user_agent', 'custom_domain'], 'request/'),
};

/** Events: Data object of `connection.created`: fields of data.object, options and oidc_metadata. */
export const CONNECTION_OPTIONS_STRINGS = [
  'client_id',
  'authorization_endpoint',
  'icon_url',
  'issuer',
  'jwks_uri',
  'scope',
  'tenant_domain',
  'token_endpoint',
  'userinfo_endpoint',
  'discovery_url',
] as const;
export const OIDC_METADATA_STRINGS = [
  'authorization_endpoint',
  'issuer',
  'jwks_uri',
  'end_session_endpoint',
  'op_policy_uri',
  'op_tos_uri',
  'registration_endpoint',
  'service_documentation',
  'token_endpoint',
  'userinfo_endpoint',
] as const;
export const OIDC_METADATA_STRING_ARRAYS = [
  'id_token_signing_alg_values_supported',
  'acr_values_supported',
  'claim_types_supported',
  'claims_locales_supported',
  'claims_supported',
  'display_values_supported',
  'dpop_signing_alg_values_supported',
  'grant_types_supported',
  'id_token_encryption_alg_values_supported',
  'id_token_encryption_enc_values_supported',
  'request_object_encryption_alg_values_supported',
  'request_object_encryption_enc_values_supported',
  'request_object_signing_alg_values_supported',
  'response_modes_supported',
  'response_types_supported',
  'scopes_supported',
  'subject_types_supported',
  'token_endpoint_auth_methods_supported',
  'token_endpoint_auth_signing_alg_values_supported',
  'ui_locales_supported',
  'userinfo_encryption_alg_values_supported',
  'userinfo_encryption_enc_values_supported',
  'userinfo_signing_alg_values_supported',
] as const;
export const OIDC_METADATA_BOOLEANS = [
  'claims_parameter_supported',
  'request_parameter_supported',
  'request_uri_parameter_supported',
  'require_request_uri_registration',
] as const;

export const CONNECTION_CREATED_OBJECT_FIELDS: FieldTable = {
  ...kinds('string', ['id', 'name', 'strategy', 'display_name']),
  authentication: 'object',
  'authentication/active': 'boolean',
  enabled_clients: 'string[]',
  is_domain_connection: 'boolean',
  metadata: 'object',
  realms: 'string[]',
  connected_accounts: 'object',
  'connected_accounts/active': 'boolean',
  'connected_accounts/cross_app_access': 'boolean',
  show_as_button: 'boolean',
  options: 'object',
  ...kinds('string', CONNECTION_OPTIONS_STRINGS, 'options/'),
  'options/connection_settings': 'object',
  'options/upstream_params': 'object',
  'options/domain_aliases': 'string[]',
  'options/non_persistent_attrs': 'string[]',
  'options/federated_connections_access_tokens': 'object',
  'options/federated_connections_access_tokens/active': 'boolean',
  'options/id_token_session_expiry_supported': 'boolean',
  'options/send_back_channel_nonce': 'boolean',
  'options/id_token_signed_response_algs': 'array',
  'options/attribute_map': 'object',
  'options/attribute_map/attributes': 'object',
  'options/attribute_map/userinfo_scope': 'string',
  'options/oidc_metadata': 'object',
  ...kinds('string', OIDC_METADATA_STRINGS, 'options/oidc_metadata/'),
  ...kinds('string[]', OIDC_METADATA_STRING_ARRAYS, 'options/oidc_metadata/'),
  ...kinds('boolean', OIDC_METADATA_BOOLEANS, 'options/oidc_metadata/'),
};
