/**
 * The table-driven text helpers against the regex code they replaced (kept below as the reference): detectLang's
 * script table, the token scan behind wordCount, isDebris and isProse (the pieces of `split(/\s+/u)`), the folding
 * memo (a repeated fold, a slice and a copy fold alike) and collapse's fast path, on every chunk and line of the
 * fixtures and on edge cases: astral letters, lone surrogates, every kind of whitespace, empty text.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { isProse } from "../../src/adapters/distiller/heuristic/blocks/code.ts";
import { collapse } from "../../src/adapters/distiller/heuristic/blocks/blocks.ts";
import { isDebris, wordCount } from "../../src/adapters/distiller/heuristic/sentences.ts";
import { detectLang, foldForHash, scanTokens } from "../../src/domain/text.ts";
import { loadCorpus } from "../distiller/corpus.ts";

// ---- the first versions (main at 7694bde) ----
function oldDetectLang(text: string): "ru" | "en" | "und" {
  let cyr = 0;
  let lat = 0;
  const sample = text.length > 4000 ? text.slice(0, 4000) : text;
  for (const ch of sample) {
    if (/\p{Script=Cyrillic}/u.test(ch)) cyr++;
    else if (/[A-Za-z]/.test(ch)) lat++;
  }
  if (cyr + lat < 3) return "und";
  return cyr >= lat ? "ru" : "en";
}
const ONE_LETTER_WORD = /^[«"“(]?(?:[вкоуиаяс][,;:!?»"”)]*|[ВКОУИАЯС])$/u;
function oldIsDebris(text: string): boolean {
  const tokens = text.trim().split(/\s+/u);
  const chars = tokens.join("");
  const letters = (chars.match(/\p{L}/gu) ?? []).length;
  const bare = tokens.filter((t) => !/\p{L}{2}/u.test(t) && !ONE_LETTER_WORD.test(t)).length;
  const glued = tokens.some((t) => /\p{L}{30,}/u.test(t));
  return letters < chars.length * 0.6 || bare > tokens.length * 0.35 || glued;
}
function oldWordCount(text: string): number {
  return text.split(/\s+/u).filter((w) => /\p{L}/u.test(w)).length;
}
function oldIsProse(line: string): boolean {
  const t = line.trim();
  const words = t.split(/\s+/).filter((w) => /\p{L}{2}/u.test(w)).length;
  const punct = (t.match(/[{}()[\];=<>$&|*/\\]/g) ?? []).length;
  return words >= 6 && punct < t.length * 0.03 && !/=>|\(\)|;\s*$|\{\s*$/.test(t);
}
function oldFold(text: string): string {
  return text.normalize("NFKC").toLowerCase().replaceAll("ё", "е").replace(/\s+/gu, " ").trim();
}
// ---- end of the first versions ----

const EDGES = [
  "",
  " ",
  "a",
  "  leading and trailing  ",
  "tab\tnew\nline\u000bvt\u000cff\rcr\u00a0nbsp\u1680ogham\u2000en\u200aquad\u2028ls\u2029ps\u202fnnbsp\u205fmm\u3000ideo\ufeffbom",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 letters 𝐀𝐁𝐂 and emoji 😀 🇷🇺",
  "lone \ud835 high and \udc00 low surrogates \ud835\udd18 and a pair cut at the end \ud835",
  "Pleasecheckthattheeditsarecorrectandcomplete is glued",
  "x = 1; y = 2; z = f(x) + g(y);",
  "Палата № 6 стояла во дворе; в ней было 20 коек, и я там был.",
  "ΑΒΓ greek ԱԲԳ armenian Ꙁ cyrillic ext-b ᲀ ᲁ cyrillic ext-c 𞀰 cyrillic ext-d",
  `${"я".repeat(3999)}\ud835\udd18`, // the 4,000th unit starts a pair
  "ё Ё ﬁ ＦＵＬＬ",
];

let pieces: string[] = [];

beforeAll(async () => {
  const corpus = await loadCorpus(1200);
  const seen = new Set<string>(EDGES);
  for (const chunks of corpus.chunks.values())
    for (const chunk of chunks) for (const piece of [chunk, ...chunk.split("\n")]) seen.add(piece);
  pieces = [...seen];
}, 120_000);

describe("table-driven text helpers equal the regex code", () => {
  test("detectLang", () => {
    expect(pieces.length).toBeGreaterThan(5_000);
    expect(pieces.filter((p) => detectLang(p) !== oldDetectLang(p))).toEqual([]);
  });

  test("scanTokens visits exactly the pieces of split(/\\s+/u)", () => {
    for (const p of pieces) {
      const got: string[] = [];
      scanTokens(p, (s, e) => got.push(p.slice(s, e)));
      if (JSON.stringify(got) !== JSON.stringify(p.split(/\s+/u))) expect([p, got]).toEqual([p, p.split(/\s+/u)]);
    }
  });

  test("wordCount, isDebris and isProse", () => {
    const differ = pieces.filter(
      (p) => wordCount(p) !== oldWordCount(p) || isDebris(p) !== oldIsDebris(p) || isProse(p) !== oldIsProse(p),
    );
    expect(differ).toEqual([]);
  });

  test("foldForHash (first call, repeated call, a slice of a longer text) and collapse", () => {
    for (const p of pieces) {
      const want = oldFold(p);
      expect(foldForHash(p)).toBe(want);
      expect(foldForHash(p)).toBe(want);
      expect(foldForHash(`${p}#`.slice(0, p.length))).toBe(want);
      expect(collapse(p)).toBe(p.replace(/\s+/gu, " ").trim());
    }
  });
});
