/**
 * Cross-confirmation arithmetic of memory_verify: which evidence is independent (sites), and how much a set of
 * independent sites raises an atom's confidence.
 *
 * Sites: an http(s) source counts as its registrable domain (tldts `getDomain`, Public Suffix List with its private
 * section, so `a.github.io` and `b.github.io` are two owners while `en.wikipedia.org` and `ru.wikipedia.org` are one);
 * an IP address or a host without a registrable domain (`localhost`, a bare intranet name) counts as the host
 * itself, so 127.0.0.1 and 127.0.0.2 are two sites. Any other source (a `file:` URL, the `text:sha256:` pseudo-URI
 * of raw text, a referenced URN) is its own site, keyed by document id.
 *
 * Confidence: a noisy-OR (Pearl, "Probabilistic Reasoning in Intelligent Systems", 1988, §4.3.2) of independent
 * causes: c' = 1 − (1 − prior) · Π_s (1 − authority_s · agreement_s) over the sites other than the atom's home site,
 * whose evidence the prior already reflects; never below the prior.
 *
 * Same fact, which verdict: a neighbour that states the atom's fact is a `duplicate` unless it brings a site that
 * the atom's own evidence lacks, then it `corroborates` ({@link sameFactVerdict}).
 */
import { parse } from "tldts";

/** A document that is evidence: its id, URI and prior trust in [0, 1]. */
export interface EvidenceDoc {
  docId: number;
  uri: string;
  authority: number;
}

/**
 * Site key of one evidence document: `web:<registrable domain or host>` for http(s); `local` for files and raw text
 * (all of them one site: copies on the user's own disk, or text pasted twice, cannot confirm each other); `doc:<id>`
 * for other identifiers (doi:, urn:, …), each its own source.
 */
export function siteOf(source: Pick<EvidenceDoc, "docId" | "uri">): string {
  let url: URL;
  try {
    url = new URL(source.uri);
  } catch {
    return `doc:${source.docId}`;
  }
  if (url.protocol === "file:" || url.protocol === "text:") return "local";
  if (url.protocol !== "http:" && url.protocol !== "https:") return `doc:${source.docId}`;
  const host = url.hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  if (!host) return `doc:${source.docId}`;
  const p = parse(host, { allowPrivateDomains: true });
  return `web:${!p.isIp && p.domain ? p.domain : host}`;
}

/** One independent site and its weight: the best `authority × agreement` of its documents, in [0, 1]. */
export interface SiteWeight {
  site: string;
  weight: number;
  /** Documents of this site among the evidence. */
  docIds: number[];
}

/** Evidence documents with how strongly each agrees with the atom (1 for its own citations, the cosine for a neighbour's). */
export interface WeightedSource extends EvidenceDoc {
  agreement: number;
}

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** Groups sources by site, each site weighted by its best document (pages of one site count once). */
export function siteWeights(sources: readonly WeightedSource[]): SiteWeight[] {
  const bySite = new Map<string, SiteWeight>();
  for (const s of sources) {
    const key = siteOf(s);
    const w = clamp01(s.authority) * clamp01(s.agreement);
    const cur = bySite.get(key);
    if (!cur) bySite.set(key, { site: key, weight: w, docIds: [s.docId] });
    else {
      cur.weight = Math.max(cur.weight, w);
      if (!cur.docIds.includes(s.docId)) cur.docIds.push(s.docId);
    }
  }
  return [...bySite.values()].sort((a, b) => a.site.localeCompare(b.site));
}

/**
 * Noisy-OR of the sites other than `homeSite` combined with `prior` (module doc); the result is in [prior, 1] and
 * equals the prior when no other site is given.
 */
export function confirmedConfidence(prior: number, sites: readonly SiteWeight[], homeSite: string | null): number {
  const p = clamp01(prior);
  let disbelief = 1 - p;
  for (const s of sites) if (s.site !== homeSite) disbelief *= 1 - s.weight;
  return Math.max(p, clamp01(1 - disbelief));
}

/** The home site of an atom: the site of its own document (`docId`), when that document is among its sources. */
export function homeSiteOf(docId: number | null, sources: readonly EvidenceDoc[]): string | null {
  const own = docId === null ? undefined : sources.find((s) => s.docId === docId);
  return own ? siteOf(own) : null;
}

/**
 * Whether a neighbour that states the same fact as the atom is a `duplicate` (it adds no independent evidence:
 * every site of its evidence is already the atom's, or either side has no evidence at all) or `corroborates` it
 * (it brings at least one site the atom's own evidence lacks). Applied to every judge's same-fact verdicts, since
 * an LLM judge cannot see sites.
 */
export function sameFactVerdict(
  atomSites: readonly string[],
  neighbourSites: readonly string[],
): "duplicate" | "corroborates" {
  if (atomSites.length === 0 || neighbourSites.length === 0) return "duplicate";
  const own = new Set(atomSites);
  return neighbourSites.some((s) => !own.has(s)) ? "corroborates" : "duplicate";
}
