/**
 * Endpoints 2: POST /experimentation/experiments/{id}/status, and the
 * emulator's transition table (emulator/routes/experiments.ts).
 */
import { expect, test } from '@playwright/test';
import { formatErrors, validate } from '../../schemas/index.js';
import { TRANSITIONS } from '../../emulator/routes/experiments.js';
import { experimentStatuses, type ExperimentStatus } from '../../emulator/state.js';
import { body, harnessPerFile } from './helpers.js';

const h = harnessPerFile();

const TARGETS = ['active', 'paused', 'completed', 'archived'] as const;

/** Moves a fresh draft fixture along `path` (each step must succeed). */
async function experimentIn(status: ExperimentStatus, index: number): Promise<string> {
  const id = h.app.emulator.state.fixtures.experimentIds[index]!;
  const path: Record<ExperimentStatus, ExperimentStatus[]> = {
    draft: [],
    active: ['active'],
    paused: ['active', 'paused'],
    completed: ['active', 'completed'],
    archived: ['active', 'archived'],
  };
  for (const s of path[status]) {
    const res = await h.api('POST', `/experimentation/experiments/${id}/status`, { body: { status: s } });
    expect(res.statusCode, res.body).toBe(200);
  }
  return id;
}

test.describe('experiment transitions @experiments', () => {
  test('should seed at least 12 draft fixtures and one experiment in each other state', () => {
    const s = h.app.emulator.state;
    expect(s.fixtures.experimentIds.length).toBeGreaterThanOrEqual(12);
    for (const id of s.fixtures.experimentIds) expect(s.experiments.get(id)!.status).toBe('draft');
    const statuses = new Set([...s.experiments.values()].map((e) => e.status));
    for (const st of experimentStatuses) expect(statuses.has(st)).toBe(true);
    for (const e of s.experiments.values()) {
      const r = validate('experiment', e);
      expect(r.valid, formatErrors(r.errors)).toBe(true);
    }
  });

  // Every (source, target) pair: allowed moves answer 200 with the experiment, others 409 with no change.
  let index = 0;
  for (const from of experimentStatuses) {
    for (const to of TARGETS) {
      const allowed = TRANSITIONS[from].includes(to);
      const i = index++ % 12;
      test(`should ${allowed ? 'move' : 'refuse to move (409)'} ${from} → ${to}`, async () => {
        const id = await experimentIn(from, i);
        const before = structuredClone(h.app.emulator.state.experiments.get(id)!);
        const res = await h.api('POST', `/experimentation/experiments/${id}/status`, { body: { status: to } });
        if (allowed) {
          expect(res.statusCode).toBe(200);
          const e = res.json() as { status: string; updated_at: string; started_at?: string; ended_at?: string };
          const r = validate('experiment', e);
          expect(r.valid, formatErrors(r.errors)).toBe(true);
          expect(e.status).toBe(to);
          expect(Date.parse(e.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
          if (to === 'active') expect(e.started_at).toBeDefined();
          if (to === 'completed') expect(e.ended_at).toBeDefined();
          if (to === 'paused') expect(e.ended_at).toBeUndefined();
          if (before.started_at) expect(e.started_at).toBe(before.started_at);
        } else {
          expect(res.statusCode).toBe(409);
          expect(body(res)['errorCode']).toBe('invalid_transition');
          expect(h.app.emulator.state.experiments.get(id)).toEqual(before);
        }
      });
    }
  }

  const badBodies: [string, unknown, string?][] = [
    ['no body', undefined],
    ['an empty object', {}],
    ['status draft', { status: 'draft' }],
    ['an unknown status', { status: 'running' }],
    ['a non-string status', { status: 1 }],
    ['an array', [{ status: 'active' }]],
    ['null', null],
    ['a JSON string', 'active'],
  ];
  for (const [name, b] of badBodies) {
    test(`should answer 400 invalid_body to ${name} and change nothing`, async () => {
      const id = h.app.emulator.state.fixtures.experimentIds[0]!;
      const res = await h.api(
        'POST',
        `/experimentation/experiments/${id}/status`,
        b === undefined ? {} : { rawBody: JSON.stringify(b) },
      );
      expect(res.statusCode, res.body).toBe(400);
      expect(['invalid_body', 'invalid_json']).toContain(body(res)['errorCode']);
      expect(h.app.emulator.state.experiments.get(id)!.status).toBe('draft');
    });
  }

  test('should answer 400 to malformed JSON and 415 to a form body', async () => {
    const id = h.app.emulator.state.fixtures.experimentIds[0]!;
    const bad = await h.api('POST', `/experimentation/experiments/${id}/status`, { rawBody: '{"status":' });
    expect(bad.statusCode).toBe(400);
    expect(body(bad)['errorCode']).toBe('invalid_json');
    const form = await h.api('POST', `/experimentation/experiments/${id}/status`, {
      rawBody: 'status=active',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(form.statusCode).toBe(415);
    expect(body(form)['errorCode']).toBe('unsupported_media_type');
    expect(h.app.emulator.state.experiments.get(id)!.status).toBe('draft');
  });

  test('should answer 404 inexistent_experiment for an unknown id', async () => {
    const res = await h.api('POST', '/experimentation/experiments/exp_unknown1/status', { body: { status: 'active' } });
    expect(res.statusCode).toBe(404);
    expect(body(res)['errorCode']).toBe('inexistent_experiment');
  });
});
