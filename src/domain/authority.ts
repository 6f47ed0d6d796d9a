/**
 * Source authority: a prior in [0, 1] of how much a document is to be trusted, from rules on its kind and domain
 * (peer-reviewed paper > official documentation > encyclopedia > blog > snippet), stored on the document for
 * verification to weigh. The first matching rule wins; configured rules come before these.
 */

/** A rule; every given field must match. `domain` matches the host or any parent domain. */
export interface AuthorityRule {
  kind?: "web" | "pdf" | "epub" | "text" | "code_repo";
  domain?: string;
  snippet?: boolean;
  authority: number;
}

const rules = (authority: number, domains: string[], kind?: AuthorityRule["kind"]): AuthorityRule[] =>
  domains.map((domain) => ({ domain, authority, kind }));

/** Built-in rules, most specific first. */
export const DEFAULT_AUTHORITY_RULES: readonly AuthorityRule[] = [
  { snippet: true, authority: 0.3 },
  ...rules(0.9, [
    "doi.org",
    "ncbi.nlm.nih.gov",
    "nature.com",
    "science.org",
    "sciencedirect.com",
    "springer.com",
    "wiley.com",
    "plos.org",
    "mdpi.com",
    "acm.org",
    "ieee.org",
    "jstor.org",
    "thelancet.com",
    "nejm.org",
    "bmj.com",
    "elibrary.ru",
    "cyberleninka.ru",
  ]),
  ...rules(0.75, ["arxiv.org", "biorxiv.org", "medrxiv.org", "ssrn.com"]),
  ...rules(0.8, [
    "gov",
    "edu",
    "gov.ru",
    "w3.org",
    "ietf.org",
    "rfc-editor.org",
    "python.org",
    "developer.mozilla.org",
    "docs.docker.com",
    "docs.python.org",
    "learn.microsoft.com",
    "docs.oracle.com",
    "postgresql.org",
    "v8.dev",
  ]),
  ...rules(0.7, ["wikipedia.org", "britannica.com", "wikimedia.org"]),
  ...rules(0.5, [
    "medium.com",
    "substack.com",
    "blogspot.com",
    "wordpress.com",
    "habr.com",
    "dev.to",
    "livejournal.com",
  ]),
  { kind: "pdf", authority: 0.8 },
  { kind: "epub", authority: 0.7 },
  { kind: "code_repo", authority: 0.7 },
  { kind: "web", authority: 0.5 },
  { kind: "text", authority: 0.5 },
];

function hostOf(uri: string): string | null {
  try {
    const u = new URL(uri);
    return u.protocol === "http:" || u.protocol === "https:" ? u.hostname.toLowerCase().replace(/\.$/, "") : null;
  } catch {
    return null;
  }
}

function matches(rule: AuthorityRule, doc: { kind: string; host: string | null; snippet: boolean }): boolean {
  if (rule.kind !== undefined && rule.kind !== doc.kind) return false;
  if (rule.snippet !== undefined && rule.snippet !== doc.snippet) return false;
  if (rule.domain !== undefined) {
    const d = rule.domain.toLowerCase();
    if (!doc.host || !(doc.host === d || doc.host.endsWith(`.${d}`))) return false;
  }
  return true;
}

/** Authority of a document: the first of `configured`, then {@link DEFAULT_AUTHORITY_RULES}, that matches; else 0.5. */
export function authorityFor(
  doc: { kind: string; uri: string; snippet?: boolean },
  configured: readonly AuthorityRule[] = [],
): number {
  const subject = { kind: doc.kind, host: hostOf(doc.uri), snippet: doc.snippet ?? false };
  for (const rule of [...configured, ...DEFAULT_AUTHORITY_RULES]) if (matches(rule, subject)) return rule.authority;
  return 0.5;
}
