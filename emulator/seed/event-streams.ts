/**
 * Event streams: 137 with 26-character ids, in creation order, names of
 * 1 to 128 characters, at least one subscription each.
 */
import type { EventStream } from '../state.js';
import { ALNUM, at, type Rng } from './shared.js';

/** The seed's event types for event stream subscriptions (a subset of the documented types). */
export const SUBSCRIBABLE: readonly string[] = [
  'user.created',
  'user.updated',
  'user.deleted',
  'organization.created',
  'organization.deleted',
  'connection.created',
  'connection.deleted',
];

export const EVENT_STREAM_COUNT = 137;

/** Event stream names: lengths spread over 1..128, one of exactly 128 and one of exactly 1. */
function streamName(i: number): string {
  if (i === 0) return 'S';
  if (i === 1) return 'n'.repeat(128);
  const base = `stream-${String(i + 1).padStart(3, '0')}`;
  const len = Math.min(128, base.length + ((i * 37) % 120));
  return (base + '-' + 'abcdefghij'.repeat(13)).slice(0, len);
}

export function seedEventStreams(rng: Rng): EventStream[] {
  const eventStreams: EventStream[] = [];
  for (let i = 0; i < EVENT_STREAM_COUNT; i++) {
    // At least one subscription (the schema's minItems 1): user.created if the slice were empty.
    const [firstSub = { event_type: 'user.created' }, ...moreSubs] = SUBSCRIBABLE.slice(
      i % SUBSCRIBABLE.length,
      (i % SUBSCRIBABLE.length) + 1 + (i % 3),
    ).map((event_type) => ({ event_type }));
    eventStreams.push({
      id: `est_${rng.chars(ALNUM, 22)}`,
      name: streamName(i),
      subscriptions: [firstSub, ...moreSubs],
      destination: {
        type: 'webhook',
        configuration: {
          webhook_endpoint: `https://hooks.conformance.test/streams/${i + 1}`,
          webhook_authorization: { method: 'basic', username: `hook-user-${i + 1}` },
        },
      },
      status: i % 3 === 2 ? 'disabled' : 'enabled',
      created_at: at(5000 + i),
      updated_at: at(5000 + i + (i % 5)),
    });
  }
  return eventStreams;
}
