import { AppError } from "../errors.js";
import type { LoginThrottle } from "./login-throttle.js";

/** 429 with `Retry-After`: the account is held back at this address for that many seconds. */
export const tooManyAttempts = (retryAfterSeconds: number) =>
  new AppError(429, "RATE_LIMITED", "Too many attempts. Please wait a moment and try again.", {
    headers: { "Retry-After": String(retryAfterSeconds) },
  });

/**
 * Runs a password or code check under the sign-in throttle: refused with 429 while the account is held
 * back at this address, counted as a failure when `check` answers false or throws, and clearing the
 * pair's count when it answers true. Answers what `check` answered.
 */
export async function throttled(
  throttle: LoginThrottle,
  account: string,
  address: string,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const verdict = await throttle.check(account, address);
  if (verdict.blocked) throw tooManyAttempts(verdict.retryAfterSeconds);
  let ok = false;
  try {
    ok = await check();
  } finally {
    if (ok) await throttle.recordSuccess(account, address);
    else await throttle.recordFailure(account, address);
  }
  return ok;
}
