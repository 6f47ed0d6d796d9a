import { describe, expect, test } from "bun:test";
import { extractMentions } from "../../../src/domain/entities/mentions.ts";
import type { EntityMention } from "../../../src/domain/entities/types.ts";

const brief = (ms: EntityMention[]) => ms.map((m) => [m.surface, m.name, m.kind]);

describe("extractMentions: Russian names in any case", () => {
  test("every case of «Андрей Ефимыч» gives one name and key", () => {
    const text =
      "Андрей Ефимыч вошел. Он пришел к Андрею Ефимычу и застал Андрея Ефимыча за книгой, а потом говорил с Андреем Ефимычем.";
    const ms = extractMentions(text, "ru");
    expect(ms.map((m) => m.surface)).toEqual(["Андрей Ефимыч", "Андрею Ефимычу", "Андрея Ефимыча", "Андреем Ефимычем"]);
    expect(new Set(ms.map((m) => m.key))).toEqual(new Set(["андрей ефимыч"]));
    expect(ms.every((m) => m.name === "Андрей Ефимыч" && m.kind === "person")).toBe(true);
    for (const m of ms) expect(text.slice(m.start, m.end)).toBe(m.surface);
  });
  test("full patronymics, feminine names and a surname after them", () => {
    expect(brief(extractMentions("Письмо Ивану Дмитриевичу Громову пришло от Анны Сергеевны.", "ru"))).toEqual([
      ["Ивану Дмитриевичу Громову", "Иван Дмитриевич Громов", "person"],
      ["Анны Сергеевны", "Анна Сергеевна", "person"],
    ]);
  });
  test("a title before a lower-case name cue and sentence-initial ordinary words skipped", () => {
    const ms = extractMentions("Совершенно верно. Потом доктор Хоботов ушел, а Никиту позвали.", "ru");
    expect(brief(ms)).toEqual([
      ["Хоботов", "Хоботов", "person"],
      ["Никиту", "Никита", "person"],
    ]);
  });
});

describe("extractMentions: English", () => {
  test("possessives keep the surface and drop the ending from the name", () => {
    const [m] = extractMentions("We stayed at Alice's house.", "en");
    expect([m.surface, m.name, m.key]).toEqual(["Alice's", "Alice", "alice"]);
  });
  test("initials stay inside one name, in both scripts", () => {
    expect(extractMentions("The book by J. R. R. Tolkien sold well.", "en").map((m) => m.name)).toEqual([
      "J. R. R. Tolkien",
    ]);
    expect(extractMentions("Рассказ написал А. П. Чехов.", "ru").map((m) => m.name)).toEqual(["А. П. Чехов"]);
  });
  test("titles are cues, not part of the name", () => {
    expect(brief(extractMentions("Yesterday Dr. Smith met Mr. Hotta.", "en"))).toEqual([
      ["Smith", "Smith", "person"],
      ["Hotta", "Hotta", "person"],
    ]);
  });
  test("sentence-initial ordinary words and headings are no names", () => {
    expect(extractMentions("Nonsense, I thought. Besides, it was late. However, nobody came.", "en")).toEqual([]);
    expect(extractMentions("Install Engine Prerequisites", "en")).toEqual([]);
  });
});

describe("extractMentions: kinds", () => {
  test("organisations, software, places and works by their cues", () => {
    const text = "She joined Acme Inc. in Tokyo and used the React library. Он работает в компании «Ромашка».";
    expect(brief(extractMentions(text, "und"))).toEqual([
      ["Acme Inc", "Acme Inc", "organisation"],
      ["Tokyo", "Tokyo", "place"],
      ["React", "React", "software"],
      ["Ромашка", "Ромашка", "organisation"],
    ]);
    expect(brief(extractMentions("Чехов написал рассказ «Палата № 6».", "ru"))).toContainEqual([
      "Палата № 6",
      "Палата № 6",
      "work",
    ]);
  });
});

