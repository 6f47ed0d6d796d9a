/**
 * EPUB package reading: META-INF/container.xml → the package document (OPF) → metadata, manifest and spine.
 * Specs: EPUB 3.3 §4 "Open Container Format" (container.xml, encryption.xml) and §5 "Package document"; OPF 2.0.1
 * §2 for EPUB 2 (the same elements, plus `<spine toc="…">` naming the NCX).
 */
import { byLocalName, parseXml, textOf, type XmlElement } from "./xml.ts";
import { dirOf, resolveHref } from "./paths.ts";

/** A manifest item; `path` is the percent-decoded container path, `rawPath` the same without decoding. */
export interface ManifestItem {
  id: string;
  href: string;
  path: string | null;
  rawPath: string | null;
  mediaType: string;
  properties: string[];
}

/** A spine itemref in reading order; `item` is undefined when the manifest has no such id. */
export interface SpineItem {
  idref: string;
  linear: boolean;
  item: ManifestItem | undefined;
}

/** What the package document says. `version` is the package's `version` attribute ("2.0", "3.0", …). */
export interface PackageInfo {
  opfPath: string;
  version: string | null;
  title: string | null;
  creators: string[];
  language: string | null;
  /** dc:date as written (the publication date, OPF 2/3), or null. */
  date: string | null;
  manifest: Map<string, ManifestItem>;
  spine: SpineItem[];
  /** EPUB 3 navigation document (manifest item with property `nav`). */
  nav: ManifestItem | undefined;
  /** EPUB 2 NCX (`<spine toc>` or the NCX media type). */
  ncx: ManifestItem | undefined;
}

/** Path of the first rootfile in container.xml (EPUB 3.3 §4.2.6.3.1: the first one is the default rendition). */
export function rootfilePath(containerXml: string): string | null {
  const root = parseXml(containerXml);
  if (!root) return null;
  for (const rf of byLocalName(root, "rootfile")) {
    const full = rf.getAttribute("full-path");
    if (full) return resolveHref("", full);
  }
  return null;
}

function readManifest(root: XmlElement, baseDir: string): Map<string, ManifestItem> {
  const manifest = new Map<string, ManifestItem>();
  for (const el of byLocalName(root, "item")) {
    const id = el.getAttribute("id");
    const href = el.getAttribute("href");
    if (!id || href === null) continue;
    manifest.set(id, {
      id,
      href,
      path: resolveHref(baseDir, href),
      rawPath: resolveHref(baseDir, href, false),
      mediaType: (el.getAttribute("media-type") ?? "").trim().toLowerCase(),
      properties: (el.getAttribute("properties") ?? "").split(/\s+/).filter(Boolean),
    });
  }
  return manifest;
}

function readSpine(
  root: XmlElement,
  manifest: Map<string, ManifestItem>,
): { spine: SpineItem[]; tocId: string | null } {
  const spineEl = byLocalName(root, "spine")[0];
  const spine: SpineItem[] = [];
  if (!spineEl) return { spine, tocId: null };
  for (const ref of byLocalName(spineEl, "itemref")) {
    const idref = ref.getAttribute("idref") ?? "";
    spine.push({ idref, linear: (ref.getAttribute("linear") ?? "yes").trim() !== "no", item: manifest.get(idref) });
  }
  return { spine, tocId: spineEl.getAttribute("toc") };
}

/** Reads a package document at container path `opfPath`; null when it has no `<package>` element. */
export function readPackage(opfXml: string, opfPath: string): PackageInfo | null {
  const root = parseXml(opfXml);
  const pkg = root ? byLocalName(root, "package")[0] : undefined;
  if (!pkg) return null;
  const manifest = readManifest(pkg, dirOf(opfPath));
  const { spine, tocId } = readSpine(pkg, manifest);
  const meta = byLocalName(pkg, "metadata")[0] ?? pkg;
  const items = [...manifest.values()];
  return {
    opfPath,
    version: pkg.getAttribute("version"),
    title: textOf(byLocalName(meta, "title")[0]) || null,
    creators: byLocalName(meta, "creator")
      .map((el) => textOf(el))
      .filter(Boolean),
    language: textOf(byLocalName(meta, "language")[0]) || null,
    date: textOf(byLocalName(meta, "date")[0]) || null,
    manifest,
    spine,
    nav: items.find((i) => i.properties.includes("nav")),
    ncx: (tocId ? manifest.get(tocId) : undefined) ?? items.find((i) => i.mediaType === "application/x-dtbncx+xml"),
  };
}

/**
 * Container paths listed as encrypted in META-INF/encryption.xml (XML Encryption `CipherReference/@URI`,
 * relative to the container root). Font obfuscation lists only fonts; content documents listed here are DRM.
 */
export function encryptedPaths(encryptionXml: string): Set<string> {
  const out = new Set<string>();
  const root = parseXml(encryptionXml);
  if (!root) return out;
  for (const ref of byLocalName(root, "CipherReference")) {
    const path = resolveHref("", ref.getAttribute("URI") ?? "");
    if (path) out.add(path);
  }
  return out;
}
