/**
 * Document metadata a web page declares about itself, read before extraction (Readability strips scripts, and
 * JSON-LD lives in scripts): Open Graph / `article:*` meta (ogp.me), schema.org JSON-LD and microdata
 * (`datePublished`, `author`, `publisher`), microformats (`dt-published`, hAtom `published`), Dublin Core and
 * Highwire `citation_*` meta. Readability reads some of
 * these too; these values fill the gaps it leaves (e.g. JSON-LD in a `@graph`, microdata, citation meta).
 */

/** What the page says about itself; every field null when absent. */
export interface PageMeta {
  title: string | null;
  byline: string | null;
  siteName: string | null;
  published: string | null;
  /** When the page says it was last changed (article:modified_time, schema.org dateModified), as written. */
  modified: string | null;
  lang: string | null;
}

/** Element/document shapes used here (linkedom). */
interface El {
  textContent: string | null;
  getAttribute(name: string): string | null;
}
interface Doc {
  title?: string;
  documentElement: El | null;
  querySelector(sel: string): El | null;
  querySelectorAll(sel: string): ArrayLike<El>;
}

/** Meta selectors for the publication date, most specific first. */
const PUBLISHED_META = [
  'meta[property="article:published_time"]',
  'meta[name="article:published_time"]',
  'meta[itemprop="datePublished"]',
  'meta[name="citation_publication_date"]',
  'meta[name="citation_date"]',
  'meta[name="dcterms.issued"]',
  'meta[name="DC.date.issued"]',
  'meta[name="dc.date"]',
  'meta[name="date"]',
];

function clean(s: string | null | undefined): string | null {
  const t = (s ?? "").replace(/\s+/g, " ").trim();
  return t || null;
}

function metaContent(doc: Doc, selectors: string[]): string | null {
  for (const sel of selectors) {
    const v = clean(doc.querySelector(sel)?.getAttribute("content"));
    if (v) return v;
  }
  return null;
}

/** Parsed JSON-LD blocks (malformed ones are skipped: pages ship broken JSON-LD often). */
function jsonLd(doc: Doc): unknown[] {
  const out: unknown[] = [];
  const scripts = doc.querySelectorAll('script[type="application/ld+json"]');
  for (let i = 0; i < scripts.length; i++) {
    try {
      out.push(JSON.parse(scripts[i].textContent ?? ""));
    } catch {
      // ignored: not metadata we can use
    }
  }
  return out;
}

/** First value of `key` anywhere in the JSON-LD graphs (breadth-first, bounded), as text or a `name`. */
function findLd(roots: unknown[], key: string): string | null {
  const queue = [...roots];
  for (let seen = 0; queue.length && seen < 2000; seen++) {
    const node = queue.shift();
    if (Array.isArray(node)) queue.push(...node);
    else if (node && typeof node === "object") {
      const v = (node as Record<string, unknown>)[key];
      if (typeof v === "string" && clean(v)) return clean(v);
      const first = Array.isArray(v) ? v[0] : v;
      if (first && typeof first === "object" && typeof (first as { name?: unknown }).name === "string") {
        return clean((first as { name: string }).name);
      }
      queue.push(...Object.values(node));
    }
  }
  return null;
}

/** Reads {@link PageMeta} from a parsed page (call before anything mutates the DOM). */
export function readPageMeta(doc: Doc): PageMeta {
  const ld = jsonLd(doc);
  // schema.org microdata, then microformats (h-entry `dt-published`, hAtom `published`, as WordPress themes emit).
  const timeEl = doc.querySelector('time[itemprop="datePublished"], time.dt-published, time.published');
  return {
    title: clean(doc.title) ?? metaContent(doc, ['meta[property="og:title"]']),
    byline: metaContent(doc, ['meta[name="author"]', 'meta[name="citation_author"]']) ?? findLd(ld, "author"),
    siteName: metaContent(doc, ['meta[property="og:site_name"]']) ?? findLd(ld, "publisher"),
    published:
      metaContent(doc, PUBLISHED_META) ??
      findLd(ld, "datePublished") ??
      clean(timeEl?.getAttribute("datetime") ?? timeEl?.textContent),
    modified:
      metaContent(doc, [
        'meta[property="article:modified_time"]',
        'meta[itemprop="dateModified"]',
        'meta[property="og:updated_time"]',
        'meta[name="last-modified"]',
      ]) ?? findLd(ld, "dateModified"),
    lang:
      clean(doc.documentElement?.getAttribute("lang")) ?? metaContent(doc, ['meta[http-equiv="content-language" i]']),
  };
}
