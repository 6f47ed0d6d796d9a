/**
 * LoCoMo's development split (../shared/bench/locomo/locomo_dev.json, CC BY-NC 4.0: read in place for evaluation,
 * never copied): conversations of dialogue turns and questions naming their evidence turns. See the README there.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SHARED } from "./env.ts";
import { monthNumber } from "../../src/domain/time/words.ts";

/** One dialogue turn, in session order. */
export interface LocomoTurn {
  speaker: string;
  diaId: string;
  text: string;
  /** When it was said: its session's date and time (`session_N_date_time`) as ISO 8601 UTC, null when unreadable. */
  observedAt: string | null;
}

/** One question with its evidence turn ids (`D<session>:<turn>`) and category (1..5). */
export interface LocomoQuestion {
  question: string;
  evidence: string[];
  category: number;
}

/** One conversation: its sample id, turns of every session in order, questions with evidence. */
export interface LocomoConversation {
  sampleId: string;
  turns: LocomoTurn[];
  questions: LocomoQuestion[];
}

/** Category names of the LoCoMo paper, by number. */
export const LOCOMO_CATEGORIES: Record<number, string> = {
  1: "multi_hop",
  2: "temporal",
  3: "open_domain",
  4: "single_hop",
  5: "adversarial",
};

/** A session's date as LoCoMo writes it ("1:56 pm on 8 May, 2023") in ISO 8601, taken as UTC; null otherwise. */
export function sessionDate(text: unknown): string | null {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(String(text ?? "").trim());
  const month = m ? monthNumber(m[5]) - 1 : -1;
  if (!m || month < 0) return null;
  const hour = (Number(m[1]) % 12) + (m[3].toLowerCase() === "pm" ? 12 : 0);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]))).toISOString();
}

/** Path of the development split. */
export const LOCOMO_DEV = join(SHARED, "bench", "locomo", "locomo_dev.json");

/**
 * Evidence ids as `D<session>:<turn>`: the file has a few malformed ones (`"D8:6; D9:17"` is two ids, `"D:11:26"` is
 * D11:26, a bare `"D"` names no turn and is dropped).
 */
export function normalizeEvidence(evidence: unknown[]): string[] {
  const ids = evidence
    .flatMap((e) => String(e).split(/[;,\s]+/))
    .map((e) => e.replace(/^D:/, "D"))
    .filter((e) => /^D\d+:\d+$/.test(e));
  return [...new Set(ids)];
}

/** Loads the development split: sessions in numeric order, questions that name at least one evidence turn. */
export function loadLocomo(path = LOCOMO_DEV): LocomoConversation[] {
  const raw = JSON.parse(readFileSync(path, "utf8")) as Array<Record<string, any>>;
  return raw.map((c) => {
    const conv = c.conversation as Record<string, any>;
    const sessions = Object.keys(conv)
      .map((k) => /^session_(\d+)$/.exec(k))
      .filter((m): m is RegExpExecArray => m !== null && Array.isArray(conv[m[0]]))
      .sort((a, b) => Number(a[1]) - Number(b[1]));
    const turns = sessions.flatMap((m) =>
      (conv[m[0]] as Array<Record<string, any>>).map((t) => ({
        speaker: String(t.speaker),
        diaId: String(t.dia_id),
        text: String(t.text ?? ""),
        observedAt: sessionDate(conv[`${m[0]}_date_time`]),
      })),
    );
    const questions = (c.qa as Array<Record<string, any>>)
      .map((q) => ({
        question: String(q.question),
        evidence: normalizeEvidence(Array.isArray(q.evidence) ? q.evidence : []),
        category: Number(q.category),
      }))
      .filter((q) => q.evidence.length > 0);
    return { sampleId: String(c.sample_id), turns, questions };
  });
}

/** The source URI of a turn under the protocol: `locomo://<sample_id>/<dia_id>`. */
export function turnUri(sampleId: string, diaId: string): string {
  return `locomo://${sampleId}/${diaId}`;
}

/**
 * Stores a conversation's turns under the protocol: one `memory_store` of type text per turn, `<speaker>: <text>` as
 * claim and quote, the turn's URI as source and, unless `dates` is false, its session date as `observed_at`.
 */
export async function storeTurns(
  client: { call(name: string, args: Record<string, unknown>): Promise<unknown> },
  conv: LocomoConversation,
  dates = true,
): Promise<void> {
  for (const t of conv.turns) {
    const line = `${t.speaker}: ${t.text}`;
    await client.call("memory_store", {
      type: "text",
      claim: line,
      quote: line,
      source_uri: turnUri(conv.sampleId, t.diaId),
      ...(t.observedAt && dates ? { observed_at: t.observedAt } : {}),
    });
  }
}

/** Every `locomo://…` URI in a text, in order of appearance (duplicates kept once). */
export function locomoUris(text: string): string[] {
  return [...new Set(text.match(/locomo:\/\/[A-Za-z0-9_-]+\/D\d+:\d+/g) ?? [])];
}
