/**
 * The shared fixtures corpus after `memory_verify` (issue 21 item 1): a fresh copy of the fixtures store
 * (tests/support/fixtures-store.ts: the twelve text/PDF/EPUB/HTML fixtures ingested with the embedded defaults),
 * verified in process with the core use case the tool calls (core/verify/verify.ts, the heuristic judge) until no
 * atom is left unchecked, then every atom read with its status and its `contradicts` partners. Used by
 * bench/sample-contested.ts (the sample to label) and the dedup_pairs benchmark (the false-contested share).
 */
import { verifyAtoms } from "../../src/core/verify/verify.ts";
import { openFixturesStore } from "../../tests/support/fixtures-store.ts";
import { allAtomRows } from "./atom-rows.ts";

/** One atom after verification, with the atoms it is linked `contradicts` to (either direction). */
export interface VerifiedAtom {
  id: number;
  status: string;
  content: string;
  /** Fixture path (under shared/fixtures) of its first evidence document. */
  source: string;
  contradicts: Array<{ id: number; content: string; reason?: string }>;
}

/** The corpus after verification: every atom, and what the verify runs counted. */
export interface VerifiedCorpus {
  atoms: VerifiedAtom[];
  checked: number;
  verdicts: Record<string, number>;
  verify_ms: number;
}

const fixtureOf = (uri: string) => {
  const at = uri.lastIndexOf("/fixtures/");
  return at >= 0 ? uri.slice(at + "/fixtures/".length) : uri;
};

/** Verifies a fresh copy of the fixtures store and reads every atom back. @throws Error when the store fails. */
export async function verifiedFixtures(): Promise<VerifiedCorpus> {
  const store = await openFixturesStore();
  try {
    const { services } = store;
    const verdicts: Record<string, number> = {};
    let checked = 0;
    const t0 = performance.now();
    for (let round = 0; round < 20; round++) {
      const r = await verifyAtoms(services, { limit: 1000 });
      checked += r.checked;
      for (const [k, v] of Object.entries(r.verdicts)) verdicts[k] = (verdicts[k] ?? 0) + v;
      if (r.remaining === 0) break;
    }
    const verifyMs = performance.now() - t0;
    const rows = await allAtomRows(services.changeFeed);
    const live = rows.filter((r) => r.status !== "stale" && r.status !== "retracted");
    const subjects = new Map<number, { content: string; source: string }>();
    for (let i = 0; i < live.length; i += 500)
      for (const s of await services.verification.verificationSubjects(live.slice(i, i + 500).map((r) => r.id)))
        subjects.set(s.id, { content: s.content || s.claim, source: fixtureOf(s.sources[0]?.uri ?? "") });
    const atoms: VerifiedAtom[] = [];
    for (const r of live) {
      const s = subjects.get(r.id);
      if (!s) continue;
      const contradicts: VerifiedAtom["contradicts"] = [];
      if (r.status === "contested") {
        const links = await services.atomReads.atomLinks(r.id, 50);
        for (const l of [...links.out, ...links.in])
          if (l.kind === "contradicts")
            contradicts.push({ id: l.atom_id, content: subjects.get(l.atom_id)?.content ?? l.claim });
      }
      atoms.push({ id: r.id, status: r.status, content: s.content, source: s.source, contradicts });
    }
    return { atoms, checked, verdicts, verify_ms: Math.round(verifyMs) };
  } finally {
    await store.dispose();
  }
}
