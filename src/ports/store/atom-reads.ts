/**
 * AtomReads port: atoms as callers see them (claim, content, status, citations) and an atom's links to other atoms
 * and to code symbols. Read-only. Errors are PegasError (STORE_UNAVAILABLE, MIGRATION_REQUIRED), never a driver error.
 */
import type { AtomStatus, AtomType } from "../../domain/atom.ts";
import type { DocumentKind, Locator } from "../../domain/locator.ts";
import type { AtomTime } from "../../domain/time/atom-time.ts";

/** A citation as returned with atoms. */
export interface CitationView {
  doc_id: number;
  uri: string;
  title: string | null;
  kind: DocumentKind;
  doc_version: number;
  locator: Locator;
  quote: string;
}

/** An atom as returned to callers. */
export interface AtomView {
  id: number;
  type: AtomType;
  claim: string;
  content: string;
  confidence: number;
  status: AtomStatus;
  doc_id: number | null;
  lang: string;
  created_at: string;
  citations: CitationView[];
  citation_count: number;
  /** When its source said it and when what it says happened (migration 0016); absent when neither is known. */
  time?: AtomTime;
}

/** What every link shows in memory_get: its row, kind, confidence, who asserted it, whether it was inferred, when. */
export interface LinkViewBase {
  link_id: number;
  kind: string;
  confidence: number;
  /** Who asserted it: `extraction`, `verification`, `agent`, `inference`, … */
  source: string;
  inferred: boolean;
  created_at: string;
}

/** A link between two atoms as memory_get shows it, from the viewed atom's side (`atom_id`: the other atom). */
export interface AtomLinkView extends LinkViewBase {
  atom_id: number;
  /** The other atom's claim, cut to 300 characters. */
  claim: string;
  type: string;
  status: string;
}

/** A link from an atom to a code symbol (`defines`, …) with where the symbol is. */
export interface AtomSymbolLinkView extends LinkViewBase {
  symbol_id: number;
  repo: string;
  path: string;
  /** First line of the symbol (1-based). */
  line: number;
  qualified_name: string;
  symbol_kind: string;
}

/** An atom's links, newest first, each list capped (the totals count all). */
export interface AtomLinks {
  out: AtomLinkView[];
  outTotal: number;
  in: AtomLinkView[];
  inTotal: number;
  symbols: AtomSymbolLinkView[];
  symbolsTotal: number;
  /** The merge that absorbed this atom into another, when one did and was not undone. */
  mergedInto: { mergeId: number; atomId: number } | null;
  /** Live atoms that superseded this one (`supersedes` links in; at most `limit`, oldest first). */
  supersededBy: number[];
  /** Atoms this one superseded (`supersedes` links out; at most `limit`, oldest first). */
  supersedes: number[];
}

/** Reads of stored atoms. */
export interface AtomReads {
  /** Atoms by id with up to `maxCitations` citations each, in the order of `ids` (missing ids are skipped). */
  atomsByIds(ids: number[], maxCitations: number): Promise<AtomView[]>;
  /** Links of an atom out, in and to code symbols, at most `limit` of each, newest first (an unknown atom has none). */
  atomLinks(atomId: number, limit: number, offset?: number): Promise<AtomLinks>;
}
