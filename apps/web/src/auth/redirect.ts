import { defaultRedirect } from "../device";

/**
 * Where to go after signing in (SPEC 2): the URL-decoded `redirect` parameter when it is a path of
 * this site, otherwise '/' ('/tablet' on a tablet). Other origins are refused so a link cannot send
 * a user elsewhere after sign-in.
 */
export function redirectTarget(search: string, tablet = defaultRedirect("/") === "/tablet"): string {
  const raw = new URLSearchParams(search).get("redirect");
  let target = raw ?? "";
  try {
    if (/%[0-9a-f]{2}/i.test(target)) target = decodeURIComponent(target);
  } catch {
    target = "";
  }
  if (target.startsWith("/") && !target.startsWith("//") && !target.startsWith("/\\")) return target;
  return tablet ? "/tablet" : "/";
}
