import { describe, expect, test } from "bun:test";
import { PRIORS } from "../../src/adapters/distiller/heuristic/priors.ts";
import { atomsOf, ofType, only } from "./support.ts";

describe("English definitions", () => {
  test("X is a/an Y", () => {
    const a = only(
      "Ricin is a plant ribosome-inactivating protein consisting of a cell-binding B chain and a catalytic A chain.",
    );
    expect(a.type).toBe("definition");
    expect(a.claim).toBe(
      "Ricin: a plant ribosome-inactivating protein consisting of a cell-binding B chain and a catalytic A chain",
    );
    expect(a.content).toBe(a.quote);
    expect(a.confidence).toBe(PRIORS.definition_is_a);
  });

  test("multi-word term with an abbreviation", () => {
    const a = only(
      "Photochemical internalization (PCI) is a minimally invasive strategy for light-controlled endosomal escape.",
    );
    expect(a.type).toBe("definition");
    expect(a.claim.startsWith("Photochemical internalization (PCI): a minimally invasive strategy")).toBe(true);
  });

  test("explicit markers outrank 'is a'", () => {
    const means = only("Latency means the time between a request and its response.");
    expect(means).toMatchObject({ type: "definition", claim: "Latency: the time between a request and its response" });
    expect(means.confidence).toBe(PRIORS.definition_explicit);
    expect(only("A mesor is defined as the rhythm-adjusted mean of a time series.").claim).toBe(
      "mesor: the rhythm-adjusted mean of a time series",
    );
    expect(only("The term standalone refers to a Wasm file that runs without a JavaScript runtime.").type).toBe(
      "definition",
    );
    expect(only("Positive numbers are defined as phase delays.").claim).toBe("Positive numbers: phase delays");
  });

  test("Y is called X", () => {
    const a = only("A function that calls itself is called a recursive function.");
    expect(a.type).toBe("definition");
    expect(a.claim).toBe("recursive function: A function that calls itself");
  });

  test("X are Y with a plural noun phrase", () => {
    const a = only("Granzymes are apoptosis inducing serine proteases that enter cells through pores.");
    expect(a.type).toBe("definition");
    expect(a.confidence).toBe(PRIORS.definition_are);
  });

  test("not every 'is' is a definition", () => {
    for (const s of [
      "This is important for the rest of the analysis.",
      "It is a common mistake to forget the header row.",
      "The main barrier is the endosomal membrane that prevents release.",
      "An example of this mechanism is the exchange of sodium ions and protons.",
      "One example is the construction of a targeted anti-tumor toxin.",
      "A completely different approach is the use of pore forming proteins.",
      "There is a cat on the mat in the kitchen.",
      "Safety is important in every laboratory we run.",
      "Results are consistent with the earlier findings of the group.",
      "Descriptive means and standard errors are provided in the second table.",
      "What is a closure in programming languages?",
    ]) {
      expect(ofType(s, "definition")).toEqual([]);
    }
  });
});

describe("Russian definitions", () => {
  test("X — это Y", () => {
    const a = only("Геолокация — это определение местоположения источника по данным сети датчиков.", "ru");
    expect(a).toMatchObject({
      type: "definition",
      claim: "Геолокация: определение местоположения источника по данным сети датчиков",
    });
    expect(a.confidence).toBe(PRIORS.definition_explicit);
  });

  test("X – Y (dash copula)", () => {
    const a = only("Сейсмограф – прибор для регистрации колебаний земной поверхности.", "ru");
    expect(a).toMatchObject({
      type: "definition",
      claim: "Сейсмограф: прибор для регистрации колебаний земной поверхности",
    });
    expect(a.confidence).toBe(PRIORS.definition_dash);
  });

  test("Под X понимается Y", () => {
    const a = only("Под невязкой понимается разность между фактическим и прогнозным временем прихода волны.", "ru");
    expect(a).toMatchObject({
      type: "definition",
      claim: "невязкой: разность между фактическим и прогнозным временем прихода волны",
    });
  });

  test("X называется Y: the claim is the sentence", () => {
    const s = "Прибор, регистрирующий колебания земной поверхности, называется сейсмографом.";
    expect(only(s, "ru")).toMatchObject({ type: "definition", claim: s });
  });

  test("X есть Y", () => {
    expect(only("Жизнь есть досадная ловушка.", "ru")).toMatchObject({
      type: "definition",
      claim: "Жизнь: досадная ловушка",
    });
  });

  test("dashes that are not definitions", () => {
    for (const s of [
      "Лет двенадцать – пятнадцать тому назад в городе проживал чиновник Громов.",
      "Не вы – так я, не я – так кто-нибудь третий.",
      "Это – неподвижное, обжорливое и нечистоплотное животное.",
      "– Напротив, очень рад, – отвечает ему доктор, – и всегда рад вам.",
      "По-моему, это, собственно, и называется жизнью.",
      "А вдруг оно есть на самом деле?",
      "Правда, у нас есть книги, но это совсем не то.",
    ]) {
      expect(ofType(s, "definition", "ru")).toEqual([]);
    }
  });
});