describe("extractMentions: more case forms, negatives and cues", () => {
  test("case forms of a name without a patronymic come back to the nominative when the ending is sure", () => {
    const text = "Хоботов пришел. Все говорили с Хоботовым и о Хоботове, а Никиту и Дарьюшки не было.";
    expect(extractMentions(text, "ru").map((m) => [m.surface, m.name])).toEqual([
      ["Хоботов", "Хоботов"],
      ["Хоботовым", "Хоботов"],
      ["Хоботове", "Хоботов"],
      ["Никиту", "Никита"],
      ["Дарьюшки", "Дарьюшка"],
    ]);
  });
  test("a feminine patronymic and a woman's surname in -ой", () => {
    expect(extractMentions("Он жил у Матрены Савишны в домике мещанки Беловой.", "ru").map((m) => m.name)).toEqual([
      "Матрена Савишна",
      "Белова",
    ]);
  });
  test("Russian sentence-initial words, gerunds and dialogue in guillemets are no names", () => {
    const text =
      "Половина жалованья уходит на книги. Осмотрев больных, он ушел. Тишина. Он крикнул: «Совершенно верно!»";
    expect(extractMentions(text, "ru")).toEqual([]);
  });
  test("a place after a preposition in any case, by the gazetteer", () => {
    expect(brief(extractMentions("Он жил в Варшаве, потом уехал из Петербурга в Москву.", "ru"))).toEqual([
      ["Варшаве", "Варшава", "place"],
      ["Петербурга", "Петербург", "place"],
      ["Москву", "Москва", "place"],
    ]);
  });
  test("curly possessives, Japanese honorifics and a split at a patronymic", () => {
    expect(brief(extractMentions("It is V8’s license. Koga-san left.", "en"))).toEqual([
      ["V8’s", "V8", "software"],
      ["Koga-san", "Koga", "person"],
    ]);
    expect(extractMentions("В Москве Михаил Аверьяныч надел сюртук.", "ru").map((m) => m.name)).toEqual([
      "Москва",
      "Михаил Аверьяныч",
    ]);
  });
  test("institution names keep their inner 'for'/'and', demonyms and acronyms", () => {
    const text = "We thank the European Space Agency (ESA) and the Institute for Advanced Study.";
    expect(brief(extractMentions(text, "en"))).toEqual([
      ["European Space Agency", "European Space Agency", "organisation"],
      ["ESA", "ESA", "organisation"],
      ["Institute for Advanced Study", "Institute for Advanced Study", "organisation"],
    ]);
  });
  test("shouting, code identifiers, contractions and greetings are no names", () => {
    expect(extractMentions("YOU AGREE THAT the STANDALONE_WASM flag is set. Isn't it? Bye Joanna!", "en")).toEqual([
      expect.objectContaining({ surface: "Joanna", kind: "person" }),
    ]);
  });
  test("log lines: severity words are no names, the service they name is", () => {
    const text =
      "INFO api 3: request handled in 5 ms.\nWARN worker 1: connection closed by Acme Gateway.\nERROR db 2: failed.";
    expect(extractMentions(text, "en").map((m) => m.surface)).toEqual(["Acme Gateway"]);
  });
  test("quoted titles: two title-case words or a cue; dialogue lines are not titles", () => {
    const text = 'I loved "The Name of the Wind" and we watch "Elf" a lot. "Nonsense," he said. He said "Umh".';
    expect(brief(extractMentions(text, "en"))).toEqual([
      ["The Name of the Wind", "The Name of the Wind", "work"],
      ["Elf", "Elf", "work"],
    ]);
  });
});

describe("extractMentions: software at a sentence start, accusatives, title-case slogans", () => {
  test("known software opens a sentence as a name; software that is an everyday word does not", () => {
    expect(brief(extractMentions("Kubernetes runs it. Docker is licensed under it. Windows were open.", "en"))).toEqual(
      [
        ["Kubernetes", "Kubernetes", "software"],
        ["Docker", "Docker", "software"],
      ],
    );
  });
  test("a feminine accusative after «в»/«на» comes back to -а/-я; a dative after «к» is left alone", () => {
    expect(
      brief(extractMentions("Он смотрел на Землю, потом уехал в Кострому, а письмо отдал к Рагину.", "ru")),
    ).toEqual([
      ["Землю", "Земля", "place"],
      ["Кострому", "Кострома", "place"],
      ["Рагину", "Рагин", "person"],
    ]);
  });
  test("a title-case slogan in quotation marks is no name; a gazetteer name in it still is", () => {
    expect(
      brief(extractMentions('A flag read "Long Live the Empire!" and another "Greetings From Tokyo Bay!"', "en")),
    ).toEqual([["Tokyo Bay", "Tokyo Bay", "place"]]);
  });
});

