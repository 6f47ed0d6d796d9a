/**
 * The threshold calibration (domain/meaning/dedup-calibration.ts) and the committed result of bench/calibrate-dedup.ts:
 * the embedders' nearDupThreshold constants must be what the calibration file says, and the lexical calibration
 * must reproduce from the pair suite as it is now.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { calibrateEmbedder, type EmbedderCalibration } from "../../bench/calibrate-dedup.ts";
import { LexicalHashEmbedder } from "../../src/adapters/embedded/lexical-embedder.ts";
import { OllamaEmbedder } from "../../src/adapters/llm/ollama/embedder.ts";
import { DEFAULT_EMBED_MODEL } from "../../src/config.ts";
import { type CalibrationSample, calibrateThreshold } from "../../src/domain/meaning/dedup-calibration.ts";

const sample = (cosine: number, role: CalibrationSample["role"], category = role): CalibrationSample => ({
  category,
  cosine,
  role,
});

describe("calibrateThreshold", () => {
  test("a wide gap: the lowest required cosine minus the margin, rounded down", () => {
    const c = calibrateThreshold([
      sample(0.8, "required"),
      sample(0.95, "required"),
      sample(0.2, "unrelated"),
      sample(0.5, "other"),
    ]);
    expect(c).toMatchObject({
      threshold: 0.75,
      lowestRequired: 0.8,
      highestUnrelated: 0.2,
      margin: 0.05,
      unrelatedAbove: 0,
    });
    expect(c.byCategory.required).toEqual({ n: 2, min: 0.8, mean: 0.875, max: 0.95 });
  });

  test("a narrow gap: the midpoint, so unrelated pairs stay out", () => {
    const c = calibrateThreshold([sample(0.8, "required"), sample(0.77, "unrelated")]);
    expect(c.margin).toBeCloseTo(0.015, 10);
    expect(c.threshold).toBe(0.78);
    expect(c.unrelatedAbove).toBe(0);
  });

  test("overlap: required pairs win, and the unrelated pairs let in are counted", () => {
    const c = calibrateThreshold([sample(0.6, "required"), sample(0.7, "unrelated"), sample(0.5, "unrelated")]);
    expect(c).toMatchObject({ threshold: 0.55, unrelatedAbove: 1 });
  });

  test("nothing required, or a cosine that is not finite, is refused", () => {
    expect(() => calibrateThreshold([sample(0.3, "unrelated")])).toThrow(RangeError);
    expect(() => calibrateThreshold([sample(Number.NaN, "required")])).toThrow(RangeError);
  });
});

describe("the committed calibration", () => {
  const file = JSON.parse(
    readFileSync(join(import.meta.dir, "../../bench/results/dedup-calibration.json"), "utf8"),
  ) as {
    date: string;
    pairs: { total: number };
    embedders: EmbedderCalibration[];
  };

  test("the lexical embedder's constant is the calibrated threshold, and the calibration reproduces", async () => {
    const embedder = new LexicalHashEmbedder();
    const entry = file.embedders.find((e) => e.model === embedder.model);
    expect(entry?.threshold).toBe(embedder.nearDupThreshold);
    const again = await calibrateEmbedder(embedder, "lexical");
    expect(again.threshold).toBe(entry!.threshold);
    expect(again.outcomes?.wrong).toEqual([]);
    expect(again.pairs).toBe(file.pairs.total);
    expect(Date.parse(file.date)).toBeGreaterThan(0);
  });

  test("EmbeddingGemma's threshold is the code's, and says honestly whether it was calibrated", () => {
    const entry = file.embedders.find((e) => e.kind === "neural");
    expect(entry?.model).toBe(DEFAULT_EMBED_MODEL);
    // Constructing the adapter sends nothing; only its constant is read.
    const opts = {
      host: "http://127.0.0.1:9",
      model: DEFAULT_EMBED_MODEL,
      keepAlive: "5m",
      concurrency: 1,
      batchSize: 1,
      timeoutMs: 1000,
    };
    const code = new OllamaEmbedder(opts).nearDupThreshold;
    expect(entry?.code_threshold).toBe(code);
    if (entry?.method.startsWith("not calibrated")) expect(entry.threshold).toBe(code);
    else expect(entry?.outcomes?.total).toBe(file.pairs.total);
  });
});
