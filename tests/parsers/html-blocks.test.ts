/** The HTML parser's Markdown for code and tables (block-text.ts, code-block.ts, markdown-table.ts). */
import { describe, expect, test } from "bun:test";
import { parseHTML } from "linkedom";
import { blockParagraphs, blockText, type TextNodeLike } from "../../src/adapters/parsers/html/block-text.ts";
import { BLOCK_PIECE_CHARS, splitLines } from "../../src/adapters/parsers/html/code-block.ts";
import { htmlParser } from "../../src/adapters/parsers/html/index.ts";
import { distillText } from "../../src/adapters/distiller/heuristic/index.ts";
import type { ParseLimits } from "../../src/ports/models/parser.ts";

const LIMITS: ParseLimits = {
  maxBytes: 10 << 20,
  maxZipEntries: 100,
  maxZipTotalBytes: 1 << 20,
  maxZipEntryBytes: 1 << 20,
};

function body(html: string): TextNodeLike {
  return parseHTML(`<!doctype html><html><body>${html}</body></html>`).document.body as unknown as TextNodeLike;
}

const text = (html: string): string => blockText(body(html));
const paras = (html: string): string[] => blockParagraphs(body(html));

/** A page Readability accepts as an article (it strips classes from what it returns). */
function article(inner: string, lang = "en"): Uint8Array {
  const prose =
    lang === "ru"
      ? "<p>Этот абзац нужен, чтобы Readability признал страницу статьёй: в нём достаточно слов, запятых и смысла, чтобы набрать баллы.</p>"
      : "<p>This paragraph is here so that Readability takes the page for an article: it has enough words, commas, and sense to score.</p>";
  const html =
    `<!doctype html><html lang="${lang}"><head><title>T</title></head><body><nav>Home | About</nav>` +
    `<article><h1>T</h1>${prose.repeat(4)}${inner}${prose}</article></body></html>`;
  return new TextEncoder().encode(html);
}

async function parsed(inner: string, lang = "en"): Promise<string> {
  const doc = await htmlParser.parse({ bytes: article(inner, lang), uri: "https://example.org/a" }, LIMITS);
  return doc.sections[0].text;
}

describe("<pre> as fenced code", () => {
  test("the language comes from the classes highlighters write, on pre, code or a wrapper", () => {
    const cases: [string, string][] = [
      ['<pre class="language-js">let a = 1;</pre>', "js"],
      ['<pre><code class="lang-python">x = 1</code></pre>', "python"],
      ['<div class="highlight highlight-source-rust"><pre>fn main() {}</pre></div>', "rust"],
      ['<pre class="brush: ruby; gutter: false">puts 1</pre>', "ruby"],
      ['<pre class="sourceCode haskell">main = print 1</pre>', "haskell"],
      [
        '<div class="language-bash highlighter-rouge"><div class="highlight"><pre class="highlight"><code>ls -la</code></pre></div></div>',
        "bash",
      ],
      ['<pre class="language-plaintext">plain</pre>', ""],
      ['<pre class="highlight"><code>0.0.0-YYYY</code></pre>', ""],
    ];
    for (const [html, lang] of cases) expect([html, text(html).split("\n")[0]]).toEqual([html, `\`\`\`${lang}`]);
  });

  test("Readability strips classes; the language survives it", async () => {
    const out = await parsed(
      '<div class="language-bash highlighter-rouge"><div class="highlight"><pre class="highlight"><code>sudo apt-get update\nsudo apt-get install docker-ce</code></pre></div></div>',
    );
    expect(out).toContain("\n\n```bash\nsudo apt-get update\nsudo apt-get install docker-ce\n```\n\n");
  });

  test("whitespace as rendered: first newline dropped, indentation kept, <br> and line wrappers as newlines", () => {
    expect(text("<pre>\n  indented\n\tx &lt; y&nbsp;z\n\n</pre>")).toBe("```\n  indented\n\tx < y z\n```");
    expect(text("<pre><code>a<br>b<br><br>c</code></pre>")).toBe("```\na\nb\n\nc\n```");
    expect(text('<pre><div class="line">one</div><div class="line">two</div></pre>')).toBe("```\none\ntwo\n```");
    expect(text("<pre>   </pre><p>after</p>")).toBe("after");
  });

  test("a fence longer than any backtick run inside, so Markdown in code stays code", () => {
    expect(text("<pre>Write:\n```js\nx()\n```</pre>")).toBe("````\nWrite:\n```js\nx()\n```\n````");
  });

  test("a long block is cut at line ends into fenced pieces with the same language, nothing lost", () => {
    const lines = Array.from({ length: 200 }, (_, i) => (i % 20 === 19 ? "" : `  call_${i}(argument_${i});`));
    const out = paras(`<pre class="language-c">${lines.join("\n")}</pre>`);
    expect(out.length).toBeGreaterThan(3);
    for (const p of out) {
      expect(p.length).toBeLessThanOrEqual(BLOCK_PIECE_CHARS);
      expect(p.startsWith("```c\n") && p.endsWith("\n```")).toBe(true);
    }
    const bodies = out.flatMap((p) => p.slice(5, -4).split("\n")).filter((l) => l.trim());
    expect(bodies).toEqual(lines.filter((l) => l.trim()));
  });

  // Linear, not timed: a quadratic split of 600 KB of blank lines would run far past the test's limit.
  test("splitLines prefers a blank line in the later half and is linear on hostile input", () => {
    expect(splitLines("aaaa\nbbbb\n\ncccc\ndddd", 16)).toEqual(["aaaa\nbbbb", "cccc\ndddd"]);
    expect(splitLines("x".repeat(50), 10)).toEqual(["x".repeat(50)]);
    expect(splitLines("a\n\n".repeat(200_000), 800).length).toBeGreaterThan(100);
  });
});

