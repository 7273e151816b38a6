/**
 * Endpoints 5 and 6: GET /event-streams/{id} and GET /event-streams.
 *
 * - id of a length other than 26 → 400 `invalid_uri`; unknown → 404.
 * - take: integer 1..100 (default 50), anything else → 400 `invalid_query_string`.
 * - from: the opaque `next` of the previous page (base64url of `es1:<last id>`);
 *   anything else → 400 `invalid_cursor`.
 * - The answer is `{ eventStreams, next }`; `next` is present only when more
 *   streams remain, so the last page has no `next` (the variants
 *   `last-page-empty-next` and `last-page-trailing-empty` choose otherwise).
 */
import { operation } from '../../spec/operations.js';
import type { EmulatorContext } from '../context.js';
import { apiError } from '../errors.js';
import type { EventStream } from '../state.js';
import { codePoints, param, singleQuery, type RouteDef } from './shared.js';

export const EVENT_STREAM_ID_LENGTH = 26;
export const TAKE_MIN = 1;
export const TAKE_MAX = 100;
export const TAKE_DEFAULT = 50;

const CURSOR_PREFIX = 'es1:';

export function encodeStreamCursor(lastId: string): string {
  return Buffer.from(CURSOR_PREFIX + lastId, 'utf8').toString('base64url');
}

function decodeStreamCursor(ctx: EmulatorContext, cursor: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(cursor)) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(CURSOR_PREFIX)) return undefined;
  const id = text.slice(CURSOR_PREFIX.length);
  if (encodeStreamCursor(id) !== cursor) return undefined;
  return ctx.state.eventStreamIndexOf(id);
}

function parseTake(ctx: EmulatorContext, raw: string | undefined): number {
  // Fault default-page-size-20: the documented default is 50.
  if (raw === undefined) return ctx.faults.has('default-page-size-20') ? 20 : TAKE_DEFAULT;
  // Fault take-0-accepted: the range starts at 1.
  if (raw === '0' && ctx.faults.has('take-0-accepted')) return 0;
  // Canonical decimal only: no sign, no leading zero, no exponent.
  if (!/^[1-9][0-9]{0,2}$/.test(raw)) throw apiError('invalid_query_string', `take must be an integer from ${TAKE_MIN} to ${TAKE_MAX}`);
  const n = Number(raw);
  // Fault take-101-accepted: the range ends at 100.
  const max = ctx.faults.has('take-101-accepted') ? TAKE_MAX + 1 : TAKE_MAX;
  if (n < TAKE_MIN || n > max) throw apiError('invalid_query_string', `take must be an integer from ${TAKE_MIN} to ${TAKE_MAX}`);
  return n;
}

/** An event stream as answered (a copy; faults change only the copy). */
function render(ctx: EmulatorContext, s: EventStream): Record<string, unknown> {
  // Variant optional-members-absent: no field of an event stream is marked required.
  if (ctx.variant === 'optional-members-absent') return { id: s.id };
  // Without faults, nothing changes the answer: serialise the stored stream as is (no copy per item).
  if (ctx.faults.size === 0) return s as unknown as Record<string, unknown>;
  const out = structuredClone(s) as unknown as Record<string, unknown> & { destination: { configuration: Record<string, unknown> } };
  // Fault event-stream-webhook-endpoint-object: a string answered as an object.
  if (ctx.faults.has('event-stream-webhook-endpoint-object')) out.destination.configuration['webhook_endpoint'] = { url: s.destination.configuration.webhook_endpoint };
  // Fault event-stream-id-25: ids are exactly 26 characters (one stream, on the first page, cut short).
  if (ctx.faults.has('event-stream-id-25') && ctx.state.eventStreamIndexOf(s.id) === 10) out['id'] = s.id.slice(0, EVENT_STREAM_ID_LENGTH - 1);
  // Fault event-stream-name-129: names are 1 to 128 characters.
  if (ctx.faults.has('event-stream-name-129') && s.name.length === 128) out['name'] = `${s.name}n`;
  // Fault event-stream-subscriptions-empty: minimum 1 item.
  if (ctx.faults.has('event-stream-subscriptions-empty')) out['subscriptions'] = [];
  // Fault event-stream-status-enabledd: outside enabled, disabled (and still 8 characters).
  if (ctx.faults.has('event-stream-status-enabledd') && s.status === 'enabled') out['status'] = 'enabledd';
  // Fault event-stream-updated-at-no-offset: ISO 8601 local time is not RFC 3339.
  if (ctx.faults.has('event-stream-updated-at-no-offset')) out['updated_at'] = s.updated_at.replace(/(\.\d+)?Z$/, '');
  return out;
}