describe("extractMentions: appositives at a sentence start and lists of quoted names", () => {
  test("a sentence-initial word with an appositive after it is a name; a connective is not", () => {
    const ms = extractMentions("Marionette, the framework for tests, is ready. Moreover, the tests pass.", "en");
    expect(ms.map((m) => m.surface)).toEqual(["Marionette"]);
  });
  test("a word addressed before a question to 'you' is a name; an interjection is not", () => {
    const ms = extractMentions("Yoshikawa, what do you think? Look, what do you want? Dude, are you in?", "en");
    expect(ms.map((m) => m.surface)).toEqual(["Yoshikawa"]);
  });
  test("every name of a list in quotation marks", () => {
    const ms = extractMentions("Derivatives such as “Kubuntu”, “Lubuntu” or “Xubuntu” work too.", "en");
    expect(ms.map((m) => m.surface)).toEqual(["Kubuntu", "Lubuntu", "Xubuntu"]);
  });
});

describe("extractMentions: imperatives, name-adjectives, stressed words, objects of past-tense verbs", () => {
  test("an imperative opening a sentence is not the first word of the name after it", () => {
    const ms = extractMentions("Visit Mozilla Corporation's parent. Install Docker Engine on Ubuntu.", "en");
    expect(ms.map((m) => m.surface)).toEqual(["Mozilla Corporation's", "Docker Engine", "Ubuntu"]);
  });
  test("a name with a lower-case participle and a compound of nationalities are no names", () => {
    const text = "Run it in WASI-supporting runtimes; the Sino-Japanese talks went on. Kin-nosuke Natsume wrote.";
    expect(extractMentions(text, "en").map((m) => m.surface)).toEqual(["Kin-nosuke Natsume"]);
  });
  test("a lone capitalised gerund or abstract noun inside a sentence is no name; a known name is", () => {
    const ms = extractMentions(
      "The festival focused on Learning, then Beijing. See Getting started with Docker.",
      "en",
    );
    expect(ms.map((m) => m.surface)).toEqual(["Beijing", "Docker"]);
  });
  test("a surname in -ова after a masculine or plural past-tense verb is a man's, in the accusative", () => {
    expect(brief(extractMentions("Он благодарил Хоботова. Мы позвали Петрова.", "ru"))).toEqual([
      ["Хоботова", "Хоботов", "person"],
      ["Петрова", "Петров", "person"],
    ]);
    // A feminine verb agrees with a woman as subject: the name stays.
    expect(brief(extractMentions("Вчера пришла Петрова.", "ru"))).toEqual([["Петрова", "Петрова", "person"]]);
  });
});

