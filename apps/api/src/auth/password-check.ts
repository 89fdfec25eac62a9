import { authenticatePassword, credentialKey, type Em, type IUser, perConnection } from '@trackline/domain';
import type { LoginThrottle } from './resolve-actor.js';

/** A password check's outcome: the user, null for a wrong password, or seconds to wait (not checked). */
export type PasswordOutcome = { user: IUser | null } | { retryAfter: number };

/** The throttle a check runs under, with the client's address. */
export type ThrottleFor = { throttle: LoginThrottle; ip: string };

/**
 * Checks of one credential in flight at once, per database (a user id means something only in
 * its own database): keyed by the digest of the exact `login:password`, never the password.
 */
const flightsOf = perConnection(() => new Map<string, Promise<PasswordOutcome>>());

/**
 * Checks `login`'s password under the login throttle, sharing one verification between the
 * checks of the same credential that overlap (single flight): 16 parallel requests with the right
 * password reserve one attempt and run scrypt once, instead of taking 16 attempts of a limit of
 * 10 and locking their own user out. The one check reserves its attempt before scrypt, so
 * distinct guesses in parallel are still all counted; a success gives it back (the login's count
 * restarts), so only failed verifications count. `onSuccess` runs before the flight lands, so
 * a request arriving just after finds what it remembers (the verified Basic pair). Across hosts
 * (each with its own flights), a check refused at the limit waits for the login's checks in
 * progress elsewhere, one of which may restart the count (`reserve` in limits.ts).
 */
export function checkPasswordOnce(
  em: Em,
  login: string,
  password: string,
  limit: ThrottleFor | undefined,
  onSuccess?: (user: IUser) => void,
): Promise<PasswordOutcome> {
  const key = credentialKey('basic', `${login}\u0000${password}`);
  const flights = flightsOf(em);
  const pending = flights.get(key);
  if (pending) return pending;
  const flight = (async (): Promise<PasswordOutcome> => {
    if (limit) {
      const wait = await limit.throttle.reserve(login, limit.ip);
      if (wait > 0) return { retryAfter: wait };
    }
    try {
      const user = await authenticatePassword(em, login, password);
      if (!user) return { user: null };
      if (limit) await limit.throttle.succeeded(login, limit.ip);
      onSuccess?.(user);
      return { user };
    } finally {
      // Checks refused meanwhile at the login's limit wait for this one (`reserve`).
      if (limit) await limit.throttle.ended(login);
    }
  })().finally(() => flights.delete(key));
  flights.set(key, flight);
  return flight;
}
