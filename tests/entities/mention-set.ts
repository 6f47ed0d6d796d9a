/**
 * The labelled entity mention set of issue 22 (tests/entities/mention-set.jsonl, one text per line): sentences and
 * short passages read from the shared fixtures (Chekhov's «Палата № 6», Botchan, the HTML pages, the PDFs' text) and
 * the LoCoMo development conversations, each with every entity mention a reader finds in it. Rules of the labels:
 * - a mention is a name written as a proper name (capitalised, or a title in quotation marks) of a person,
 *   organisation, place, project, work, software or named concept; nationalities, languages, months, degrees
 *   ("Bachelor of Arts"), section headings glued to a sentence, bug numbers and common acronyms (HIV, API) are not;
 * - `surface` is the exact text (`text.slice(start, start + surface.length)`), without a title or honorific (Mr.,
 *   Professor, доктор) and without the quotation marks, with the case ending or possessive as written;
 * - `name` is the nominative, without possessive («Андрею Ефимычу» → «Андрей Ефимыч», "Ed Sheeran's" → "Ed Sheeran");
 *   a nickname or short name stays as written ("Mel", "Caro"): joining it to the full name is resolution's job;
 * - texts with no mention are kept on purpose: sentence-initial capitals, Russian sentence-initial words, headings.
 * The check half is frozen by hash ({@link mentionHalf}) and by a digest of its lines (tests/entities/mention-set.test.ts)
 * before any rule was tuned: rules are tuned on the tune half only.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { ENTITY_KINDS, type EntityKind } from "../../src/domain/entities/types.ts";

/** One labelled mention. */
export interface LabelledMention {
  surface: string;
  name: string;
  kind: EntityKind;
  /** UTF-16 offset of `surface` in the item's text. */
  start: number;
}

/** One labelled text. */
export interface MentionItem {
  id: string;
  half: "tune" | "check";
  lang: "en" | "ru";
  /** Where the text was read: a path under shared/fixtures, or bench/locomo/locomo_dev.json. */
  source: string;
  text: string;
  mentions: LabelledMention[];
}

/** The half of a text: SHA-256 of `"pegas-entities-v1:" + text` (UTF-8); an even first byte is `tune`. */
export function mentionHalf(text: string): "tune" | "check" {
  return createHash("sha256").update(`pegas-entities-v1:${text}`, "utf8").digest()[0] % 2 === 0 ? "tune" : "check";
}

/** The items, in file order. @throws Error naming the line when a line is malformed or a span does not match. */
export function loadMentionSet(path = new URL("./mention-set.jsonl", import.meta.url).pathname): MentionItem[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l, i) => {
      const it = JSON.parse(l) as MentionItem;
      const bad = it.mentions.find(
        (m) => it.text.slice(m.start, m.start + m.surface.length) !== m.surface || !ENTITY_KINDS.includes(m.kind),
      );
      if (typeof it.text !== "string" || bad) throw new Error(`mention-set.jsonl line ${i + 1} is malformed`);
      return it;
    });
}

/** SHA-256 (hex) of the check half's lines as stored, in file order: any edit of a check item changes it. */
export function checkDigest(items: readonly MentionItem[]): string {
  const h = createHash("sha256");
  for (const it of items) if (it.half === "check") h.update(`${JSON.stringify(it)}\n`, "utf8");
  return h.digest("hex");
}

/** The whole set. */
export const MENTION_SET: readonly MentionItem[] = loadMentionSet();
