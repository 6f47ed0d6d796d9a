/**
 * The labelled "who/what is X" set of issue 22 (tests/entities/who-is.jsonl, one question per line), written by
 * reading the shared fixtures (Chekhov «Палата № 6», Botchan, the HTML pages, the PDFs): each question names an
 * entity of one fixture, and `answer` quotes the sentence that introduces or defines it there (for Андрей Ефимыч the
 * passage that presents him as the hospital's doctor, not one where he merely appears). An atom answers the question
 * when its text contains the quote, compared after {@link foldQuote}. The check half is frozen by hash
 * (bench/lib/split.ts `half`, SHA-256 of "pegas-split-v1:" + id) before any ranking was tuned; tuning uses the tune
 * half only.
 */
import { readFileSync } from "node:fs";
import { half } from "../../bench/lib/split.ts";

/** One labelled question. */
export interface WhoIsQuestion {
  id: string;
  /** As `half(id)` computes it, recorded so that a change of the split shows in review. */
  half: "tune" | "check";
  /** The question's language (two Russian questions ask about an English page). */
  lang: "en" | "ru";
  question: string;
  /** Path under shared/fixtures of the document that introduces the entity. */
  fixture: string;
  /** The entity asked about, as the question names it. */
  entity: string;
  /** A verbatim quote (whitespace aside) of the introducing sentence. */
  answer: string;
}

/** Reads the set (default: tests/entities/who-is.jsonl). @throws Error on a line that is not a question. */
export function loadWhoIsSet(path = new URL("./who-is.jsonl", import.meta.url).pathname): WhoIsQuestion[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l, i) => {
      const q = JSON.parse(l) as WhoIsQuestion;
      if (!q.id || !q.question || !q.answer || !q.fixture) throw new Error(`who-is.jsonl line ${i + 1}: incomplete`);
      return q;
    });
}

/** The frozen half of a question id (bench/lib/split.ts). */
export function whoIsHalf(id: string): "tune" | "check" {
  return half(id);
}

/**
 * Text folded for quote matching: NFKC, lower case, ё → е, every dash → "-", curly quotes and guillemets → straight,
 * whitespace runs → one space (parsers rewrap lines and PDFs lose ligatures, neither changes what a sentence says).
 */
export function foldQuote(s: string): string {
  return s
    .normalize("NFKC")
    .toLowerCase()
    .replaceAll("ё", "е")
    .replace(/[\u2010-\u2015\u2212-]/gu, "-")
    .replace(/[’‘`]/gu, "'")
    .replace(/[“”«»]/gu, '"')
    .replace(/\s+/gu, " ")
    .trim();
}
