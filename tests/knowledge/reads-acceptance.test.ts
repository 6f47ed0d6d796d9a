/**
 * Issue 20 acceptance for the two retrieval tools, as a model receives them (in-process MCP client over one copy of
 * the shared fixtures store): 48 questions of our own, Russian and English, several per fixture document, asked of
 * memory_get_context at budgets 150, 300, 1000 and 4000 — the text content and the JSON of the structured content
 * both within the budget (o200k) every time, and at budgets ≥ 300 the document that answers cited (its file named
 * among the sources) in ≥ 90 % of them; memory_search with k 10 within its default 1,500 tokens in both forms.
 * Prints the measured shares.
 */
import { describe, expect, test } from "bun:test";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { suiteFixturesStore } from "../support/fixtures-store.ts";
import { suiteMcpClient, toolCalls, type ToolResult } from "../support/mcp-client.ts";

const t = suiteFixturesStore();
const mcp = suiteMcpClient(t);
const { call } = toolCalls(mcp, 120_000);

const CHEKHOV = "ru_chekhov_palata_no6.txt";
const BOTCHAN = "en_gutenberg_8868_botchan.txt";
const TOXINS = "en_paper_mdpi_toxins_2016_ligatures.pdf";
const BEDREST = "en_paper_npj_2020_two_column_ligatures.pdf";
const UN = "en_paper_plosmed_2022_single_column.pdf";
const GEO = "ru_paper_iccsde_2024_geoacoustics.pdf";
const ALICE = "en_epub3_alice_in_wonderland.epub";
const LEAVES = "en_epub2_leaves_of_grass_gutenberg.epub";
const MOZILLA = "en_wikipedia_mozilla.html";
const V8 = "en_blog_v8dev_emscripten_standalone_wasm.html";
const NIGHTLY = "en_blog_firefox_nightly_issue85.html";
const DOCKER = "en_docs_docker_install_engine.html";

/** Question → the fixture file that answers it. */
const QUESTIONS: [string, string][] = [
  ["Кто такой Иван Дмитрич Громов?", CHEKHOV],
  ["Сколько больных лежит в палате № 6?", CHEKHOV],
  ["Как сторож Никита обращается с больными?", CHEKHOV],
  ["Отчего умер доктор Андрей Ефимыч?", CHEKHOV],
  ["Кто такой Мойсейка и чем он занят в городе?", CHEKHOV],
  ["Почему Громова перевели в палату для душевнобольных?", CHEKHOV],
  ["Кто такой почтмейстер Михаил Аверьяныч?", CHEKHOV],
  ["Что думал Андрей Ефимыч о страдании и боли?", CHEKHOV],
  ["Why did Botchan jump from the second floor of the school building?", BOTCHAN],
  ["Who is Kiyo and how did she treat Botchan?", BOTCHAN],
  ["What nickname was given to the head teacher, Red Shirt?", BOTCHAN],
  ["What did the students put into Botchan's bed in the dormitory?", BOTCHAN],
  ["Where is Kiyo's grave?", BOTCHAN],
  ["What monthly salary was Botchan offered as a teacher of mathematics?", BOTCHAN],
  ["Which drug augmented the cytotoxicity of the immunotoxin T101-RTA 50,000 fold?", TOXINS],
  ["What was the first targeted protein toxin approved, DAB389IL-2?", TOXINS],
  ["How do endosomal escape enhancers increase the efficacy of immunotoxins?", TOXINS],
  ["How much did chloroquine enhance the immunotoxin T101-RTA?", TOXINS],
  ["Does regular exercise shift the circadian phase of core body temperature during head-down tilt bed rest?", BEDREST],
  ["Where was the thermistor for core body temperature inserted?", BEDREST],
  ["On which days of bed rest were the data collected?", BEDREST],
  ["What criteria evaluated the outcomes of UN General Assembly high-level meetings on health?", UN],
  ["Which health topics had high-level meetings at the UN General Assembly, such as HIV/AIDS and NCDs?", UN],
  ["How many people fall into poverty each year where universal health coverage is not implemented?", UN],
  ["Какие методы решения обратной задачи геоакустики сравниваются?", GEO],
  ["Какова точность определения местоположения источника сейсмических волн?", GEO],
  ["Сколько точек взрывов вводится в программу расчёта?", GEO],
  ["Как оцениваются экологические риски по плотности акустической энергии?", GEO],
  ["В рамках какого госзадания выполнена работа по геоакустике?", GEO],
  ["What happened when Alice drank from the bottle labelled DRINK ME?", ALICE],
  ["Who was at the mad tea party with the Hatter and the March Hare?", ALICE],
  ["What game did the Queen play with flamingos and hedgehogs?", ALICE],
  ["What did the Caterpillar ask Alice while smoking a hookah?", ALICE],
  ["Whitman: I celebrate myself, and sing myself", LEAVES],
  ["O Captain! my Captain! our fearful trip is done", LEAVES],
  ["When lilacs last in the dooryard bloom'd", LEAVES],
  ["When was the name Firefox chosen for Mozilla's browser?", MOZILLA],
  ["What is SpiderMonkey, the JavaScript engine of Mozilla?", MOZILLA],
  ["What was Mozilla's total revenue in 2011?", MOZILLA],
  ["What is Mozilla Persona?", MOZILLA],
  ["How small is the standalone WebAssembly add program built with Emscripten, in bytes?", V8],
  ["Does Emscripten use WASI APIs in standalone Wasm builds?", V8],
  ["Which features like C++ exceptions, setjmp and pthreads depend on JavaScript in Wasm?", V8],
  ["How do I disable tab-to-search in Firefox 85?", NIGHTLY],
  ["Can Mozilla-signed privileged addons be installed from a third party website in Firefox 85?", NIGHTLY],
  ["On which platforms is Docker Engine available?", DOCKER],
  ["Under what license is Docker Engine released?", DOCKER],
  ["How are Docker Engine release branches named, year and month?", DOCKER],
];
const BUDGETS = [150, 300, 1000, 4000];

