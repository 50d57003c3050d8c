/**
 * True on an iPad, phone or tablet (SPEC 2: a redirect with no target goes to /tablet there).
 * iPadOS reports a desktop Safari user agent, so a touch-capable "Macintosh" counts as an iPad.
 */
export function isTabletDevice(
  userAgent: string = navigator.userAgent,
  maxTouchPoints: number = navigator.maxTouchPoints,
): boolean {
  if (
    /iPad|iPhone|iPod|Android|Mobile|Tablet|Silk|Kindle|PlayBook|BlackBerry|webOS|Opera Mini/i.test(userAgent)
  ) {
    return true;
  }
  return /Macintosh/.test(userAgent) && maxTouchPoints > 1;
}

/** Where a redirect with no target goes: /tablet on a tablet, else `fallback`. */
export function defaultRedirect(fallback = "/"): string {
  return isTabletDevice() ? "/tablet" : fallback;
}