describe("extractMentions: rules grounded in the fixtures' text (issue 22 item 4)", () => {
  test("Russian diminutives of known first names open a sentence as names; common nouns in -ушка do not", () => {
    expect(brief(extractMentions("Мойсейка любит услуживать.", "ru"))).toEqual([["Мойсейка", "Мойсейка", "person"]]);
    expect(brief(extractMentions("– Дарьюшка, как бы мне пообедать…", "ru"))).toEqual([
      ["Дарьюшка", "Дарьюшка", "person"],
    ]);
    expect(extractMentions("Девушка вошла. Бабушка спала. Сумка упала.", "ru")).toEqual([]);
  });
  test("the last word of the sentence before does not govern a sentence-initial name's case", () => {
    const ms = extractMentions("Мещанке Беловой тоже должны. Дарьюшка потихоньку продает старые платья.", "ru");
    expect(ms.map((m) => m.name)).toEqual(["Белова", "Дарьюшка"]);
  });
  test("the dot of a Russian abbreviation ends no sentence; a scholar's name after «метод» is a genitive", () => {
    expect(extractMentions("Университет, пр. Карла Маркса 20, Новосибирск", "ru").map((m) => m.name)).toContain(
      "Карл Маркс",
    );
    expect(brief(extractMentions("Итерационный метод Гаусса-Ньютона и метод Качмажа [12].", "ru"))).toEqual([
      ["Гаусса-Ньютона", "Гаусс-Ньютон", "person"],
      ["Качмажа", "Качмаж", "person"],
    ]);
  });
  test("a capital after a spaced dash opens a clause; a lone Roman numeral is no name", () => {
    const ms = extractMentions("Bug 1681796 – Prevent superfluous PictureInPictureParent actors", "en");
    expect(ms.map((m) => m.surface)).toEqual(["PictureInPictureParent"]);
    expect(
      extractMentions("Marionette Fission – Making Marionette Fission compatible", "en").map((m) => m.surface),
    ).toEqual(["Marionette Fission", "Marionette Fission"]);
    expect(extractMentions("XIV\nДоктор ходил, смотрел, ел, пил.", "ru")).toEqual([]);
    expect(extractMentions("Plus, painting helps me. Anyways, how are you holding up?", "en")).toEqual([]);
  });
  test("a sentence-initial plural governing 'of' heads a phrase; an interjection before a question is no vocative", () => {
    const text = "Users of Debian derivatives such as Kali should follow the instructions for Debian.";
    expect(extractMentions(text, "en").map((m) => m.surface)).toEqual(["Debian", "Kali", "Debian"]);
    expect(extractMentions("University of Tokyo students came.", "en").map((m) => m.surface)).toEqual([
      "University of Tokyo",
    ]);
    expect(extractMentions('"Say, where are you stopping?"', "en")).toEqual([]);
    expect(extractMentions("Yoshikawa, what do you think of it?", "en").map((m) => m.surface)).toEqual(["Yoshikawa"]);
  });
  test("a lone plain capitalised word heading a phrase after 'a'/'some' is a common noun; attributive names stay", () => {
    expect(extractMentions("We even played some Chess afterward just for fun.", "en")).toEqual([]);
    expect(
      extractMentions("Yeah, Nate! A fellow Chef in the kitchen is a great help!", "en").map((m) => m.surface),
    ).toEqual(["Nate"]);
    expect(extractMentions("Whether it was a Madonna or a kodanna, they let it pose.", "en")).toEqual([]);
    const kept = "A Docker employee helps. It runs on an ARMv7 CPU. We got another cat named Bailey.";
    expect(extractMentions(kept, "en").map((m) => m.surface)).toEqual(["Docker", "ARMv7", "Bailey"]);
  });
  test("a title of two or more title-case words in single quotes is one name; the capitals' kind wins when equal", () => {
    const text = "Here's one- 'Embracing Identity' is about comfort. Our group, 'Connected LGBTQ Activists', meets.";
    expect(brief(extractMentions(text, "en"))).toEqual([
      ["Embracing Identity", "Embracing Identity", "work"],
      ["Connected LGBTQ Activists", "Connected LGBTQ Activists", "work"],
    ]);
    const nicknames = "'Badger' for the principal, 'Red Shirt' for the head-teacher.";
    expect(brief(extractMentions(nicknames, "en"))).toEqual([["Red Shirt", "Red Shirt", "person"]]);
    expect(extractMentions("We saw Kiyo's house and the students' room.", "en").map((m) => m.surface)).toEqual([
      "Kiyo's",
    ]);
  });
  test("a quoted title keeps its name without the full stop only after a naming word", () => {
    const text = 'We just did a contemporary piece called "Finding Freedom." It was really emotional.';
    expect(brief(extractMentions(text, "en"))).toEqual([["Finding Freedom", "Finding Freedom", "work"]]);
    expect(extractMentions('"I\'m a Yedo kid." "Ah, I see."', "en").map((m) => m.surface)).toEqual(["Yedo"]);
  });
});

