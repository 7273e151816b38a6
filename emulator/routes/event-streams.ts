/**
 * Endpoints 5 and 6: GET /event-streams/{id} and GET /event-streams.
 *
 * - id of a length other than 26 → 400 `invalid_uri`; unknown → 404.
 * - take: integer 1..100 (default 50), anything else → 400 `invalid_query_string`.
 * - from: the opaque `next` of the previous page (base64url of `es1:<last id>`);
 *   anything else → 400 `invalid_cursor`.
 * - The answer is `{ eventStreams, next }`; `next` is present only when more
 *   streams remain, so the last page has no `next`.
 */
import type { EmulatorContext } from '../context.js';
import { apiError } from '../errors.js';
import { codePoints, param, singleQuery, type RouteDef, operationRoute } from './shared.js';

export const EVENT_STREAM_ID_LENGTH = 26;
export const TAKE_MIN = 1;
export const TAKE_MAX = 100;
export const TAKE_DEFAULT = 50;

const CURSOR_PREFIX = 'es1:';

export function encodeStreamCursor(lastId: string): string {
  return Buffer.from(CURSOR_PREFIX + lastId).toString('base64url');
}

/**
 * The index of the stream a cursor names, or undefined. Only the canonical spelling of a cursor this service
 * gives is one: encoded back, it is the text sent (so no other prefix, character or padding gets through).
 */
function decodeStreamCursor(ctx: EmulatorContext, cursor: string): number | undefined {
  const id = Buffer.from(cursor, 'base64url').toString('utf8').slice(CURSOR_PREFIX.length);
  if (encodeStreamCursor(id) !== cursor) return undefined;
  return ctx.state.eventStreamIndexOf(id);
}

function parseTake(ctx: EmulatorContext, raw: string | undefined, from: string | undefined): number {
  const take = ctx.deviations.takeBounds({ min: TAKE_MIN, max: TAKE_MAX, default: TAKE_DEFAULT }, from);
  if (raw === undefined) return take.default;
  // Canonical decimal only: no sign, no leading zero, no exponent.
  const n = ctx.deviations.takeValue(raw);
  if (!Number.isInteger(n) || n < take.min || n > take.max)
    throw apiError('invalid_query_string', `take must be an integer from ${TAKE_MIN} to ${TAKE_MAX}`);
  return n;
}

export function eventStreamRoutes(ctx: EmulatorContext): RouteDef[] {
  return [
    {
      ...operationRoute('event-streams.get'),
      handler: (request) => {
        const id = param(request, 'id');
        if (codePoints(id) !== EVENT_STREAM_ID_LENGTH)
          throw apiError('invalid_uri', `Path parameter id must be exactly ${EVENT_STREAM_ID_LENGTH} characters`);
        const i = ctx.state.eventStreamIndexOf(ctx.deviations.eventStreamIdOf(id, ctx.state.eventStreams));
        if (i === undefined) throw apiError('inexistent_event_stream');
        return ctx.state.eventStreams[i];
      },
    },
    {
      ...operationRoute('event-streams.list'),
      handler: (request) => {
        const fromParameter = singleQuery(request, 'from');
        const take = parseTake(ctx, singleQuery(request, 'take'), fromParameter);
        const all = ctx.state.eventStreams;
        const from = ctx.deviations.listCursorOf(ctx.deviations.listCursorIn(fromParameter, request.url), all);
        let start = 0;
        let cursor: number | undefined;
        const paged = ctx.deviations.pageNumberStart(from, take);
        if (paged !== undefined) start = paged;
        else if (from !== undefined) {
          const i = decodeStreamCursor(ctx, from);
          if (i === undefined) throw apiError('invalid_cursor', 'from is not a cursor this service returned');
          cursor = i;
          start = ctx.deviations.pageStart(i + 1, take, TAKE_DEFAULT);
        }
        const size = ctx.deviations.pageSize(ctx.deviations.takeOfPage(take, from));
        // The stored streams themselves: serialised as they are, no copy per item.
        const { page: eventStreams, more } = ctx.deviations.pageOfStreams(all, start, size, cursor);
        const last = eventStreams[eventStreams.length - 1];
        const next = ctx.deviations.nextCursor(
          more && last !== undefined ? encodeStreamCursor(last.id) : undefined,
          start,
          size,
          all,
          from,
        );
        return ctx.deviations.listPage(from, next === undefined ? { eventStreams } : { eventStreams, next });
      },
    },
  ];
}
