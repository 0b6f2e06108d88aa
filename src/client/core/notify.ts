/**
 * Notices to a caller's callback (progress, retries, throttling, "still waiting"): what the
 * callback throws is dropped. A notice is for people; it must never fail the request it is about,
 * and one sent from a timer must never end the process (a throw in a timer is an uncaught
 * exception: in a plugin, a dead provider and machines it was creating left behind).
 */

/** Calls `callback` with `args`, if there is one; anything it throws is dropped. */
export function notify<A extends unknown[]>(callback: ((...args: A) => void) | undefined, ...args: A): void {
  if (callback === undefined) return;
  try {
    callback(...args);
  } catch {
    // Dropped: see the module comment.
  }
}
