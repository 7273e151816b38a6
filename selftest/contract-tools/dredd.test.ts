/**
 * Dredd 14.1 (a pinned dev dependency) loads spec/openapi.json unchanged and
 * runs its transactions against the embedded emulator, with hooks only for
 * the tokens and fixture ids (dredd-hooks.cjs). What it reports is pinned
 * here, with the reason for each transaction that does not pass: every one
 * is a limit of Dredd, not of the emulator or the document.
 */
import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import { seedExamples } from '../../spec/build.ts';
import { OPENAPI, runTool, tokenOf } from './tools.ts';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const HOOKS = join(import.meta.dirname, 'dredd-hooks.cjs');
/** The stream of GET /events never ends; Dredd waits for the end of every answer, so it is left out by name. */
const EVENTS = /^\/events > /;

/** `pass: GET (200) /client-grants/cgr_… duration: 12ms` → `pass GET (200) /client-grants/{…}` (query dropped). */
function outcomes(output: string): string[] {
  return [...output.matchAll(/^(pass|fail|skip): (\w+) \((\d{3})\) (\S+)/gm)].map(
    (m) => `${m[1]} ${m[2]} (${m[3]}) ${m[4]!.split('?')[0]}`,
  );
}

let emu: RunningEmulator;
const secrets: string[] = [];
test.beforeAll(async () => {
  emu = await startEmulator();
});
test.afterAll(async () => {
  await emu?.close();
});

test('Dredd loads the document unchanged: no parser error, one transaction per documented response', async () => {
  const run = await runTool('dredd', [OPENAPI, emu.baseUrl, '--names', '--no-color']);
  expect(run.output).not.toMatch(/parser error|processing error/i);
  const names = [...run.output.matchAll(/^info: (.+ > .+)$/gm)].map((m) => m[1]!);
  expect(names).toEqual([
    '/client-grants/{id} > Get a client grant > 200',
    '/event-streams > List event streams > 200',
    '/event-streams/{id} > Get an event stream > 200',
    '/events > Subscribe to events (Server-Sent Events) > 200',
    '/experimentation/experiments/{id}/status > Transition an experiment > 200',
    '/keys/custom-signing > Create or replace custom signing keys > 200',
    '/keys/custom-signing > Create or replace custom signing keys > 200',
    '/oauth/token/ > Client-credentials token request > 200 > application/json',
    '/self-service-profiles/{id}/custom-text/{language}/{page} > Set custom text for a self-service profile > 200',
    '/self-service-profiles/{id}/custom-text/{language}/{page} > Set custom text for a self-service profile > 200',
    '/users/{id}/federated-connections-tokensets > List token sets of a user > 200 > application/json',
    '/users/{id}/federated-connections-tokensets > List token sets of a user > 401',
    '/users/{id}/federated-connections-tokensets > List token sets of a user > 403',
    '/users/{id}/federated-connections-tokensets > List token sets of a user > 404',
    '/users/{id}/federated-connections-tokensets > List token sets of a user > 429',
  ]);
  // What Dredd cannot read of the document, in its own words (warnings, not errors).
  expect(run.output).toContain("'Responses Object' response status code ranges are unsupported");
  expect(run.output).toContain(
    "'Media Type Object' 'example' is not supported for media type 'application/x-www-form-urlencoded'",
  );
  expect(run.output).toContain("'Media Type Object' contains unsupported key 'encoding'");
});

test('Dredd against the emulator: every transaction the document fully describes passes; the rest fail for reasons of Dredd', async () => {
  const token = await tokenOf(emu, 'full');
  const limited = await tokenOf(emu, 'limited');
  const rateLimited = await tokenOf(emu, 'rateLimited');
  secrets.push(token, limited, rateLimited, emu.clients.full.clientSecret);
  // Use up the rate-limited client's window, so that Dredd's 429 transaction meets a 429.
  let tooMany = false;
  for (let i = 0; i < 50 && !tooMany; i++) {
    const res = await fetch(
      `${emu.baseUrl}/users/${encodeURIComponent(emu.fixtures.userId)}/federated-connections-tokensets`,
      { headers: { authorization: `Bearer ${rateLimited}` } },
    );
    await res.arrayBuffer();
    tooMany = res.status === 429;
  }
  expect(tooMany, 'the rate-limited client reached 429').toBe(true);

  const names = await runTool('dredd', [OPENAPI, emu.baseUrl, '--names', '--no-color']);
  const only = [...names.output.matchAll(/^info: (.+ > .+)$/gm)].map((m) => m[1]!).filter((n) => !EVENTS.test(n));
  const run = await runTool(
    'dredd',
    [
      OPENAPI,
      emu.baseUrl,
      '--hookfiles',
      HOOKS,
      '--no-color',
      '--loglevel',
      'warning',
      ...[...new Set(only)].flatMap((n) => ['--only', n]),
    ],
    {
      DREDD_TOKEN: token,
      DREDD_LIMITED_TOKEN: limited,
      DREDD_RATE_LIMITED_TOKEN: rateLimited,
      DREDD_CLIENT_ID: emu.clients.full.clientId,
      DREDD_CLIENT_SECRET: emu.clients.full.clientSecret,
      DREDD_AUDIENCE: emu.audience,
      DREDD_USER_ID: seedExamples().userId,
      DREDD_UNKNOWN_USER_ID: emu.fixtures.unknownUserId,
    },
  );
  await test.info().attach('dredd output', { body: run.output, contentType: 'text/plain' });
  for (const s of secrets) expect(run.output.includes(s), "a token or client secret in Dredd's output").toBe(false);
  // Nor the token Dredd's own token request was answered (the hooks redact that body).
  expect(run.output).not.toMatch(/eyJ[A-Za-z0-9_-]{8,}\.eyJ/);

  const ex = seedExamples();
  const user = `/users/${encodeURIComponent(ex.userId)}/federated-connections-tokensets`;
  expect(outcomes(run.output).slice(0, 15)).toEqual([
    `pass GET (200) /client-grants/${ex.clientGrantId}`,
    'pass GET (200) /event-streams',
    `pass GET (200) /event-streams/${ex.eventStreamId}`,
    'skip GET (200) /events',
    `pass POST (200) /experimentation/experiments/${ex.experimentId}/status`,
    'pass PUT (200) /keys/custom-signing',
    // Dredd sends no body for a form example (see the first test), and a JWKS needs keys: 400.
    'fail PUT (200) /keys/custom-signing',
    // Dredd matches Content-Type exactly: application/json; charset=utf-8 is "No enum match" for application/json.
    'fail POST (200) /oauth/token/',
    `pass PUT (200) /self-service-profiles/${ex.selfServiceProfileId}/custom-text/en/get-started`,
    // An empty form body is an empty map of custom text: accepted.
    `pass PUT (200) /self-service-profiles/${ex.selfServiceProfileId}/custom-text/en/get-started`,
    // As for the token: the charset parameter of Content-Type.
    `fail GET (200) ${user}`,
    `pass GET (401) ${user}`,
    `pass GET (403) ${user}`,
    // Sent for the unknown user (the hook's fixture id); Dredd's line names the transaction's original path.
    `pass GET (404) ${user}`,
    `pass GET (429) ${user}`,
  ]);
  expect(run.output).toContain("statusCode: Expected status code '200', but got '400'");
  expect(run.output.match(/At '\/content-type' No enum match for: "application\/json; charset=utf-8"/g)?.length).toBe(
    2,
  );
  expect(run.output).toMatch(/complete: 11 passing, 3 failing, 0 errors, 1 skipped, 15 total/);
});
