/**
 * Reference-list entries are not claims: a bibliography line must not become a fact (whose year then "contradicts"
 * the next entry's year) nor a definition. Shapes below are copied from the fixtures' reference lists (PLOS
 * Medicine, MDPI Toxins, npj Microgravity, the Russian ICCS-DE paper, Wikipedia) or are the common styles; the body
 * sentences next to them come from the same papers and must stay claims.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { isReference, referenceScore } from "../../src/adapters/distiller/heuristic/references.ts";
import { loadCorpus, type Distilled } from "./corpus.ts";
import { atomsOf, ofType } from "./support.ts";

const ENTRIES = [
  // Vancouver / NLM (PLOS Medicine), whole and cut into the sentences a segmenter makes of them.
  "1. What can the UN General Assembly do for global health? Lancet. 2013; 382:1000. https://doi.org/10.1016/S0140-6736(13)61959-5 PMID: 24054523",
  "Smith A, Jones B. Sleep and shift work. J Sleep Res. 2016;12(3):45–67.",
  "2. United Nations General Assembly (26th special session; 2001). Declaration of commitment on HIV/AIDS: resolution/adopted by the General Assembly. A/RES/S-62/2. New York: United Nations; 2001.",
  "New York: United Nations; 2016.",
  "Geneva: World Health Organization; 2019 [cited 2021 Nov 30].",
  "Singapore: World Scientific; 2017. pp. 89–118.",
  "Responding to the challenge of non-communicable diseases Washington (DC): World Bank; 2020.",
  "United Nations HR Portal; 2015 [cited 2021 Jun 10].",
  "Nov 30]. Available from: https://www.oecd.org/els/health-systems/Universal-Health-Coverage.pdf.",
  "16. Dauda RS. HIV/AIDS and economic growth: evidence from West Africa. Int J Health Plann Manage. 2019; 34:324–37.",
  // MDPI, Nature.
  "2. Alewine, C.; Hassan, R.; Pastan, I. Advances in anticancer immunotoxin therapy. Oncologist 2015, 20, 176–185. [CrossRef] [PubMed]",
  "1. Fuchs, H.; Bachran, C. Design of targeted protein toxins. In Drug Delivery in Oncology; Kratz, F., Eds.; Wiley-VCH: Weinheim, Germany, 2011; Volume 3, pp. 1443–1487.",
  "2. Chellappa, S. L., Morris, C. J. & Scheer, F. A. J. L. Effects of circadian misalignment on cognition in chronic shift workers. Sci. Rep. 9, 699 (2019).",
  "56. R Core Team. R: A Language and Environment for Statistical Computing (R Foundation for Statistical Computing, 2019).",
  // Wikipedia.
  '^ "Mac vendors ponder Netscape gambit.". Macworld. 1 May 1998. Retrieved 2012-08-19.',
  '^ Lardinois, Frederic (November 15, 2012). "Mozilla Releases Annual Report For 2011: Revenue Up 33% To $163M". techcrunch.com.',
  '"Mozilla Releases Annual Report For 2011: Revenue Up 33% To $163M, Majority From Google". techcrunch.com.',
  "[12] Smith J. The art of testing. Accessed 12 May 2020. Available from: https://example.org/testing.",
  // Russian (GOST and looser styles from the ICCS-DE paper).
  "М.: Наука, 1985. — 320 с.",
  "[8] Нолет Г. Сейсмическая томография // Под ред. Г.Нолета. – М.: Мир, 1990. – 416 с.",
  "[10] С.И. Кабанихин, О.И. Криворотько. Сингулярное разложение в задаче об источнике. Сибирский журнал вычислительной математики. 2012. Т.15, №2. С. 205-211.",
  "Национального ядерного центра республики Казахстан. Вестник НЯЦ РК. Курчатов, Казахстан, 2014. Вып.2. С. 129-137",
  "Тихонов, М.: Наука, Главная редакция физико-математической литературы, 1979, Изд. 2-е",
  "Иванов И. И., Петров П. П. Методы обработки сигналов // Вестник НГУ. 2019. Т. 5, № 3. С. 12–18.",
];

const BODY = [
  "AMR was estimated to have led to 700,000 deaths in 2016, and this figure was predicted to grow to 9.5 million annually by 2050 [14].",
  "They have focused on human immunodeficiency virus/acquired immune deficiency syndrome (HIV/AIDS, 2001), non-communicable diseases (NCDs, 2011), and tuberculosis (TB, 2018).",
  "The HLM on TB was promoted in late 2016 mainly through an initiative of South Africa, then chair of the Oslo Group.",
  "Likewise, Liu et al. demonstrated increases in depressive symptoms after 45 days of HDBR51.",
  "Smith et al. (2019) showed that one night without sleep slows reaction times by 20%.",
  "Sleep loss slows reaction times by 20% (Smith et al., 2019; Lee and Park, 2020).",
  "The data that support the findings of this study are openly available in figshare at https://doi.org/10.6084/m9.figshare.12129534.",
  "1. Download the static binary from https://download.docker.com and unpack it in 2 minutes.",
  "Firebird provoked objections from the Firebird project community.[47][48] The current name, Firefox, was chosen on February 9, 2004.[49]",
  "Больница была открыта в 1860 году, и в ней было 20 коек.",
  "Палата № 6 стояла во дворе больницы, и в ней жили 5 человек.",
  "Эксперимент проводился в 2024 г. на полигоне под Новосибирском (Иванов и др., 2023).",
  "При этом точность определения местоположения составила не хуже 1%.",
];

describe("reference-list entries", () => {
  test("bibliography shapes, English and Russian, whole or cut into sentences, are entries", () => {
    for (const e of ENTRIES) expect([e, isReference(e)]).toEqual([e, true]);
  });

  test("body sentences that cite, date or number things are not entries", () => {
    for (const s of BODY) expect([s, isReference(s), referenceScore(s) <= 1]).toEqual([s, false, true]);
  });

  test("no fact or definition comes out of a reference list; the body sentence before it stays a fact", () => {
    const text = [
      "AMR was estimated to have led to 700,000 deaths in 2016, and this figure was predicted to grow to 9.5 million annually by 2050 [14].",
      "References",
      ...ENTRIES.slice(0, 14),
    ].join("\n\n");
    const atoms = atomsOf(text);
    expect(atoms.map((a) => [a.type, a.claim])).toEqual([["fact", BODY[0]]]);
  });

  test("a Russian reference list gives no atoms; the sentence before it stays", () => {
    const text = [
      "Работа выполнена в рамках госзадания в 2022–2024 годах на полигоне.",
      "5. Литература",
      ...ENTRIES.slice(18),
    ].join("\n\n");
    expect(atomsOf(text, "ru").map((a) => a.type)).toEqual(["fact"]);
  });

  test("body sentences stay facts through the distiller", () => {
    for (const s of BODY) expect([s, ofType(s, "fact", /[а-я]/i.test(s) ? "ru" : "en").length]).toEqual([s, 1]);
  });
});

/** Where each fixture's reference list is in its parsed text: from the heading to the next section, or the end. */
const LISTS: Array<[file: string, from: string, to: string | null]> = [
  ["pdf/en_paper_plosmed_2022_single_column.pdf", "\nReferences\n", null],
  ["pdf/en_paper_mdpi_toxins_2016_ligatures.pdf", "\nReferences\n", null],
  ["pdf/en_paper_npj_2020_two_column_ligatures.pdf", "\nREFERENCES\n", "\nACKNOWLEDGEMENTS\n"],
  ["pdf/ru_paper_iccsde_2024_geoacoustics.pdf", "\n5. Литература\n", null],
  ["html/en_wikipedia_mozilla.html", "\nReferences\n", "\nExternal links\n"],
];

