/**
 * Snapshot and restore for writes (CONFORMANCE_WRITES=restore): whatever a
 * check changes is put back after it, so a run leaves a real tenant as it
 * found it. Where no snapshot can be taken (the reads it needs are not shown
 * by the document, and a target may not offer them), no write is sent and
 * the check is skipped with the reason rather than risk losing data.
 */
import { test } from '@playwright/test';
import type { Api } from './client.ts';

export const KEYS_PATH = '/keys/custom-signing';

export function customTextPath(profileId: string, language = 'en', page = 'get-started'): string {
  return `/self-service-profiles/${encodeURIComponent(profileId)}/custom-text/${encodeURIComponent(language)}/${encodeURIComponent(page)}`;
}

/**
 * Runs `fn`, then `restore`. A failed restore is reported; when `fn` failed
 * too, its failure (the check's verdict, naming its rule) stays the error and
 * the restore failure is added to it rather than replacing it.
 */
async function thenRestore(fn: () => Promise<void>, restore: () => Promise<string | undefined>): Promise<void> {
  let failure: unknown;
  try {
    await fn();
  } catch (e) {
    failure = e;
  }
  const restoreFailure = await restore().catch((e: unknown) => `Restoring failed: ${(e as Error).message}`);
  if (failure === undefined) {
    if (restoreFailure !== undefined) throw new Error(restoreFailure);
    return;
  }
  if (restoreFailure !== undefined && failure instanceof Error) {
    const combined = new Error(`${failure.message}\n\nAlso: ${restoreFailure}`);
    combined.name = failure.name;
    combined.stack = `${combined.name}: ${combined.message}\n${(failure.stack ?? '').split('\n').slice(1).join('\n')}`;
    throw combined;
  }
  throw failure;
}

const is2xx = (status: number) => status >= 200 && status < 300;

/**
 * Runs `fn`, then puts the custom signing keys back as they were.
 *
 * Reading and deleting the keys (GET, DELETE /keys/custom-signing) are not
 * shown by the document; the suite uses them only where the target offers
 * them. A snapshot with keys is restored by a PUT of those keys. A snapshot
 * without keys (GET answers an empty set, or 404) is restored by DELETE, and
 * only if a DELETE sent first, while nothing is set, is answered 2xx or 404.
 * Otherwise no write is sent, and the check is skipped with the reason.
 */
export async function withCustomSigningKeysRestored(api: Api, fn: () => Promise<void>): Promise<void> {
  const snap = await api.get(KEYS_PATH);
  const keys = is2xx(snap.status) ? (snap.json as { keys?: unknown })?.keys : undefined;
  const none = (Array.isArray(keys) && keys.length === 0) || snap.status === 404;
  test.skip(!Array.isArray(keys) && !none, `Cannot snapshot the custom signing keys: GET ${KEYS_PATH} (not shown by the document) answered ${snap.status}. No write is sent, so nothing can be lost`);
  if (none) {
    // Nothing is set: a DELETE now is harmless, and tells whether one can undo the check's PUT.
    const probe = await api.delete(KEYS_PATH);
    test.skip(!is2xx(probe.status) && probe.status !== 404, `Cannot restore the custom signing keys: the target holds none, and DELETE ${KEYS_PATH} (not shown by the document) answered ${probe.status}. No write is sent, so nothing can be left behind`);
  }
  await thenRestore(fn, async () => {
    const back = none ? await api.delete(KEYS_PATH) : await api.put(KEYS_PATH, { json: { keys } });
    if (!is2xx(back.status) && !(none && back.status === 404)) {
      return `Restoring the custom signing keys failed: ${back.method} ${back.target} answered ${back.status}. Restore them by hand.`;
    }
    return undefined;
  });
}

/** A custom-text map as read back: an object of string values. */
const isTextMap = (v: unknown): v is Record<string, string> =>
  !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');

/**
 * Runs `fn`, then puts the profile's custom text back as it was. Reading
 * custom text is not shown by the document: where the target does not answer
 * GET on the same path with a map, no write is sent and the check is skipped.
 */
export async function withCustomTextRestored(api: Api, profileId: string, fn: () => Promise<void>): Promise<void> {
  const path = customTextPath(profileId);
  const snap = await api.get(path);
  test.skip(!is2xx(snap.status) || !isTextMap(snap.json), `Cannot snapshot the custom text: GET ${path} (not shown by the document) answered ${snap.status}${is2xx(snap.status) ? ' without a map of text values' : ''}. No write is sent, so nothing can be lost`);
  await thenRestore(fn, async () => {
    const back = await api.put(path, { json: snap.json });
    return is2xx(back.status) ? undefined : `Restoring the custom text failed: PUT ${path} answered ${back.status}. Restore it by hand.`;
  });
}
