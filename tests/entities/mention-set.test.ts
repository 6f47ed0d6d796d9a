/**
 * The labelled mention set of issue 22 itself (tests/entities/mention-set.ts): its size, languages, negatives, spans
 * and the frozen check half. How the extractor does on it: `npm run bench -- entities`.
 */
import { describe, expect, test } from "bun:test";
import { checkDigest, MENTION_SET, mentionHalf } from "./mention-set.ts";

/** Digest of the check half, recorded when the set was written and before any extraction rule was tuned on it. */
const FROZEN_CHECK_DIGEST = "4b1c2599046c2036693b800f027694178a0d7506aa37e6c31bdc1b0eafed5d67";

describe("entity mention set", () => {
  test("holds ≥ 250 mentions in both languages, and texts with none", () => {
    const mentions = MENTION_SET.flatMap((it) => it.mentions.map(() => it.lang));
    expect(mentions.length).toBeGreaterThanOrEqual(250);
    expect(mentions.filter((l) => l === "ru").length).toBeGreaterThanOrEqual(100);
    expect(mentions.filter((l) => l === "en").length).toBeGreaterThanOrEqual(100);
    expect(MENTION_SET.filter((it) => it.mentions.length === 0).length).toBeGreaterThanOrEqual(30);
  });

  test("ids are unique, the language tag matches the script, and spans do not overlap", () => {
    expect(new Set(MENTION_SET.map((it) => it.id)).size).toBe(MENTION_SET.length);
    for (const it of MENTION_SET) {
      expect({ id: it.id, ru: /\p{Script=Cyrillic}/u.test(it.text) }).toEqual({ id: it.id, ru: it.lang === "ru" });
      for (let i = 1; i < it.mentions.length; i++) {
        const prev = it.mentions[i - 1];
        expect(it.mentions[i].start).toBeGreaterThanOrEqual(prev.start + prev.surface.length);
      }
    }
  });

  test("the split is the hash split and the check half is the frozen one", () => {
    for (const it of MENTION_SET)
      expect({ id: it.id, half: it.half }).toEqual({ id: it.id, half: mentionHalf(it.text) });
    expect(checkDigest(MENTION_SET)).toBe(FROZEN_CHECK_DIGEST);
    const checkMentions = MENTION_SET.filter((it) => it.half === "check").flatMap((it) => it.mentions);
    expect(checkMentions.length).toBeGreaterThanOrEqual(100);
  });
});
