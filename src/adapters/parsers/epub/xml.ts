/**
 * Small XML helpers over linkedom's XML parser for the EPUB package files (container.xml, OPF, NCX). linkedom
 * keeps qualified names (`dc:title`) without resolving namespaces, so elements are matched by local name: the
 * prefix a producer chose (`dc:`, `opf:`, none) does not matter.
 */
import { DOMParser } from "linkedom";

/** The element shape used here (linkedom's XML elements). */
export interface XmlElement {
  tagName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): ArrayLike<XmlElement>;
  parentNode: unknown;
}

/** Parses XML text (never throws: the parser is lenient); the document element, or null when there is none. */
export function parseXml(text: string): XmlElement | null {
  const doc = new DOMParser().parseFromString(text, "text/xml") as unknown as { documentElement: XmlElement | null };
  return doc.documentElement ?? null;
}

/** Local part of a qualified name (`dc:title` → `title`). */
export function localName(el: XmlElement): string {
  const n = el.tagName;
  const i = n.indexOf(":");
  return i < 0 ? n : n.slice(i + 1);
}

/** Descendants of `root` (and `root` itself) whose local name is `name`, in document order. */
export function byLocalName(root: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = localName(root) === name ? [root] : [];
  const all = root.querySelectorAll("*");
  for (let i = 0; i < all.length; i++) if (localName(all[i]) === name) found.push(all[i]);
  return found;
}

/** Whitespace-collapsed text content. */
export function textOf(el: XmlElement | undefined): string {
  return (el?.textContent ?? "").replace(/\s+/g, " ").trim();
}
