/**
 * Helpers of the memory_verify tests: two loopback "sites" (Bun.serve bound to 127.0.0.1 and to 127.0.0.2, which
 * Linux routes to lo like every 127/8 address) serving short plain-text pages, and read-side SQL for assertions.
 */
import { expect } from "bun:test";
import type { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { draftAtom } from "../../src/core/knowledge/atoms.ts";
import type { Services } from "../../src/core/services.ts";
import type { AtomType } from "../../src/domain/atom.ts";
import type { AtomView } from "../../src/ports/store/atom-reads.ts";

/** A page server on one loopback address. */
export interface Site {
  base: string;
  stop(): void;
}

/** Serves `pages` (path → text) as text/plain on `host`; any other path is 404. */
export function startSite(host: string, pages: Record<string, string>): Site {
  const server = Bun.serve({
    hostname: host,
    port: 0,
    fetch: (req) => {
      const text = pages[new URL(req.url).pathname];
      return text === undefined
        ? new Response("missing", { status: 404 })
        : new Response(text, { headers: { "content-type": "text/plain; charset=utf-8" } });
    },
  });
  return { base: `http://${host}:${server.port}`, stop: () => server.stop(true) };
}

/** The postgres.js client behind the services' store (both backends speak it). */
export function sqlOf(s: Services) {
  return (s.maintenance as SqlCanonicalStore).db.sql;
}

/** Live (not stale or retracted) atoms cited by document `docId`, in id order. */
export async function liveAtomsOf(s: Services, docId: number): Promise<number[]> {
  const rows = await sqlOf(s)`
    SELECT DISTINCT a.id FROM pm_atom a JOIN pm_citation c ON c.atom_id = a.id
     WHERE c.doc_id = ${docId} AND a.status NOT IN ('stale', 'retracted') ORDER BY a.id`;
  return rows.map((r) => Number(r.id));
}

/** One atom, which must exist. */
export async function atom(s: Services, id: number): Promise<AtomView> {
  const [a] = await s.atomReads.atomsByIds([id], 20);
  expect(a).toBeDefined();
  return a;
}

/** Kinds of links between two atoms, either direction. */
export async function linkKinds(s: Services, a: number, b: number): Promise<string[]> {
  const rows = await sqlOf(s)`
    SELECT kind FROM pm_atom_link WHERE (src_atom_id = ${a} AND dst_atom_id = ${b}) OR (src_atom_id = ${b} AND dst_atom_id = ${a}) ORDER BY kind`;
  return rows.map((r) => String(r.kind));
}

/** The payload of the newest outbox row of an atom. */
export async function lastOutboxPayload(s: Services, atomId: number): Promise<Record<string, unknown> | null> {
  const rows = await sqlOf(
    s,
  )`SELECT payload FROM pm_outbox WHERE entity_type = 'atom' AND entity_id = ${String(atomId)} ORDER BY id DESC LIMIT 1`;
  return rows.length ? (rows[0].payload as Record<string, unknown>) : null;
}

/**
 * Writes an atom through the store port without core dedup: what a writer that raced another one (each deduped
 * before the other committed, DESIGN.md failure kind 5) leaves behind. Returns the new atom id.
 */
export async function storeWithoutDedup(
  s: Services,
  a: { type: AtomType; claim: string; sourceUri?: string },
): Promise<number> {
  const draft = draftAtom({ type: a.type, claim: a.claim, content: a.claim, confidence: 0.5 });
  const [vector] = await s.embedder.embedDocuments([draft.searchText]);
  const res = await s.atomWrites.storeAtom({
    atom: { ...draft, vector },
    model: s.embedder.model,
    sourceUri: a.sourceUri,
  });
  expect(res.created).toBe(true);
  return res.atomId;
}
