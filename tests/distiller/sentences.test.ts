import { describe, expect, test } from "bun:test";
import { PRIORS } from "../../src/adapters/distiller/heuristic/priors.ts";
import { atomsOf, ofType, only } from "./support.ts";

describe("text atoms: one per complete sentence", () => {
  test("sentences of a paragraph, claim = quote = the sentence", () => {
    const atoms = atomsOf(
      "Emscripten has always focused on the Web. But WebAssembly is now used without JavaScript, too.",
    );
    expect(atoms.map((a) => [a.type, a.claim])).toEqual([
      ["text", "Emscripten has always focused on the Web."],
      ["text", "But WebAssembly is now used without JavaScript, too."],
    ]);
    expect(atoms[0].quote).toBe(atoms[0].claim);
    expect(atoms[0].confidence).toBe(PRIORS.text);
  });

  test("an anaphoric sentence carries its predecessor as context; its claim and quote stay the sentence", () => {
    const atoms = atomsOf(
      "The add function takes two integers and returns their sum. It contains no loops or branches at all.",
    );
    expect(atoms[1].claim).toBe("It contains no loops or branches at all.");
    expect(atoms[1].quote).toBe("It contains no loops or branches at all.");
    expect(atoms[1].content).toBe(
      "The add function takes two integers and returns their sum. It contains no loops or branches at all.",
    );
  });

  test("Russian sentences, hard-wrapped lines joined", () => {
    const text =
      "Андрей Ефимыч очень любит ум и честность, но\nчтобы устроить около себя жизнь умную и честную, у него не хватает характера.";
    const a = only(text, "ru");
    expect(a.type).toBe("text");
    expect(a.claim).toBe(
      "Андрей Ефимыч очень любит ум и честность, но чтобы устроить около себя жизнь умную и честную, у него не хватает характера.",
    );
    expect(a.quote).toBe(text);
  });

  test("abbreviations and citation marks do not split sentences", () => {
    const atoms = atomsOf(
      "The data were reported by Dr. Smith et al. in the main study. The community is supported by the Foundation.[2] Its subsidiary pays taxes.",
    );
    expect(atoms.map((a) => a.claim)).toEqual([
      "The data were reported by Dr. Smith et al. in the main study.",
      "The community is supported by the Foundation.[2]",
      "Its subsidiary pays taxes.",
    ]);
  });

  test("fragments are skipped: headings, short pieces, questions, captions, references, furniture, debris", () => {
    const text = [
      "Using standalone mode in Emscripten #",
      "2.1. Применение метода псевдообращения",
      "Just 4 lines!",
      "Why does the STANDALONE_WASM flag exist?",
      "Figure 1. Endosomal escape enhancers for targeted toxins and their routes.",
      "12. Fuchs, H.; Niesler, N.; Trautner, A. Glycosylated triterpenoids. Toxins 2016, 8, 200.",
      '^ "Mozilla Manifesto". Mozilla.org. Retrieved 2012-03-21.',
      "PLOS Medicine | https://doi.org/10.1371/journal.pmed.1003873 January 13, 2022 7 / 18",
      "22",
      "©️ 2024 Copyright for this paper by its authors.",
      "= − символ Кронекера, N 0 2  = . i , E i j = i ij",
      "The real sentence stays here as a claim.",
    ].join("\n\n");
    expect(atomsOf(text).map((a) => a.claim)).toEqual(["The real sentence stays here as a claim."]);
  });

  test("Russian one-letter words are words, not formula debris; initials and formula letters still are not", () => {
    const ward = "Больница была открыта в 1860 году, и в ней было 20 коек.";
    expect(only(ward, "ru")).toMatchObject({ type: "fact", quote: ward });
    expect(only("– Что с вами? – спросил Андрей Ефимыч.", "ru").type).toBe("text");
    expect(atomsOf("[7] Д. К. С. Нэш, 2 3 4 5.", "ru")).toEqual([]);
    expect(atomsOf("= s a - x y z 1 2 и в.", "ru")).toEqual([]);
  });

  test("a long sentence cut by a page break is kept with a lower prior; a short one is not", () => {
    const long = only(
      "Ряд задач в связи с рассматриваемой проблемой связаны с предупреждением разрушительных последствий взрывов для жилой инфраструктуры в районах",
      "ru",
    );
    expect(long.confidence).toBe(PRIORS.text_unterminated);
    expect(atomsOf("проведения угледобычи открытым способом.", "ru")).toEqual([]);
  });
});

describe("fact atoms: sentences with numbers, units and dates", () => {
  test("units, percentages, currencies", () => {
    for (const s of [
      "Rectal core body temperature was recorded for 24 h after one week of bed rest.",
      "Mozilla noted that roughly 85% of their revenue comes from Google.",
      "The total revenue for 2011 was $163 million in that report.",
      "The disassembled module is very minimal, just 87 bytes in total.",
      "При этом точность определения местоположения составила не хуже 1%.",
      "Расстояние до источника составило 12,5 км по данным сети датчиков.",
      "Стоимость оборудования превысила 3 млн руб. в первый год.",
      "The sample was heated to 37 °C for the whole experiment.",
    ]) {
      const a = only(s, /[а-я]/i.test(s) ? "ru" : "en");
      expect([a.type, a.confidence, s]).toEqual(["fact", PRIORS.fact_measured, s]);
    }
  });

  test("dates in both languages", () => {
    for (const s of [
      "On January 23, 1998, Netscape made two announcements about its browser.",
      "The current name of the browser was chosen on 2004-02-09 after a dispute.",
      "Workshop participants met in Irkutsk in July and discussed the results.",
      "Совещание состоялось 5 июля в Иркутске при участии всех авторов.",
      "Данные были собраны в марте и обработаны позднее авторами.",
      "Эксперимент проводился в 2024 г. на полигоне под Новосибирском.",
    ]) {
      const a = only(s, /[а-я]/i.test(s) ? "ru" : "en");
      expect([a.type, s]).toEqual(["fact", s]);
    }
  });

  test("a plain number is a fact with a lower prior", () => {
    const a = only("Running that program prints 42 as expected.");
    expect([a.type, a.confidence]).toEqual(["fact", PRIORS.fact_number]);
  });

  test("numbers that only point elsewhere do not make a fact", () => {
    for (const s of [
      "Detailed demographics for each group are provided in Table 1.",
      "The mechanism is shown in Fig. 2 and described elsewhere [35].",
      "This result was confirmed by later studies [3,4] and reviews [12–15].",
      "We have just landed Bug 1553982, which prevents starting an update twice.",
      "Схема эксперимента показана на рис. 1 и подробно описана ниже.",
      "The system of equations (1) is solved for every source separately.",
      "Firefox supports HTML5 and H264 in every current release.",
    ]) {
      expect([ofType(s, "fact", /[а-я]/i.test(s) ? "ru" : "en").length, s]).toEqual([0, s]);
    }
  });
});
