/**
 * "All request and response bodies are JSON unless stated" (Endpoints),
 * error answers included: a refused request's body, when there is one, is
 * JSON with a JSON media type. The shape of error bodies is not shown.
 */
import { must } from './checks.ts';
import { isJsonMediaType, type Exchange } from './client.ts';

/** On a 4xx with a body: the body is JSON (any JSON media type). Call it after the check that the answer is a 4xx. */
export function mustBeJsonErrorBody(ex: Exchange): void {
  if (ex.status < 400 || ex.status >= 500 || ex.text.trim() === '') return;
  must('http.json-error-bodies', isJsonMediaType(ex.contentType) && ex.json !== undefined, {
    expected: 'a refused request\'s body in JSON, with a JSON media type',
    actual: `Content-Type ${ex.contentType || '(none)'}, body ${ex.json === undefined ? 'not JSON' : 'JSON'}`,
    exchange: ex,
  });
}

/** Bodies sent as application/json that are not JSON. */
export const MALFORMED_JSON_BODIES: readonly string[] = ['{"status": ', '{keys: []}', 'not json'];