describe("extractMentions: everyday English words and defined abbreviations (issue 22 item 4)", () => {
  const surfaces = (text: string, lang = "en") => extractMentions(text, lang).map((m) => m.surface);
  test("a lone capitalised everyday word with no sign of a name is a label or a stress", () => {
    expect(surfaces("Click Cancel to close the dialog, or Reply.")).toEqual([]);
    expect(surfaces("Remember that epic block in Game 7 of the Finals?")).toEqual([]);
    expect(surfaces("The team works on Virtual reality tools and Media.")).toEqual([]);
  });
  test("evidence keeps an everyday word as a name: a naming phrase, a second capital, a title, a possessive", () => {
    expect(surfaces("Her name is Shadow!")).toEqual(["Shadow"]);
    expect(surfaces("We met the Pocket team, and Pocket shipped a fix.")).toEqual(["Pocket", "Pocket"]);
    expect(surfaces("Captain Hook sailed away.")).toEqual(["Hook"]);
    expect(surfaces("They support the Manifesto's principles.")).toEqual(["Manifesto's"]);
    // Frequent surnames and gazetteer names that are everyday words too.
    expect(surfaces("Nobody answered when Smith called from Windows.")).toEqual(["Smith", "Windows"]);
  });
  test("an everyday word opening a sentence before a known name is dropped; otherwise the run stays whole", () => {
    expect(surfaces("Gay Firefox developers met.")).toEqual(["Firefox"]);
    expect(surfaces("Represent Mozilla in your country, as the Mozilla team asks.")).toEqual(["Mozilla", "Mozilla"]);
    expect(surfaces("New York: United Nations; 2001. Van Oosterhout wrote it.")).toEqual([
      "New York",
      "United Nations",
      "Van Oosterhout",
    ]);
    expect(surfaces("Red Shirt laughed. Project Gutenberg is a trademark.")).toEqual([
      "Red Shirt",
      "Project Gutenberg",
    ]);
  });
  test("everyday words in a line of labels are no name; the same words alone on a line are", () => {
    expect(surfaces("Supported platforms Desktop Server Other Linux distributions")).toEqual(["Linux"]);
    expect(surfaces("Red Hat\nSome text follows here.")).toEqual(["Red Hat"]);
  });
  test("one everyday word in quotes is cited, not named, unless it is someone's", () => {
    expect(surfaces('For exceptions, see "Values" section below.')).toEqual([]);
    expect(brief(extractMentions('I love Ed Sheeran\'s "Perfect" a lot.', "en"))).toEqual([
      ["Ed Sheeran's", "Ed Sheeran", "person"],
      ["Perfect", "Perfect", "work"],
    ]);
  });
  test("a party adjective alone is no name; a title in the sentence before titles nobody", () => {
    expect(brief(extractMentions("He was the Republican candidate; the Republican Party won.", "en"))).toEqual([
      ["Republican Party", "Republican Party", "organisation"],
    ]);
    expect(surfaces('"Not the boss, but the old lady." "Makes no difference."')).toEqual([]);
  });
  test("an acronym defined for lower-case words names nothing there or later; one for a capitalised name does", () => {
    const text =
      "Long-term head-down tilt bed rest (HDBR) was studied. After HDBR and non-communicable diseases (NCDs, 2011).";
    expect(surfaces(text)).toEqual([]);
    expect(surfaces("We thank the European Space Agency (ESA) for help.")).toEqual(["European Space Agency", "ESA"]);
  });
  test("Russian: the English word list leaves Cyrillic words alone; abbreviations follow the same rule", () => {
    expect(brief(extractMentions("Потом Хоботов ушел, а Никиту позвали в Москву.", "ru"))).toEqual([
      ["Хоботов", "Хоботов", "person"],
      ["Никиту", "Никита", "person"],
      ["Москву", "Москва", "place"],
    ]);
    expect(surfaces("Доктор Рагин пришел, а Мир и Роза молчали.", "ru")).toEqual(["Рагин", "Мир", "Роза"]);
    expect(surfaces("Поражение центральной нервной системы (ЦНС) лечат долго.", "ru")).toEqual([]);
  });
});
