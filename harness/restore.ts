/**
 * Snapshot and restore for writes (CONFORMANCE_WRITES=restore): whatever a
 * check changes is put back after it, so a run leaves a real tenant as it
 * found it. Where no snapshot can be taken, the check is skipped with the
 * reason rather than risk losing data.
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

/** Runs `fn`, then puts the custom signing keys back as they were. */
export async function withCustomSigningKeysRestored(api: Api, fn: () => Promise<void>): Promise<void> {
  const snap = await api.get(KEYS_PATH);
  const had = snap.status >= 200 && snap.status < 300 && Array.isArray((snap.json as { keys?: unknown })?.keys);
  const none = snap.status === 404 || (had && (snap.json as { keys: unknown[] }).keys.length === 0);
  test.skip(!had && !none, `Cannot snapshot the custom signing keys (GET ${KEYS_PATH} answered ${snap.status}): no write is sent, so nothing can be lost`);
  await thenRestore(fn, async () => {
    const back = none ? await api.delete(KEYS_PATH) : await api.put(KEYS_PATH, { json: snap.json });
    if (back.status >= 300 && !(none && back.status === 404)) {
      return `Restoring the custom signing keys failed: ${back.method} ${back.target} answered ${back.status}. Restore them by hand.`;
    }
    return undefined;
  });
}

/** Runs `fn`, then puts the profile's custom text back as it was. */
export async function withCustomTextRestored(api: Api, profileId: string, fn: () => Promise<void>): Promise<void> {
  const path = customTextPath(profileId);
  const snap = await api.get(path);
  const ok = snap.status >= 200 && snap.status < 300 && !!snap.json && typeof snap.json === 'object';
  test.skip(!ok, `Cannot snapshot the custom text (GET ${path} answered ${snap.status}): no write is sent, so nothing can be lost`);
  await thenRestore(fn, async () => {
    const back = await api.put(path, { json: snap.json });
    return back.status >= 300 ? `Restoring the custom text failed: PUT ${path} answered ${back.status}. Restore it by hand.` : undefined;
  });
}