export function eventStreamRoutes(ctx: EmulatorContext): RouteDef[] {
  return [
    {
      method: 'GET',
      url: '/api/v2/event-streams/:id',
      scopes: operation('event-streams.get').scopes,
      handler: (request) => {
        let id = param(request, 'id');
        // Fault stream-id-truncated: a longer id is cut to 26 characters and then served.
        if (ctx.faults.has('stream-id-truncated') && codePoints(id) > EVENT_STREAM_ID_LENGTH) id = [...id].slice(0, EVENT_STREAM_ID_LENGTH).join('');
        if (codePoints(id) !== EVENT_STREAM_ID_LENGTH) {
          // Fault stream-id-length-unchecked: the id reaches a store that cannot take it.
          if (ctx.faults.has('stream-id-length-unchecked')) throw apiError('service_unavailable', 'The event stream store failed');
          throw apiError('invalid_uri', `Path parameter id must be exactly ${EVENT_STREAM_ID_LENGTH} characters`);
        }
        let i = ctx.state.eventStreamIndexOf(id);
        // Fault event-stream-get-404: listed streams cannot be read by id.
        if (i === undefined || ctx.faults.has('event-stream-get-404')) throw apiError('inexistent_event_stream');
        // Fault event-stream-get-other-stream: the next stream in list order.
        if (ctx.faults.has('event-stream-get-other-stream')) i = (i + 1) % ctx.state.eventStreams.length;
        return render(ctx, ctx.state.eventStreams[i]!);
      },
    },
    {
      method: 'GET',
      url: '/api/v2/event-streams',
      scopes: operation('event-streams.list').scopes,
      handler: (request) => {
        const take = parseTake(ctx, singleQuery(request, 'take'));
        const from = singleQuery(request, 'from');
        let start = 0;
        if (from !== undefined) {
          const i = decodeStreamCursor(ctx, from);
          if (i === undefined) throw apiError('invalid_cursor', 'from is not a cursor this service returned');
          start = i + 1;
        }
        const all = ctx.state.eventStreams;
        let size = take;
        // Fault page-size-take-plus-one: one stream more than take.
        if (ctx.faults.has('page-size-take-plus-one')) size = take + 1;
        // Fault page-short-with-next: one stream less than take while more follow.
        if (ctx.faults.has('page-short-with-next')) size = Math.max(0, take - 1);
        const page = all.slice(start, start + size);
        const more = start + size < all.length;
        let cursorAt = page[page.length - 1];
        // Fault next-overlaps-one: next points before the last stream of the page.
        if (ctx.faults.has('next-overlaps-one') && page.length >= 2) cursorAt = page[page.length - 2];
        // Fault next-skips-one: next points past the first stream of the next page.
        if (ctx.faults.has('next-skips-one') && more) cursorAt = all[start + size];
        let next = more && cursorAt !== undefined ? encodeStreamCursor(cursorAt.id) : undefined;
        // Fault next-loops-on-last-page: the last page leads back to itself.
        if (!more && from !== undefined && ctx.faults.has('next-loops-on-last-page')) next = from;
        // The form of the last page is not shown: next "" on it, or next on every page with streams.
        if (next === undefined && ctx.variant === 'last-page-empty-next') next = '';
        if (next === undefined && ctx.variant === 'last-page-trailing-empty' && cursorAt !== undefined) next = encodeStreamCursor(cursorAt.id);
        const eventStreams = page.map((s) => render(ctx, s));
        // Faults event-streams-page2-*: only the second page is broken (a page cache keyed by the first cursor).
        if (from !== undefined && start === take && eventStreams.length > 0) {
          if (ctx.faults.has('event-streams-page2-wrong-shape')) eventStreams[0] = { ...eventStreams[0], subscriptions: 'user.created' };
          if (ctx.faults.has('event-streams-page2-repeats') && start > 0) eventStreams[0] = render(ctx, all[start - 1]!);
        }
        // Fault event-streams-list-snake-case: the documented member is eventStreams.
        if (ctx.faults.has('event-streams-list-snake-case')) return next === undefined ? { event_streams: eventStreams } : { event_streams: eventStreams, next };
        return next === undefined ? { eventStreams } : { eventStreams, next };
      },
    },
  ];
}