const textOf = (r: ToolResult) => (r.content as Array<{ text: string }>)[0].text;
const sizes = (r: ToolResult) => ({
  text: countTokens(textOf(r)),
  json: countTokens(JSON.stringify(r.structuredContent)),
});

describe("what a model reads from the retrieval tools on the fixtures store", () => {
  test("memory_get_context: within the budget in both forms; the answering document cited at budgets ≥ 300", async () => {
    expect(QUESTIONS.length).toBeGreaterThanOrEqual(40);
    const over: string[] = [];
    const cited = new Map<number, number>(BUDGETS.map((b) => [b, 0]));
    const missed: string[] = [];
    for (const [question, file] of QUESTIONS) {
      for (const budget of BUDGETS) {
        const r = await call("memory_get_context", { question, budget_tokens: budget });
        expect(r.isError).toBeFalsy();
        const { text, json } = sizes(r);
        if (text > budget || json > budget) over.push(`${budget}: ${question} (text ${text}, json ${json})`);
        if (textOf(r).includes(file)) cited.set(budget, (cited.get(budget) ?? 0) + 1);
        else if (budget === 1000) missed.push(question);
      }
    }
    const share = (b: number) => (cited.get(b) ?? 0) / QUESTIONS.length;
    console.log(
      `memory_get_context on ${QUESTIONS.length} questions: answering document cited at ${BUDGETS.map((b) => `${b}: ${(100 * share(b)).toFixed(1)} %`).join(", ")}; over budget: ${over.length}`,
    );
    if (missed.length) console.log(`not cited at 1000: ${missed.join(" | ")}`);
    expect(over).toEqual([]);
    for (const b of BUDGETS.filter((x) => x >= 300)) expect(share(b)).toBeGreaterThanOrEqual(0.9);
  }, 300_000);

  test("memory_search k 10: within the default 1,500 tokens in both forms; snippets, not whole passages", async () => {
    let max = 0;
    for (const [query] of QUESTIONS) {
      const r = await call("memory_search", { query, k: 10 });
      expect(r.isError).toBeFalsy();
      const { text, json } = sizes(r);
      max = Math.max(max, text, json);
      expect(textOf(r)).not.toContain('"atom_id"');
    }
    console.log(`memory_search k 10 over ${QUESTIONS.length} queries: at most ${max} tokens`);
    expect(max).toBeLessThanOrEqual(1500);

    // A small max_tokens shows fewer hits of the page; its cursor goes on from the first one left out.
    const query = "Иван Дмитрич Громов";
    const whole = (await call("memory_search", { query, k: 10, response_format: "detailed" })).structuredContent as {
      hits: { atom_id: number }[];
    };
    const small = await call("memory_search", { query, k: 10, max_tokens: 300 });
    const { hits, next_cursor } = small.structuredContent as { hits: { atom_id: number }[]; next_cursor: string };
    expect(Math.max(sizes(small).text, sizes(small).json)).toBeLessThanOrEqual(300);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThan(10);
    expect(textOf(small)).toContain(`next_cursor: ${next_cursor}`);
    const next = await call("memory_search", { query, k: 10, cursor: next_cursor });
    expect((next.structuredContent as { hits: { atom_id: number }[] }).hits[0].atom_id).toBe(
      whole.hits[hits.length].atom_id,
    );
  }, 300_000);
});
