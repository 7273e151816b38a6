/**
 * A small checker for the bodies of the management routes (users,
 * organizations, connections), whose shapes no schema of schemas/ covers:
 * known members with a type and optional bounds; unknown members → 400.
 */
import { apiError } from '../errors.js';
import { isPlainObject } from './shared.js';

export type FieldType = 'string' | 'boolean' | 'object' | 'string[]';

export interface FieldSpec {
  type: FieldType;
  required?: boolean;
  min?: number;
  max?: number;
  pattern?: RegExp;
}

function typeOk(v: unknown, t: FieldType): boolean {
  switch (t) {
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    case 'object':
      return isPlainObject(v);
    case 'string[]':
      return Array.isArray(v) && v.every((x) => typeof x === 'string');
  }
}

/** The body as a checked record; throws 400 `invalid_body` naming the first problem. */
export function checkFields(
  body: unknown,
  spec: Readonly<Record<string, FieldSpec>>,
  atLeastOne = false,
): Record<string, unknown> {
  if (!isPlainObject(body)) throw apiError('invalid_body', 'Payload validation error: the body must be a JSON object');
  for (const key of Object.keys(body)) {
    if (!Object.hasOwn(spec, key))
      throw apiError('invalid_body', `Payload validation error: additional property ${key} is not allowed`);
  }
  for (const [key, f] of Object.entries(spec)) {
    const v = body[key];
    if (v === undefined) {
      if (f.required) throw apiError('invalid_body', `Payload validation error: missing required property ${key}`);
      continue;
    }
    if (!typeOk(v, f.type))
      throw apiError('invalid_body', `Payload validation error: ${key} must be of type ${f.type}`);
    if (typeof v === 'string') {
      if (f.min !== undefined && v.length < f.min)
        throw apiError('invalid_body', `Payload validation error: ${key} must be at least ${f.min} characters`);
      if (f.max !== undefined && v.length > f.max)
        throw apiError('invalid_body', `Payload validation error: ${key} must be at most ${f.max} characters`);
      if (f.pattern !== undefined && !f.pattern.test(v))
        throw apiError('invalid_body', `Payload validation error: ${key} has an invalid format`);
    }
  }
  if (atLeastOne && Object.keys(body).length === 0)
    throw apiError('invalid_body', 'Payload validation error: at least one property is required');
  return body;
}
