/**
 * Chapter titles from the book's own table of contents: the EPUB 3 navigation document (EPUB 3.3 §7.4: the
 * `nav` element with `epub:type="toc"`, an `ol` of `a href` links) or the EPUB 2 NCX (DAISY Z39.86-2005 /
 * OPF 2.0.1 §2.4.1: `navMap/navPoint` with `navLabel/text` and `content/@src`). Links are resolved relative to
 * the TOC file, percent-decoded and stripped of fragments, so they match spine items' container paths; the first
 * entry pointing into a file names it (a later `#fragment` entry is a section inside that chapter).
 */
import { parseXhtml } from "./chapter.ts";
import { dirOf, resolveHref } from "./paths.ts";
import { byLocalName, parseXml, textOf } from "./xml.ts";

/** Titles from an EPUB 3 navigation document: container path → title. */
export function navTitles(bytes: Uint8Array, navPath: string): Map<string, string> {
  const titles = new Map<string, string>();
  const { document } = parseXhtml(bytes, navPath);
  const navs = Array.from(document.querySelectorAll("nav")) as unknown as Array<{
    getAttribute(n: string): string | null;
    querySelectorAll(s: string): ArrayLike<{ textContent: string | null; getAttribute(n: string): string | null }>;
  }>;
  const toc = navs.find((n) => /(^|\s)toc(\s|$)/.test(n.getAttribute("epub:type") ?? "")) ?? navs[0];
  if (!toc) return titles;
  const base = dirOf(navPath);
  const links = toc.querySelectorAll("a[href]");
  for (let i = 0; i < links.length; i++) {
    const path = resolveHref(base, links[i].getAttribute("href") ?? "");
    const label = (links[i].textContent ?? "").replace(/\s+/g, " ").trim();
    if (path && label && !titles.has(path)) titles.set(path, label);
  }
  return titles;
}

/** Titles from an EPUB 2 NCX: container path → title. */
export function ncxTitles(xml: string, ncxPath: string): Map<string, string> {
  const titles = new Map<string, string>();
  const root = parseXml(xml);
  if (!root) return titles;
  const base = dirOf(ncxPath);
  for (const point of byLocalName(root, "navPoint")) {
    const content = byLocalName(point, "content")[0];
    const label = textOf(byLocalName(byLocalName(point, "navLabel")[0] ?? point, "text")[0]);
    const path = content ? resolveHref(base, content.getAttribute("src") ?? "") : null;
    if (path && label && !titles.has(path)) titles.set(path, label);
  }
  return titles;
}
