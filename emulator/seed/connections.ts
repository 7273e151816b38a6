/**
 * Connections: the database connection users are created in and a social
 * one token sets come from; `fullConnection` fills every documented member,
 * as `connection.created` carries it.
 */
import type { Connection } from '../state.js';
import { ALNUM, USER_CONNECTION, type Rng } from './shared.js';

/** A connection object as `connection.created` carries it: every documented member filled. */
export function fullConnection(
  id: string,
  name: string,
  strategy: string,
  extra: Partial<Connection> = {},
): Connection {
  const issuer = `https://idp.conformance.test/${encodeURIComponent(name)}/`;
  const oidc_metadata = {
    authorization_endpoint: `${issuer}authorize`,
    issuer,
    jwks_uri: `${issuer}.well-known/jwks.json`,
    end_session_endpoint: `${issuer}logout`,
    op_policy_uri: `${issuer}policy`,
    op_tos_uri: `${issuer}tos`,
    registration_endpoint: `${issuer}register`,
    service_documentation: `${issuer}docs`,
    token_endpoint: `${issuer}token`,
    userinfo_endpoint: `${issuer}userinfo`,
    id_token_signing_alg_values_supported: ['RS256', 'ES256'],
    acr_values_supported: [],
    claim_types_supported: ['normal'],
    claims_locales_supported: ['en'],
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'email', 'name'],
    display_values_supported: ['page', 'popup'],
    dpop_signing_alg_values_supported: ['ES256'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    id_token_encryption_alg_values_supported: [],
    id_token_encryption_enc_values_supported: [],
    request_object_encryption_alg_values_supported: [],
    request_object_encryption_enc_values_supported: [],
    request_object_signing_alg_values_supported: ['RS256'],
    response_modes_supported: ['query', 'fragment', 'form_post'],
    response_types_supported: ['code'],
    scopes_supported: ['openid', 'profile', 'email'],
    subject_types_supported: ['public'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    token_endpoint_auth_signing_alg_values_supported: ['RS256'],
    ui_locales_supported: ['en'],
    userinfo_encryption_alg_values_supported: [],
    userinfo_encryption_enc_values_supported: [],
    userinfo_signing_alg_values_supported: [],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: true,
    require_request_uri_registration: false,
  };
  const options = {
    client_id: `oidc-client-${name}`,
    authorization_endpoint: oidc_metadata.authorization_endpoint,
    icon_url: `${issuer}icon.png`,
    issuer,
    jwks_uri: oidc_metadata.jwks_uri,
    scope: 'openid profile email',
    tenant_domain: 'conformance.test',
    token_endpoint: oidc_metadata.token_endpoint,
    userinfo_endpoint: oidc_metadata.userinfo_endpoint,
    discovery_url: `${issuer}.well-known/openid-configuration`,
    connection_settings: { pkce: 'auto' },
    upstream_params: {},
    domain_aliases: [],
    non_persistent_attrs: [],
    federated_connections_access_tokens: { active: false },
    id_token_session_expiry_supported: false,
    send_back_channel_nonce: false,
    id_token_signed_response_algs: ['RS256'],
    attribute_map: { attributes: {}, userinfo_scope: 'openid profile email' },
    oidc_metadata,
  };
  return {
    id,
    name,
    strategy,
    display_name: name,
    authentication: { active: true },
    enabled_clients: [],
    is_domain_connection: false,
    metadata: {},
    realms: [name],
    connected_accounts: { active: false, cross_app_access: false },
    show_as_button: false,
    ...extra,
    options: { ...options, ...(extra.options ?? {}) },
  };
}

/** The seeded connections: the database connection (enabled for the full client), then the social one. */
export function seedConnections(rng: Rng, fullClientId: string): { db: Connection; social: Connection } {
  const db = fullConnection(`con_${rng.chars(ALNUM, 16)}`, USER_CONNECTION, 'auth0', {
    enabled_clients: [fullClientId],
  });
  const social = fullConnection(`con_${rng.chars(ALNUM, 16)}`, 'google-oauth2', 'google-oauth2', {
    options: { federated_connections_access_tokens: { active: true } },
  });
  return { db, social };
}
