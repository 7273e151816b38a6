/**
 * The error catalogue: every code has a 4xx/5xx status and a message, and
 * every error body has the documented four members.
 */
import { expect, test } from '@playwright/test';
import { ApiError, errorCatalogue, toApiError, type ErrorCode } from '../../emulator/errors.js';
import { body, harness } from './helpers.js';

test.describe('error catalogue', () => {
  for (const [code, entry] of Object.entries(errorCatalogue)) {
    test(`${code} renders as { statusCode, error, message, errorCode } with status ${entry.statusCode}`, () => {
      const e = new ApiError(code as ErrorCode);
      expect(e.toBody()).toEqual({
        statusCode: entry.statusCode,
        error: expect.any(String),
        message: entry.message,
        errorCode: code,
      });
      expect(entry.statusCode).toBeGreaterThanOrEqual(400);
    });
  }

  test('should map fastify parser errors onto the catalogue', () => {
    expect(toApiError({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }).errorCode).toBe(
      'unsupported_media_type',
    );
    expect(toApiError({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }).errorCode).toBe('payload_too_large');
    expect(toApiError({ code: 'FST_ERR_CTP_EMPTY_JSON_BODY', statusCode: 400 }).errorCode).toBe('invalid_json');
    expect(toApiError(Object.assign(new SyntaxError('x'), { statusCode: 400 })).errorCode).toBe('invalid_json');
    expect(toApiError({ statusCode: 408 }).errorCode).toBe('bad_request');
    expect(toApiError(new Error('boom')).errorCode).toBe('internal_error');
  });

  test('should answer unknown paths with 404 not_found and wrong methods with 405 method_not_allowed', async () => {
    const h = await harness();
    try {
      const unknown = await h.api('GET', '/no-such-area');
      expect(unknown.statusCode).toBe(404);
      expect(body(unknown)).toMatchObject({ statusCode: 404, error: 'Not Found', errorCode: 'not_found' });
      for (const method of ['DELETE', 'PUT', 'PATCH', 'POST', 'HEAD', 'OPTIONS'] as const) {
        const res = await h.api(method, '/client-grants/abc');
        expect(res.statusCode, method).toBe(405);
        expect(res.headers['allow']).toBe('GET');
        if (method !== 'HEAD') expect(body(res)['errorCode']).toBe('method_not_allowed');
      }
      const outside = await h.app.inject({ method: 'GET', url: '/elsewhere' });
      expect(outside.statusCode).toBe(404);
      expect(body(outside)['errorCode']).toBe('not_found');
    } finally {
      await h.close();
    }
  });
});