describe("the fixtures' reference lists", () => {
  let atoms = new Map<string, Distilled[]>();
  let sections = new Map<string, string[]>();
  beforeAll(async () => {
    const corpus = await loadCorpus(1200);
    atoms = corpus.atoms;
    sections = corpus.sections;
  }, 120_000);

  /** Atoms whose quote is only found inside the file's reference list. */
  function fromList(file: string, from: string, to: string | null): Distilled[] {
    const full = (sections.get(file) ?? []).join("\n\n");
    const start = full.indexOf(from);
    const end = to === null ? full.length : full.indexOf(to, start);
    expect([file, start > 0, end > start]).toEqual([file, true, true]);
    const list = full.slice(start, end);
    const rest = full.slice(0, start) + full.slice(end);
    return (atoms.get(file) ?? []).filter((d) => list.includes(d.atom.quote) && !rest.includes(d.atom.quote));
  }

  test("no fact or definition atom comes from a reference list", () => {
    for (const [file, from, to] of LISTS) {
      const typed = fromList(file, from, to).filter((d) => d.atom.type !== "text");
      expect([file, typed.map((d) => d.atom.claim)]).toEqual([file, []]);
    }
  });

  test("no text atom either, but for one Russian entry split by a page break after its author's initial", () => {
    const text = LISTS.flatMap(([file, from, to]) => fromList(file, from, to).map((d) => d.atom.quote));
    expect(text).toEqual([
      "Ф. Изучение метеозависимой фокусировки акустических волн с помощью сейсмического вибратора и взрывов.",
    ]);
  });

  test("no two facts or definitions of one fixture differ only in their numbers (the false contradictions)", () => {
    for (const [file, list] of atoms) {
      const byShape = new Map<string, Set<string>>();
      for (const d of list.filter((x) => x.atom.type === "fact" || x.atom.type === "definition")) {
        const shape = d.atom.claim.replace(/\d+/g, "#");
        byShape.set(shape, (byShape.get(shape) ?? new Set()).add(d.atom.claim));
      }
      const clashes = [...byShape.values()].filter((claims) => claims.size > 1).map((claims) => [...claims]);
      expect([file, clashes]).toEqual([file, []]);
    }
  });

  test("body facts next to the lists are kept (PLOS Medicine, npj Microgravity, the Russian paper)", () => {
    const facts = (file: string) =>
      (atoms.get(file) ?? []).filter((d) => d.atom.type === "fact").map((d) => d.atom.claim);
    expect(facts("pdf/en_paper_plosmed_2022_single_column.pdf")).toContain(
      "However, DAH addressing NCDs grew from US$548 million in 2011 to US$825 million in 2017.",
    );
    expect(facts("pdf/en_paper_npj_2020_two_column_ligatures.pdf")).toContain(
      "Likewise, Liu et al. demonstrated increases in depressive symptoms, and decreases in positive affect irrespective of physical exercise after 45 days of HDBR51.",
    );
    expect(facts("pdf/ru_paper_iccsde_2024_geoacoustics.pdf")).toContain(
      "Работа выполнена в рамках госзадания FWNM–2022–0004.",
    );
  });
});