describe("<table> as Markdown", () => {
  test("a header row from <thead> (or a first row of <th>), a separator, image cells as their alt text", () => {
    const html =
      "<table><thead><tr><th>OS</th><th>amd64</th></tr></thead><tbody>" +
      '<tr><td>Debian</td><td><img alt="yes" src="c.svg"></td></tr><tr><td>RHEL</td><td></td></tr></tbody></table>';
    expect(text(html)).toBe("| OS | amd64 |\n| --- | --- |\n| Debian | yes |\n| RHEL |  |");
    expect(text(html.replace(/<\/?thead>/g, ""))).toBe("| OS | amd64 |\n| --- | --- |\n| Debian | yes |\n| RHEL |  |");
  });

  test("an infobox: caption line, key | value rows, lists joined by '; ', file-name alts dropped", () => {
    const html =
      '<table class="infobox"><caption>Яндекс</caption><tr><td colspan="2"><img alt="Yandex logo.svg"></td></tr>' +
      "<tr><th>Основана</th><td>23 сентября 1997</td></tr><tr><th>Продукты</th><td><ul><li>Поиск</li><li>Карты</li></ul></td></tr></table>";
    expect(text(html)).toBe("Table: Яндекс\n| Основана | 23 сентября 1997 |\n| Продукты | Поиск; Карты |");
  });

  test("colspan pads with empty cells, rowspan repeats the value below, pipes and backslashes are escaped", () => {
    const html =
      "<table><tr><th>A</th><th>B</th><th>C</th></tr>" +
      '<tr><td rowspan="2">x|y</td><td colspan="2">wide</td></tr><tr><td>b2</td><td>c\\2</td></tr></table>';
    expect(text(html)).toBe("| A | B | C |\n| --- | --- | --- |\n| x\\|y | wide |  |\n| x\\|y | b2 | c\\\\2 |");
  });

  test("layout tables stay one paragraph per row: role=presentation, nested tables, long cells, one row", () => {
    expect(paras('<table role="presentation"><tr><td>Commons</td><td>has media</td></tr></table>')).toEqual([
      "Commons | has media",
    ]);
    const nested = "<table><tr><th>a</th><td><table><tr><td>in</td><td>ner</td></tr></table></td></tr></table>";
    expect(paras(nested)).toEqual(["a |", "in | ner"]);
    const long = `<table><tr><th>k</th><th>v</th></tr><tr><td>x</td><td>${"word ".repeat(80)}</td></tr></table>`;
    expect(paras(long)[0]).toBe("k | v");
    expect(paras("<table><tr><td>only</td><td>one row</td></tr></table>")).toEqual(["only | one row"]);
  });

  test("a long table is cut into pieces, each with the caption and the header again", () => {
    const rows = Array.from({ length: 120 }, (_, i) => `<tr><td>row ${i}</td><td>${i * 7} km</td></tr>`).join("");
    const out = paras(`<table><caption>Distances</caption><tr><th>Place</th><th>Distance</th></tr>${rows}</table>`);
    expect(out.length).toBeGreaterThan(2);
    for (const p of out) {
      expect(p.length).toBeLessThanOrEqual(BLOCK_PIECE_CHARS);
      expect(p.startsWith("Table: Distances\n| Place | Distance |\n| --- | --- |\n| row ")).toBe(true);
    }
    expect(out.join("\n").match(/\| row \d+ \|/g)).toHaveLength(120);
  });

  test("hostile tables stay bounded: huge spans, deep nesting, many rows", () => {
    expect(
      text('<table><tr><th colspan="999999">a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>').split("\n")[0],
    ).toContain(" | ");
    const deep = "<table><tr><td>x".repeat(3000) + "</td></tr></table>".repeat(3000);
    expect(text(deep).length).toBeGreaterThan(0);
    const many = `<table><tr><th>n</th><th>sq</th></tr>${Array.from({ length: 20_000 }, (_, i) => `<tr><td>${i}</td><td>${i * i}</td></tr>`).join("")}</table>`;
    expect(paras(many).length).toBeGreaterThan(100);
  });
});

describe("what the heuristic distiller makes of it", () => {
  test("a Russian page: a table atom with its header and a code atom with its language", async () => {
    const inner =
      "<table><caption>Население городов</caption><tr><th>Город</th><th>Население, тыс.</th></tr>" +
      "<tr><td>Москва</td><td>13 010</td></tr><tr><td>Казань</td><td>1 308</td></tr></table>" +
      '<p>Пример запроса:</p><pre><code class="language-sql">SELECT город, население FROM города;</code></pre>';
    const page = await parsed(inner, "ru");
    const atoms = distillText({ text: page, lang: "ru" }).atoms;
    const table = atoms.find((a) => a.type === "table");
    expect(table?.claim).toBe("Table: Население городов");
    expect(table?.content).toBe(
      "Table: Население городов\n| Город | Население, тыс. |\n| --- | --- |\n| Москва | 13 010 |\n| Казань | 1 308 |",
    );
    const code = atoms.find((a) => a.type === "code");
    expect([code?.claim, code?.content]).toEqual([
      "Code (sql): Пример запроса",
      "SELECT город, население FROM города;",
    ]);
    for (const a of atoms) expect(page.includes(a.quote)).toBe(true);
  });

  test("an escaped pipe stays inside its cell for the distiller", () => {
    const md = text(
      "<table><tr><th>Operator</th><th>Meaning</th></tr><tr><td>a|b</td><td>or</td></tr><tr><td>a&amp;b</td><td>and</td></tr></table>",
    );
    const [t] = distillText({ text: md, lang: "en" }).atoms;
    expect([t.type, t.claim]).toEqual(["table", "Table: Operator | Meaning"]);
  });
});
