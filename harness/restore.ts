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

/** Runs `fn`, then puts the custom signing keys back as they were. */
export async function withCustomSigningKeysRestored(api: Api, fn: () => Promise<void>): Promise<void> {
  const snap = await api.get(KEYS_PATH);
  const had = snap.status >= 200 && snap.status < 300 && Array.isArray((snap.json as { keys?: unknown })?.keys);
  const none = snap.status === 404 || (had && (snap.json as { keys: unknown[] }).keys.length === 0);
  test.skip(!had && !none, `Cannot snapshot the custom signing keys (GET ${KEYS_PATH} answered ${snap.status}): no write is sent, so nothing can be lost`);
  try {
    await fn();
  } finally {
    const back = none ? await api.delete(KEYS_PATH) : await api.put(KEYS_PATH, { json: snap.json });
    if (back.status >= 300 && !(none && back.status === 404)) {
      throw new Error(`Restoring the custom signing keys failed: ${back.method} ${back.target} answered ${back.status}. Restore them by hand.`);
    }
  }
}

/** Runs `fn`, then puts the profile's custom text back as it was. */
export async function withCustomTextRestored(api: Api, profileId: string, fn: () => Promise<void>): Promise<void> {
  const path = customTextPath(profileId);
  const snap = await api.get(path);
  const ok = snap.status >= 200 && snap.status < 300 && !!snap.json && typeof snap.json === 'object';
  test.skip(!ok, `Cannot snapshot the custom text (GET ${path} answered ${snap.status}): no write is sent, so nothing can be lost`);
  try {
    await fn();
  } finally {
    const back = await api.put(path, { json: snap.json });
    if (back.status >= 300) throw new Error(`Restoring the custom text failed: PUT ${path} answered ${back.status}. Restore it by hand.`);
  }
}
