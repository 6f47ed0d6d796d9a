/**
 * The reliability table of the `calibration` benchmark as Markdown, for docs/benchmarks.md (scripts/gen-benchmarks.ts):
 * per bin of predicted confidence on the check half, how many statements fell in it, their mean confidence and the
 * share of them that is true, with the ECE and AUROC of the model and of the constant baseline underneath.
 */
import type { ResultFile } from "./report.ts";

interface Figures {
  n: number;
  ece: number;
  auroc: number;
  reliability: Array<{ bin: string; n: number; confidence: number; accuracy: number }>;
}

/** The Markdown table (null when the result holds no check-half figures). */
export function reliabilityMarkdown(f: ResultFile): string | null {
  const check = (f.results as { check?: { model: Figures; constant: Figures } }).check;
  if (!check?.model?.reliability) return null;
  const m = check.model;
  const lines = [
    `Check half, ${m.n} statements (run ${f.machine.date.slice(0, 10)}, commit ${f.machine.git_commit.slice(0, 7)}):`,
    "",
    "| confidence bin | statements | mean confidence | share true |",
    "|---|---|---|---|",
    ...m.reliability.map((b) => `| ${b.bin} | ${b.n} | ${b.confidence.toFixed(3)} | ${b.accuracy.toFixed(3)} |`),
    "",
    `ECE ${m.ece} · AUROC ${m.auroc}; a constant confidence: ECE ${check.constant.ece} · AUROC ${check.constant.auroc}.`,
  ];
  return lines.join("\n");
}
