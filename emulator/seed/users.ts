/**
 * Users and their token sets: one user with several (nulls included, and one
 * expired set), one with one, one with none; and a well-formed id no user has.
 * Token sets are "active ones": issued and used before the start, expiring a
 * year after it, so they stay active whatever the calendar says.
 */
import type { TokenSet, User } from '../state.js';
import { ALNUM, at, DAY, HEX, iso, MINUTE, USER_CONNECTION, type Rng } from './shared.js';

export interface SeededUsers {
  users: Map<string, User>;
  tokenSets: Map<string, TokenSet[]>;
  many: User;
  one: User;
  none: User;
  unknownUserId: string;
}

export function seedUsers(rng: Rng, socialConnection: string, startMs: number): SeededUsers {
  const sinceStart = (minutes: number) => iso(startMs + minutes * MINUTE);
  const users = new Map<string, User>();
  const tokenSets = new Map<string, TokenSet[]>();
  const mkUser = (n: number): User => {
    const user_id = `auth0|${rng.chars(HEX, 24)}`;
    return {
      user_id,
      email: `user${n}@conformance.test`,
      email_verified: true,
      name: `Conformance User ${n}`,
      nickname: `user${n}`,
      identities: [{ connection: USER_CONNECTION, provider: 'auth0', user_id: user_id.slice(6), isSocial: false }],
      created_at: at(n),
      updated_at: at(n),
    };
  };
  const mkTokenSet = (k: number, nulls: boolean): TokenSet => ({
    id: `tset_${rng.chars(ALNUM, 16)}`,
    connection: socialConnection,
    scope: k % 2 === 0 ? 'openid profile email https://www.googleapis.com/auth/calendar.readonly' : 'openid email',
    expires_at: nulls ? null : iso(startMs + 365 * DAY + k * DAY),
    issued_at: sinceStart(-30 * 24 * 60 + k),
    last_used_at: nulls ? null : sinceStart(-60 + k),
  });
  const many = mkUser(1);
  const one = mkUser(2);
  const none = mkUser(3);
  for (const u of [many, one, none]) users.set(u.user_id, u);
  // One set of `many` expired a day before start: the listing returns the "active ones" only, so a target must leave it out.
  // Its id takes nothing from the seeded generator, so every other id of the seed stays as it was.
  const expired: TokenSet = {
    id: 'tset_expiredSeedSet0',
    connection: socialConnection,
    scope: 'openid email',
    expires_at: iso(startMs - DAY),
    issued_at: sinceStart(-40 * 24 * 60),
    last_used_at: sinceStart(-2 * 24 * 60),
  };
  tokenSets.set(many.user_id, [
    mkTokenSet(0, false),
    mkTokenSet(1, true),
    mkTokenSet(2, false),
    { ...mkTokenSet(3, false), last_used_at: null },
    expired,
  ]);
  tokenSets.set(one.user_id, [mkTokenSet(4, false)]);
  tokenSets.set(none.user_id, []);
  return { users, tokenSets, many, one, none, unknownUserId: `auth0|${'0'.repeat(24)}` };
}
