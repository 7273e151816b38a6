/**
 * The WWW-Authenticate parser the 401 checks read challenges with
 * (harness/vocabulary/auth-checks.ts) follows RFC 9110's grammar (11.6.1,
 * 11.2): it reads every form the grammar allows and refuses what a client's
 * parser could not read.
 */
import { expect, test } from '@playwright/test';
import { parseChallenges } from '../../harness/vocabulary/auth-checks.ts';
import { admitsJsonArb } from '../../harness/vocabulary/partitions.ts';
import fc from 'fast-check';

test('should read every challenge form RFC 9110 allows', () => {
  const read: Array<[string, unknown]> = [
    ['Bearer', [{ scheme: 'Bearer', params: [] }]],
    ['Bearer error="invalid_token"', [{ scheme: 'Bearer', params: [['error', 'invalid_token']] }]],
    [
      'Bearer realm = "x" ,, scope=a',
      [
        {
          scheme: 'Bearer',
          params: [
            ['realm', 'x'],
            ['scope', 'a'],
          ],
        },
      ],
    ],
    ['Negotiate abc123==', [{ scheme: 'Negotiate', params: [], token68: 'abc123==' }]],
    [
      'Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"',
      [
        {
          scheme: 'Newauth',
          params: [
            ['realm', 'apps'],
            ['type', '1'],
            ['title', 'Login to "apps"'],
          ],
        },
        { scheme: 'Basic', params: [['realm', 'simple']] },
      ],
    ],
  ];
  for (const [value, challenges] of read) expect(parseChallenges(value), value).toEqual(challenges);
});

test('should refuse what no client can read as a challenge', () => {
  for (const value of [
    'Bearer realm=Management API, error="invalid_token"',
    'Bearer error="invalid_token',
    'Bearer realm="a", realm="b"',
    '"Bearer"',
    'Bearer error="a" b',
  ])
    expect(parseChallenges(value), value).toHaveProperty('error');
});

test('should draw Accept values that each name a JSON range with a weight above 0', () => {
  fc.assert(
    fc.property(admitsJsonArb(), (accept) => {
      const ranges = accept.split(',').map((r) => r.trim().toLowerCase());
      const json = ranges.filter((r) => /^(application\/json|application\/\*|\*\/\*)\s*(;|$)/.test(r));
      expect(json.length, accept).toBeGreaterThan(0);
      for (const r of json) expect(/;\s*q=0(\.0*)?$/.test(r), accept).toBe(false);
    }),
  );
});
