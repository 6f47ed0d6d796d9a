/**
 * Shared pieces of the text content the tools write for a model (tool.ts `render`): one-line cuts, numbered
 * citations `[n] title — locator (uri)`, atom lines `atom 12 · fact · verified — claim`, and the lines that say what
 * was left out and how to get it. Plain text and light Markdown only: no JSON keys, nulls or internal scores.
 */
import { formatLocator, type Locator } from "../domain/locator.ts";

/** `text` on one line (whitespace collapsed), cut at `max` characters (code units) with "…". */
export function oneLine(text: string, max: number): string {
  const t = text.replace(/\s+/g, " ").trim();
  if (t.length <= max) return t;
  let cut = t.slice(0, max - 1);
  // Never end on a lone high surrogate (half an emoji).
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** A citation as the tools carry it (schemas.ts `citation`); only uri is required. */
export interface CitationLike {
  doc_id?: number;
  uri: string;
  title?: string | null;
  /** A structured locator (schemas.ts `locator`) or one already formatted ("page 3, lines 1–11"). */
  locator?: Locator | string | null;
  quote?: string | null;
}

/** The locator as people read it ("page 3, lines 1–11"); "" when it says nothing. */
export function locatorText(loc: Locator | string | null | undefined): string {
  if (!loc) return "";
  return typeof loc === "string" ? loc : formatLocator(loc);
}

/**
 * One numbered source: `[n] title — locator (uri)`. A text given inline has a content-hash URI (text:sha256:…):
 * its title says all a reader can use, so the URI is left out then; without a title the URI stands for it.
 * `quoteChars` > 0 adds the quoted evidence on an indented second line, cut to that many characters.
 */
export function citationLine(c: CitationLike, n: number, quoteChars = 0): string {
  const where = locatorText(c.locator);
  const title = c.title ? oneLine(c.title, 120) : c.uri;
  const uri = c.title && !c.uri.startsWith("text:") ? ` (${c.uri})` : "";
  const head = `[${n}] ${title}${where ? ` — ${where}` : ""}${uri}`;
  const quote = quoteChars > 0 && c.quote ? `\n    “${oneLine(c.quote, quoteChars)}”` : "";
  return head + quote;
}

/**
 * Numbers citations across a whole answer: the same document and locator get the same number. `ref` returns the
 * number of a citation (adding it when new); `lines` renders the sources in number order.
 */
export class Sources {
  private readonly byKey = new Map<string, number>();
  private readonly list: CitationLike[] = [];

  /** The number of `c`, added as the next one when not yet cited. */
  ref(c: CitationLike): number {
    const key = `${c.doc_id ?? c.uri}\u0000${locatorText(c.locator)}`;
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    this.list.push(c);
    this.byKey.set(key, this.list.length);
    return this.list.length;
  }

  /** How many distinct sources were cited. */
  get size(): number {
    return this.list.length;
  }

  /** `Sources:` and one {@link citationLine} per source; "" when none. */
  block(quoteChars = 0): string {
    if (this.list.length === 0) return "";
    return `Sources:\n${this.list.map((c, i) => citationLine(c, i + 1, quoteChars)).join("\n")}`;
  }
}

/** `[1][3]` for citation numbers; "" for none. */
export function refs(numbers: readonly number[]): string {
  return numbers.map((n) => `[${n}]`).join("");
}

/** An atom as a line: `atom 12 · fact · verified — claim` (claim cut to `claimChars`). */
export function atomLine(
  a: { atom_id: number; type?: string | null; status?: string | null; claim?: string | null },
  claimChars = 200,
): string {
  const marks = [`atom ${a.atom_id}`, a.type, a.status].filter((x): x is string => !!x);
  return `${marks.join(" · ")}${a.claim ? ` — ${oneLine(a.claim, claimChars)}` : ""}`;
}

/**
 * The line saying what a list left out and how to get it, or "" when nothing was: `shown` of `total` listed;
 * `how` names the call that gets more ("call memory_get with links_offset 10").
 */
export function moreLine(what: string, shown: number, total: number, how: string): string {
  if (total <= shown) return "";
  return `${total - shown} more ${what} not shown (${shown} of ${total}): ${how}.`;
}

/** `key n` pairs of a count record, largest first: "fact 30, text 12"; "none" when empty. */
export function countsText(counts: Record<string, number> | null | undefined): string {
  const e = Object.entries(counts ?? {}).filter(([, n]) => n > 0);
  if (e.length === 0) return "none";
  return e
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
}

/** Joins the non-empty parts of an answer with newlines (blocks separated by a blank line when `gap`). */
export function lines(parts: ReadonlyArray<string | null | undefined | false>, gap = false): string {
  return parts.filter((p): p is string => typeof p === "string" && p.length > 0).join(gap ? "\n\n" : "\n");
}

/** The date part of an ISO 8601 time ("2026-12-02"), or the text as given when it is not one. */
export function day(iso: string | null | undefined): string {
  if (!iso) return "";
  const m = /^\d{4}-\d{2}-\d{2}/.exec(iso);
  return m ? m[0] : iso;
}

/**
 * `o` without its null fields (top level only): output schemas say "absent" rather than a `null` union, which
 * stricter clients refuse and every reader pays for.
 */
export function withoutNulls<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null)) as Partial<T>;
}

/** An event time as memory_get gives it: [start, end) ISO 8601 UTC, and its precision. */
export interface EventLike {
  start: string;
  end: string;
  granularity: string;
}

/**
 * An event time in few tokens, at its precision: "2024-03-05", "2024-03", "2024", "week of 2024-03-04", an instant
 * as "2024-03-05 14:30Z"; a range of several days or months (a weekend, a season) by its first and last:
 * "2024-03-09..2024-03-10", "2024-06..2024-08". The end is exclusive in the data and inclusive here.
 */
export function eventLabel(e: EventLike): string {
  const last = new Date(Date.parse(e.end) - 1).toISOString();
  const span = (n: number) =>
    e.start.slice(0, n) === last.slice(0, n) ? e.start.slice(0, n) : `${e.start.slice(0, n)}..${last.slice(0, n)}`;
  if (e.granularity === "instant") return `${e.start.slice(0, 16).replace("T", " ")}Z`;
  if (e.granularity === "week") return `week of ${e.start.slice(0, 10)}`;
  if (e.granularity === "year") return span(4);
  return e.granularity === "day" ? span(10) : span(7);
}

/** When a source said it: the day, with the time of day when it is not midnight UTC ("2023-05-08 13:56Z"). */
export function observedLabel(iso: string): string {
  return iso.slice(11, 16) === "00:00" ? iso.slice(0, 10) : `${iso.slice(0, 16).replace("T", " ")}Z`;
}
