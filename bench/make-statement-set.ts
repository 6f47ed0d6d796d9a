/**
 * `bun bench/make-statement-set.ts`: writes the labelled statement set of the confidence calibration (issue 24 item 3),
 * tests/confidence/statement-set.jsonl, once; the file is committed and its check half frozen by digest
 * (tests/confidence/statement-set.test.ts) before any weight was fitted.
 *
 * Source sentences: the sentences (8–35 words) of the atoms that the embedded defaults distil from the shared fixtures
 * (tests/support/fixtures-store.ts), a seeded draw per fixture. Each drawn sentence gives ONE statement (never two,
 * so that two statements of the set never meet each other), its variant chosen by the sentence's hash:
 * - `verbatim` (true): the sentence as the source says it;
 * - `clause` (true): its first clause (before a comma, dash or semicolon, ≥ 6 words, not a subordinate clause);
 * - `number` (false): the sentence with its first number changed (digits ×1.5 + 2, or a Russian/English number word
 *   swapped for another), which the source contradicts;
 * - `negation` (false): the sentence with its verb negated ("is" → "is not", «не» before a Russian verb form);
 * plus the `fabricated` (false) statements written below by hand: plausible claims about the fixtures' subjects that
 * no fixture makes. Labels are by construction: `true` when the fixture sentence says it, `false` when it
 * contradicts the fixture or no fixture says it.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { setLogLevel } from "../src/log.ts";
import { FABRICATED } from "../tests/confidence/fabricated.ts";
import { type StatementItem, statementHalf } from "../tests/confidence/statement-set.ts";
import { openFixturesStore } from "../tests/support/fixtures-store.ts";
import { allAtomRows } from "./lib/atom-rows.ts";

/** Sentences drawn per fixture document (fewer when it has fewer). */
const PER_FIXTURE: Record<string, number> = {
  "text/ru_chekhov_palata_no6.txt": 90,
  "pdf/ru_paper_iccsde_2024_geoacoustics.pdf": 45,
  "text/en_gutenberg_8868_botchan.txt": 30,
  "pdf/en_paper_mdpi_toxins_2016_ligatures.pdf": 30,
  "pdf/en_paper_npj_2020_two_column_ligatures.pdf": 30,
  "pdf/en_paper_plosmed_2022_single_column.pdf": 30,
  "html/en_wikipedia_mozilla.html": 35,
  "html/en_blog_v8dev_emscripten_standalone_wasm.html": 20,
  "html/en_blog_firefox_nightly_issue85.html": 10,
  "html/en_docs_docker_install_engine.html": 10,
};

