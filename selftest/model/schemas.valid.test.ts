/**
 * Every schema accepts every value of the shape the document describes
 * (arbitraries in selftest/model/arbitraries.ts), and every documented enum
 * value, one by one.
 */
import { expect, test } from '@playwright/test';
import { schemaNames, validate, formatErrors, type SchemaName } from '../../schemas/index.ts';
import { validValues } from './arbitraries.ts';
import { assertAccepts } from './check.ts';
import {
  ALLOCATION_STRATEGIES,
  DEFAULT_FOR,
  EVENT_STREAM_STATUSES,
  EVENT_TYPES,
  EXPERIMENT_STATUSES,
  ORGANIZATION_USAGES,
  SUBJECT_TYPES,
  TRANSITION_TARGETS,
} from './document.ts';

for (const name of Object.keys(schemaNames) as SchemaName[]) {
  test(`${name}: accepts every value of the documented shape`, () => {
    assertAccepts<unknown>(name, validValues[name], 100);
  });
}

/** Minimal valid bodies to put one enum value in. */
const experiment = {
  id: 'exp_abc',
  name: 'n',
  feature_flag_id: 'f',
  authentication_flow: 'a',
  allocation_strategy: 'percentage',
  assignment_config: { subject: 'device' },
  status: 'draft',
  is_valid: true,
  allocations: [],
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
};
const documentedEnums: {
  title: string;
  schema: SchemaName;
  values: readonly string[];
  body: (v: string) => unknown;
}[] = [
  {
    title: 'experiment status',
    schema: 'experiment',
    values: EXPERIMENT_STATUSES,
    body: (status) => ({ ...experiment, status }),
  },
  {
    title: 'experiment allocation_strategy',
    schema: 'experiment',
    values: ALLOCATION_STRATEGIES,
    body: (allocation_strategy) => ({ ...experiment, allocation_strategy }),
  },
  {
    title: 'transition target status',
    schema: 'experiment-transition-request',
    values: TRANSITION_TARGETS,
    body: (status) => ({ status }),
  },
  {
    title: 'client grant organization_usage',
    schema: 'client-grant',
    values: ORGANIZATION_USAGES,
    body: (organization_usage) => ({ organization_usage }),
  },
  {
    title: 'client grant default_for',
    schema: 'client-grant',
    values: DEFAULT_FOR,
    body: (default_for) => ({ default_for }),
  },
  {
    title: 'client grant subject_type',
    schema: 'client-grant',
    values: SUBJECT_TYPES,
    body: (subject_type) => ({ subject_type }),
  },
  {
    title: 'event stream status',
    schema: 'event-stream',
    values: EVENT_STREAM_STATUSES,
    body: (status) => ({ status }),
  },
  { title: 'event type', schema: 'event-type', values: EVENT_TYPES, body: (t) => t },
];
for (const e of documentedEnums) {
  test(`${e.schema}: every documented ${e.title} (${e.values.length}) is accepted`, () => {
    for (const v of e.values) {
      const r = validate(e.schema, e.body(v));
      expect(r.valid, `${e.title} ${v}: ${formatErrors(r.errors)}`).toBe(true);
    }
  });
}
