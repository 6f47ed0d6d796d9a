/** The monotone progress reporter (domain/progress.ts): what phases report becomes one forward-only count, which
 * the CLI progress bar reads as is. */
import { describe, expect, test } from "bun:test";
import { progressBar } from "../../src/cli/output.ts";
import { ProgressReporter, silentSpan } from "../../src/domain/progress.ts";

type Note = [progress: number, total: number | undefined, message: string];

function recorder(everyMs = 0): { notes: Note[]; reporter: ProgressReporter } {
  const notes: Note[] = [];
  return { notes, reporter: new ProgressReporter((p, t, m) => notes.push([p, t, m]), everyMs) };
}

describe("ProgressReporter", () => {
  test("sends integer units, drops values not above the last, no total until one is set", () => {
    const { notes, reporter } = recorder();
    expect(reporter.report(0, "a")).toBe(true);
    expect(reporter.report(0.9, "same unit")).toBe(false);
    expect(reporter.report(2.7, "b")).toBe(true);
    expect(reporter.report(1, "back")).toBe(false);
    reporter.setTotal(10);
    reporter.report(3, "c");
    expect(notes).toEqual([
      [0, undefined, "a"],
      [2, undefined, "b"],
      [3, 10, "c"],
    ]);
    expect(reporter.sent).toBe(3);
  });

  test("a total is never lowered, and raised to a value past it", () => {
    const { notes, reporter } = recorder();
    reporter.setTotal(10);
    reporter.setTotal(5);
    reporter.report(4, "a");
    reporter.report(12, "past the total");
    reporter.setTotal(11);
    reporter.report(13, "b");
    expect(notes.map((n) => n[1])).toEqual([10, 12, 13]);
  });

  test("throttles unforced reports; forced ones always go when they move the count", () => {
    const { notes, reporter } = recorder(60_000);
    reporter.report(1, "first");
    reporter.report(2, "throttled");
    reporter.report(3, "forced", true);
    expect(notes.map((n) => n[2])).toEqual(["first", "forced"]);
  });

  test("phase changes can be throttled too; a value reaching the total always goes out", () => {
    const { notes, reporter } = recorder(60_000);
    const slow = new ProgressReporter((p, t, m) => notes.push([p, t, m]), 60_000, 60_000);
    slow.setTotal(10);
    slow.report(1, "first", true);
    slow.report(2, "phase", true);
    slow.report(10, "end");
    expect(notes.map((n) => n[2])).toEqual(["first", "end"]);
    expect(reporter.sent).toBe(-1);
  });

  test("no sink: every report is a no-op", () => {
    const r = new ProgressReporter(undefined);
    expect(r.report(5, "x", true)).toBe(false);
    expect(silentSpan().end("x")).toBe(false);
  });
});

describe("ProgressSpan", () => {
  test("phases by weight and parts of a list make one increasing count over the whole run", () => {
    const { notes, reporter } = recorder();
    reporter.setTotal(1000);
    const run = reporter.span(0, 1000);
    for (let i = 0; i < 2; i++) {
      const phases = run.part(i, 2).split({ distill: 60, embed: 40 });
      phases.distill.start("distill");
      for (let c = 1; c <= 3; c++) phases.distill.at(c, 3, `distill ${c}/3`);
      phases.embed.start("embed");
      for (let c = 1; c <= 2; c++) phases.embed.at(c, 2, `embed ${c}/2`);
    }
    expect(run.end("done")).toBe(false); // the count is at the total already: nothing more to send
    const values = notes.map((n) => n[0]);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]);
    // Each phase's start lands on the unit its predecessor ended on and goes out one unit later (301, 501, 801).
    expect(values).toEqual([0, 100, 200, 300, 301, 400, 500, 501, 600, 700, 800, 801, 900, 1000]);
    expect(notes.at(-1)).toEqual([1000, 1000, "embed 2/2"]);
    expect(notes.every((n) => n[1] === 1000)).toBe(true);
  });

  test("a phase's start forced onto a unit already sent goes out one unit later, within its span", () => {
    const { notes, reporter } = recorder();
    const a = reporter.span(0, 10);
    const b = reporter.span(10, 20);
    a.end("a done");
    expect(b.start("b starts")).toBe(true);
    expect(notes.at(-1)).toEqual([11, undefined, "b starts"]);
    // Not past its own end: a span already passed stays silent.
    expect(reporter.span(5, 11).start("too late")).toBe(false);
  });

  test("fractions are clamped and an empty list counts as done", () => {
    const { notes, reporter } = recorder();
    const s = reporter.span(0, 100);
    s.at(-3, 10, "below");
    s.at(50, 10, "above");
    expect(notes.map((n) => n[0])).toEqual([0, 100]);
    const r2 = recorder();
    r2.reporter.span(0, 10).at(0, 0, "empty");
    expect(r2.notes[0][0]).toBe(10);
  });
});

describe("the CLI progress bar", () => {
  test("reads the same numbers: a bar in place on a terminal, lines elsewhere", () => {
    let tty = "";
    const bar = progressBar("ingest", { stream: { isTTY: true, columns: 80, write: (s: string) => (tty += s) } });
    bar.onProgress(0, undefined, "list: listing");
    expect(tty).toContain("ingest [------------------------] 0 list: listing");
    bar.onProgress(1000, 1000, "done: x");
    expect(tty).toContain(`ingest [${"#".repeat(24)}] 100% done: x`);
    bar.done();
    expect(tty.endsWith("\r\x1b[2K")).toBe(true);
    const lines: string[] = [];
    const log = progressBar("research", { everyMs: 0, stream: { write: (s: string) => lines.push(s) } });
    log.onProgress(0, undefined, "choosing the gaps");
    log.onProgress(421, 1001, "fetching https://example.org/");
    log.done();
    expect(lines).toEqual(["research: choosing the gaps [0]\n", "research: fetching https://example.org/ [42%]\n"]);
  });
});
