/**
 * Prepares a target before any worker starts: reads and prints its
 * configuration (never a secret), fetches the run's tokens once (noting a
 * token request that needed an undocumented form), and sends one preflight
 * read. Answers the variables to hand to the workers (HANDOVER): the global
 * setup hands them over through the environment, `npm run verify` per target
 * through a project's `targetEnv`.
 *
 * A broken target (unreachable, TLS, refused credentials or token) ends the
 * run here with one clear message, not as a hundred failed checks.
 */
import { describeConfig, HANDOVER, readConfig, type Config, type Env } from './config.ts';
import { describeNetworkError, fetchToken, TargetError } from '../requests/tokens.ts';
import { decodeJwt } from '../vocabulary/jwt.ts';

/** `banner: false`: no configuration printed (`npm run verify` prepares hundreds of targets alike, and prints the baseline's). */
export async function prepareTarget(env: Env, { banner = true } = {}): Promise<Record<string, string>> {
  const config = readConfig(env);
  if (banner) console.log(`\nConformance run\n${describeConfig(config)}\n`);
  let requests = 0;
  const fallbacks: string[] = [];
  const onFallback = (note: string) => fallbacks.push(note);
  if (!config.token) requests++;
  const token = config.token ?? (await fetchToken(config, config.credentials!, 'main', onFallback));
  if (!config.limitedToken && config.limitedCredentials) requests++;
  const limited =
    config.limitedToken ??
    (config.limitedCredentials
      ? await fetchToken(config, config.limitedCredentials, 'limited', onFallback)
      : undefined);
  requests++;
  await preflight(config, token);
  return {
    [HANDOVER.runToken]: token,
    ...(limited ? { [HANDOVER.limitedRunToken]: limited } : {}),
    ...(fallbacks.length ? { [HANDOVER.tokenFallback]: fallbacks.join('; ') } : {}),
    [HANDOVER.setupRequests]: String(requests),
  };
}

/**
 * One read with the run's token before any check: a target that is
 * unreachable, hangs, or refuses the token on a plain read would otherwise
 * show as a hundred failures. Ends the run with one clear message instead.
 */
async function preflight(config: Config, token: string): Promise<void> {
  const url = `${config.baseUrl}/event-streams?take=1`;
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    await res.arrayBuffer();
  } catch (e) {
    throw new TargetError(describeNetworkError(url, e));
  }
  if (res.status === 401) {
    throw new TargetError(
      `The target refused the run's token (GET /event-streams answered 401): check CONFORMANCE_AUDIENCE (${config.audience}) and that the token is for this tenant.`,
    );
  }
  if (res.status === 403) {
    // A token whose scope claim holds the scope is a target that refuses it, not a client to configure.
    const scope = decodeJwt(token)?.payload.scope;
    const held = typeof scope === 'string' ? scope.split(' ') : Array.isArray(scope) ? scope : [];
    if (held.includes('read:event_streams'))
      throw new TargetError(
        "GET /event-streams answered 403 to the run's token although its scope claim holds read:event_streams: the target refuses a token holding the scope the operation needs (rule oauth.token.accepted). No check can run with it.",
      );
    throw new TargetError(
      "The run's token lacks the in-scope scopes (GET /event-streams answered 403): grant the client read:event_streams, read:client_grants, read:federated_connections_tokens, read:events (and the write scopes for CONFORMANCE_WRITES=restore).",
    );
  }
}
