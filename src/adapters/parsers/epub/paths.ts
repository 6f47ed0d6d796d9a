/**
 * EPUB resource paths. Hrefs in the OPF, nav and NCX are URLs relative to the file that holds them (EPUB 3.3
 * §3.4 "URLs in the OCF abstract container"): percent-encoded, possibly with a fragment; ZIP entry names are the
 * decoded paths from the container root. `chapter%201.xhtml#sec2` in `OPS/toc.xhtml` → `OPS/chapter 1.xhtml`.
 */

/** The directory part of a container path, with a trailing slash (`OPS/package.opf` → `OPS/`, `a.opf` → ``). */
export function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i + 1);
}

/** Percent-decodes a URL path; a malformed escape (a literal `%` in a sloppy EPUB) leaves the input as is. */
export function percentDecode(s: string): string {
  if (!s.includes("%")) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Resolves `href` against `baseDir` into a container path: fragment and query dropped, percent-decoded (unless
 * `decode` is false), `.`/`..` segments applied. Null for remote URLs (`http:` …) and fragment-only hrefs.
 */
export function resolveHref(baseDir: string, href: string, decode = true): string | null {
  const trimmed = href.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return null;
  const path = trimmed.replace(/[#?].*$/s, "");
  if (!path) return null;
  const decoded = decode ? percentDecode(path) : path;
  const joined = decoded.startsWith("/") ? decoded.slice(1) : baseDir + decoded;
  const out: string[] = [];
  for (const seg of joined.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return out.join("/");
}