/** The sentences of a text (split after . ! ? before a capital or a quote), whitespace collapsed. */
export function sentencesOf(text: string): string[] {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .split(/(?<=[.!?])\s+(?=[\p{Lu}«"])/u)
    .filter((t) => /[.!?]$/.test(t));
}

const hashByte = (s: string, salt: string) => createHash("sha256").update(`${salt}:${s}`, "utf8").digest()[0];
const words = (s: string) => s.split(/\s+/).filter(Boolean);

const NUMBER_WORDS: Array<[RegExp, string]> = [
  [/\bдвадцать\b/iu, "сорок"],
  [/\bдесять\b/iu, "пятнадцать"],
  [/\bтри\b/iu, "семь"],
  [/\bдва\b/iu, "шесть"],
  [/\bпять\b/iu, "девять"],
  [/\bсто\b/iu, "триста"],
  [/\btwo\b/i, "five"],
  [/\bthree\b/i, "eight"],
  [/\bten\b/i, "forty"],
  [/\bfirst\b/i, "third"],
];

/** The sentence with its first number changed, or null when it has none. */
export function changeNumber(s: string): string | null {
  const m = /(?<![\p{L}\d.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\d])/u.exec(s);
  if (m) {
    const n = Number(m[1].replace(/,/g, ""));
    if (n >= 1900 && n <= 2030) return s.replace(m[0], String(n - 7));
    const changed = n < 10 ? n + 3 : Math.round(n * 1.5 + 2);
    return s.slice(0, m.index) + String(changed) + (m[2] ? `.${m[2]}` : "") + s.slice(m.index + m[0].length);
  }
  for (const [re, to] of NUMBER_WORDS) if (re.test(s)) return s.replace(re, to);
  return null;
}

const RU_VERB = /^[а-яё]{3,}(ет|ит|ал|ала|ало|али|ют|ут|ят|ат|ется|ится|ался|алась|ались|ил|ила|ило|или)$/u;
const EN_AUX = /\b(is|was|are|were|can|will|has|have|does|did)\b/;

/** The sentence with its verb negated, or null when no verb was found or it is negated already. */
export function negate(s: string, lang: string): string | null {
  if (lang === "ru") {
    if (/(^|\s)(не|ни|нет)\s/iu.test(s)) return null;
    const w = words(s);
    for (let i = 1; i < w.length; i++)
      if (RU_VERB.test(w[i].toLowerCase())) return [...w.slice(0, i), "не", ...w.slice(i)].join(" ");
    return null;
  }
  if (/\b(not|never|no)\b|n't/i.test(s)) return null;
  const m = EN_AUX.exec(s);
  if (!m) return null;
  const to = m[1] === "has" || m[1] === "have" ? `${m[1]} not` : `${m[1]} not`;
  return s.slice(0, m.index) + to + s.slice(m.index + m[0].length);
}

const SUBORDINATE =
  /^(although|though|when|while|if|because|as|since|after|before|where|which|that|хотя|когда|если|потому|так как|где|который|которая|что|чтобы)\b/iu;

/** The first clause of the sentence (≥ 6 words, a main clause), with a full stop, or null. */
export function firstClause(s: string): string | null {
  const cut = s.split(/[,;:]\s|\s[—–-]\s/u)[0].trim();
  if (cut === s.trim() || words(cut).length < 6 || SUBORDINATE.test(cut)) return null;
  return `${cut.replace(/[.!?]+$/, "")}.`;
}

async function main(): Promise<void> {
  setLogLevel("warn");
  const store = await openFixturesStore();
  const items: StatementItem[] = [];
  try {
    const { services } = store;
    const rows = await allAtomRows(services.changeFeed);
    const live = rows.filter((r) => r.status !== "stale" && r.status !== "retracted").map((r) => r.id);
    const byFixture = new Map<string, Array<{ text: string; lang: string }>>();
    const seen = new Set<string>();
    for (let i = 0; i < live.length; i += 500)
      for (const s of await services.verification.verificationSubjects(live.slice(i, i + 500))) {
        const uri = s.sources[0]?.uri ?? "";
        const fixture = uri.slice(uri.lastIndexOf("/fixtures/") + "/fixtures/".length);
        if (!(fixture in PER_FIXTURE)) continue;
        for (const text of sentencesOf(s.content || s.claim)) {
          const n = words(text).length;
          if (n < 8 || n > 35 || !/^[\p{Lu}«"]/u.test(text) || seen.has(text) || /https?:|[{}<>=|@]/.test(text))
            continue;
          seen.add(text);
          (byFixture.get(fixture) ?? byFixture.set(fixture, []).get(fixture)!).push({ text, lang: s.lang });
        }
      }
    let n = 0;
    for (const [fixture, want] of Object.entries(PER_FIXTURE)) {
      const pool = (byFixture.get(fixture) ?? []).sort((a, b) => hashByte(a.text, "draw") - hashByte(b.text, "draw"));
      let taken = 0;
      for (const { text, lang } of pool) {
        if (taken >= want) break;
        // Half true, half false, by the sentence's hash; a sentence that cannot make its variant is skipped.
        const h = hashByte(text, "variant");
        const kinds =
          h % 2 === 0
            ? h % 8 < 6
              ? (["verbatim"] as const)
              : (["clause", "verbatim"] as const)
            : h % 4 === 1
              ? (["number", "negation"] as const)
              : (["negation", "number"] as const);
        for (const kind of kinds) {
          const made =
            kind === "verbatim"
              ? text
              : kind === "clause"
                ? firstClause(text)
                : kind === "number"
                  ? changeNumber(text)
                  : negate(text, lang);
          if (!made) continue;
          const label = kind === "verbatim" || kind === "clause";
          items.push({
            id: `c-${String(++n).padStart(3, "0")}`,
            half: statementHalf(made),
            lang: lang === "ru" ? "ru" : "en",
            source: fixture,
            kind,
            label,
            text: made,
            ...(made !== text ? { from: text } : {}),
          });
          taken++;
          break;
        }
      }
    }
    for (const f of FABRICATED)
      items.push({
        id: `c-${String(++n).padStart(3, "0")}`,
        half: statementHalf(f.text),
        lang: f.lang,
        source: f.about,
        kind: "fabricated",
        label: false,
        text: f.text,
      });
  } finally {
    await store.dispose();
  }
  const out = new URL("../tests/confidence/statement-set.jsonl", import.meta.url).pathname;
  writeFileSync(out, `${items.map((it) => JSON.stringify(it)).join("\n")}\n`);
  const count = (p: (it: StatementItem) => boolean) => items.filter(p).length;
  process.stdout.write(
    `${items.length} statements (${count((i) => i.label)} true, ${count((i) => i.lang === "ru")} ru) → ${out}\n`,
  );
}

if (import.meta.main) await main();
