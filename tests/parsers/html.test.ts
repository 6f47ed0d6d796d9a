import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { htmlParser } from "../../src/adapters/parsers/html/index.ts";
import type { ParsedDocument, ParseLimits } from "../../src/ports/models/parser.ts";
import { sharedFixture } from "../support/binary.ts";

const LIMITS: ParseLimits = {
  maxBytes: 10 << 20,
  maxZipEntries: 100,
  maxZipTotalBytes: 1 << 20,
  maxZipEntryBytes: 1 << 20,
};

async function parseFixture(name: string): Promise<ParsedDocument> {
  return htmlParser.parse(
    { bytes: readFileSync(sharedFixture(`html/${name}`)), uri: `file:///fixtures/${name}` },
    LIMITS,
  );
}

function paragraphs(doc: ParsedDocument): string[] {
  expect(doc.sections).toHaveLength(1);
  return doc.sections[0].text.split("\n\n");
}

// stdout belongs to the MCP transport: parsing must never write to it.
let stdoutWrites = 0;
const realWrite = process.stdout.write.bind(process.stdout);
beforeAll(() => {
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    stdoutWrites++;
    return realWrite(chunk as string, ...(rest as []));
  }) as typeof process.stdout.write;
});
afterAll(() => {
  process.stdout.write = realWrite;
  expect(stdoutWrites).toBe(0);
});

describe("HTML fixtures", () => {
  test("Wikipedia 'Mozilla': the article, without MediaWiki navigation", async () => {
    const doc = await parseFixture("en_wikipedia_mozilla.html");
    const text = doc.sections[0].text;
    expect(text).toContain(
      "Mozilla is a free-software community, created in 1998 by members of Netscape. The Mozilla community uses, develops, spreads and supports Mozilla products",
    );
    expect(text).toContain("Eich CEO promotion controversy");
    // Sidebar, header and the in-article table of contents are navigation, not content.
    for (const nav of [
      "Main page",
      "Current events",
      "Random article",
      "Donate to Wikipedia",
      "Navigation menu",
      "Jump to:",
      "[edit]",
    ]) {
      expect(text).not.toContain(nav);
    }
    expect(paragraphs(doc)).not.toContain("Contents");
    expect(paragraphs(doc)).toContain("History");
    // The infobox: caption line, one row per key; the logo's alt is only a file name and is left out.
    expect(paragraphs(doc)[0]).toBe(
      "Table: Mozilla\n| Industry | Open-source software |\n| Founded | February 28, 1998; 18 years ago |\n| Founder | Netscape Communications Corporation |\n" +
        "| Products | Mozilla Application Suite |\n| Divisions | Mozilla Corporation; Mozilla Foundation |\n| Website | mozilla.org/,%20https://www.mozilla.org/tr/ |",
    );
    // role="presentation" (the Commons box) is layout, not data: its text stays a plain paragraph.
    expect(paragraphs(doc)).toContain("Wikimedia Commons has media related to Mozilla.");
    expect(doc.kind).toBe("web");
    expect(doc.title).toBe("Mozilla - Wikipedia");
    expect(doc.metadata).toMatchObject({ lang: "en", extraction: "readability", charset: "utf-8", readerable: true });
    expect(doc.warnings).toEqual([]);
  });

  test("v8.dev blog: paragraphs, headings, and code blocks fenced with their language and whitespace", async () => {
    const doc = await parseFixture("en_blog_v8dev_emscripten_standalone_wasm.html");
    const paras = paragraphs(doc);
    expect(paras[0]).toStartWith("Emscripten has always focused first and foremost on compiling to the Web");
    expect(paras[1]).toBe("Using standalone mode in Emscripten #");
    const text = doc.sections[0].text;
    // Readability turns the <br><br> inside the block into a <p>: the blank line survives as one.
    expect(text).toContain(
      "\n\n```c\n// add.c\n#include <emscripten.h>\n\nEMSCRIPTEN_KEEPALIVE\nint add(int x, int y) {\n  return x + y;\n}\n```\n\n",
    );
    // Ten <pre> blocks: eight name a language (class="language-x", stripped by Readability, kept before it), two do not.
    const fences = [...text.matchAll(/^```(\w*)\n[\s\S]*?\n```$/gm)].map((m) => m[1]);
    expect(fences).toEqual(["c", "", "lisp", "lisp", "js", "cpp", "bash", "js", "js", ""]);
    expect(text.match(/^```/gm)).toHaveLength(20);
    expect(doc.title).toBe("standalone WebAssembly binaries using Emscripten · V8");
    expect(doc.metadata).toMatchObject({ published: "2019-11-21", lang: "en" });
  });

  test("Firefox Nightly blog: byline, site, microformat date; no comment form", async () => {
    const doc = await parseFixture("en_blog_firefox_nightly_issue85.html");
    const text = doc.sections[0].text;
    expect(paragraphs(doc)[0]).toBe("Highlights");
    expect(text).toContain(
      "We’ve just landed Bug 1553982, which aims to prevent starting an update while another Firefox instance is running",
    );
    expect(text).not.toContain("Save my name, email, and website in this browser");
    expect(doc.metadata).toMatchObject({
      byline: "Mike Conley",
      site: "Firefox Nightly News",
      published: "2020-12-18T16:09:48+00:00",
      lang: "en-US",
    });
  });

  test("Docker docs: tables as Markdown with header and image cells as their alt text; site and published time from meta", async () => {
    const doc = await parseFixture("en_docs_docker_install_engine.html");
    const paras = paragraphs(doc);
    expect(paras).toContain(
      "Docker Engine is available on a variety of Linux platforms, macOS and Windows 10 through Docker Desktop, and as a static binary installation. Find your preferred operating system below.",
    );
    expect(paras).toContain(
      "| Platform | x86_64 / amd64 | arm64 (Apple Silicon) |\n| --- | --- | --- |\n| Docker Desktop for Mac (macOS) | yes | yes |\n| Docker Desktop for Windows | yes |  |",
    );
    expect(paras.find((p) => p.startsWith("| Platform | x86_64 / amd64 | arm64 / aarch64"))?.split("\n")).toHaveLength(
      10,
    );
    // <div class="highlighter-rouge"><pre class="highlight">: highlighted, but no language named.
    expect(paras).toContain("```\n0.0.0-YYYYmmddHHMMSS-abcdefabcdef\n```");
    expect(doc.title).toBe("Install Docker Engine");
    expect(doc.metadata).toMatchObject({ site: "Docker Documentation", published: "2022-04-22T18:35:16+00:00" });
  });
});