describe("glossaries", () => {
  test("a list of 'Term: definition' lines gives one definition per line", () => {
    const text =
      "Glossary\n\nLatency: the time between a request and its response.\nThroughput: the number of requests served per second.\nJitter: the variation of latency over time.";
    const defs = ofType(text, "definition");
    expect(defs.map((d) => d.claim)).toEqual([
      "Latency: the time between a request and its response",
      "Throughput: the number of requests served per second",
      "Jitter: the variation of latency over time",
    ]);
    expect(defs.every((d) => d.confidence === PRIORS.definition_glossary)).toBe(true);
  });

  test("Russian glossary with dashes", () => {
    const text =
      "Скорость — путь, пройденный телом за единицу времени.\nУскорение — изменение скорости за единицу времени.";
    expect(ofType(text, "definition", "ru").map((d) => d.claim)).toEqual([
      "Скорость: путь, пройденный телом за единицу времени",
      "Ускорение: изменение скорости за единицу времени",
    ]);
  });

  test("bulleted glossary lines ('- ', '* ', '• '; colon or dash) are definitions like their unbulleted form", () => {
    const en = [
      "API: application programming interface",
      "SDK: software development kit",
      "CLI: command-line interface for the shell",
    ];
    const ru = [
      "Интерфейс — способ взаимодействия двух систем",
      "Протокол — набор правил обмена данными",
      "Сервер — программа, обслуживающая запросы клиентов",
    ];
    const claims = (lines: string[], bullet: string, lang: string) =>
      ofType(lines.map((l) => bullet + l).join("\n"), "definition", lang).map((d) => d.claim);
    const plainEn = claims(en, "", "en");
    const plainRu = claims(ru, "", "ru");
    expect(plainEn).toEqual([
      "API: application programming interface",
      "SDK: software development kit",
      "CLI: command-line interface for the shell",
    ]);
    expect(plainRu).toEqual([
      "Интерфейс: способ взаимодействия двух систем",
      "Протокол: набор правил обмена данными",
      "Сервер: программа, обслуживающая запросы клиентов",
    ]);
    for (const bullet of ["- ", "* ", "• ", "  - "]) {
      expect([bullet, claims(en, bullet, "en")]).toEqual([bullet, plainEn]);
      expect([
        bullet,
        claims(
          en.map((l) => l.replace(": ", " — ")),
          bullet,
          "en",
        ),
      ]).toEqual([bullet, plainEn]);
      expect([bullet, claims(ru, bullet, "ru")]).toEqual([bullet, plainRu]);
    }
    const bulleted = ofType(
      "Glossary\n\n- API: application programming interface\n- SDK: software development kit",
      "definition",
    );
    expect(bulleted.map((d) => [d.quote, d.confidence])).toEqual([
      ["- API: application programming interface", PRIORS.definition_glossary],
      ["- SDK: software development kit", PRIORS.definition_glossary],
    ]);
  });

  test("a bullet does not lift the glossary rules: a lone entry, or lines of dialogue behind an en/em dash, stay out", () => {
    expect(
      ofType(
        "Terms\n\n- API: application programming interface\n\nNothing else is listed in this section.",
        "definition",
      ),
    ).toEqual([]);
    const dialogue =
      "– Андрей: ну что же, пойдём со мной в палату.\n– Михаил: нет, я останусь здесь до вечера.\n– Никита: сторож больницы и старый солдат.";
    expect(ofType(dialogue, "definition", "ru")).toEqual([]);
    expect(
      ofType(
        "— Doctor: a man who never listens to anyone.\n— Patient: a man who waits for the doctor all day.",
        "definition",
      ),
    ).toEqual([]);
  });

  test("a lone label line, speakers and credits are not glossary entries", () => {
    expect(ofType("Reminder: Nightly users can help us test Fission by enabling it.", "definition")).toEqual([]);
    expect(
      ofType(
        "Bug 1681796: Prevent superfluous actors from being associated with each tab.\n\nBug 1680796: Ensure that the actor is destroyed.",
        "definition",
      ),
    ).toEqual([]);
    expect(
      ofType(
        "Conceptualization: Paolo Rodi, Werner Obermeyer.\n\nSupervision: Werner Obermeyer, Mario Raviglione.",
        "definition",
      ),
    ).toEqual([]);
    expect(
      ofType(
        "Poet: I hear the tramp of armies far away.\n\nChild: O father it is alive and full of people.\n\nPoet: I hear the jubilant shouts of millions.",
        "definition",
      ),
    ).toEqual([]);
  });

  test("an abbreviation list becomes one definition per entry", () => {
    const text =
      "AMR, antimicrobial resistance; HIV, human immunodeficiency virus; HLM, high-level meeting; WHO, World Health Organization.";
    const defs = ofType(text, "definition");
    expect(defs.map((d) => d.claim)).toEqual([
      "AMR: antimicrobial resistance",
      "HIV: human immunodeficiency virus",
      "HLM: high-level meeting",
      "WHO: World Health Organization",
    ]);
    expect(defs[3].quote).toBe("WHO, World Health Organization");
  });

  test("a definition links the atoms that use its term", () => {
    const atoms = atomsOf(
      "Ricin is a plant protein with two chains. Ricin binds to cell surfaces within minutes of exposure.",
    );
    expect(atoms.map((a) => a.type)).toEqual(["definition", "text"]);
    expect(atoms[1].links).toEqual([{ to: 0, kind: "reference" }]);
  });
});
