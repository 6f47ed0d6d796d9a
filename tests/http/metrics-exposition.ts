/**
 * A strict reader of the Prometheus text exposition format 0.0.4 for tests and benchmarks: every sample belongs to
 * a family announced by one HELP and one TYPE line before its first sample, a family's samples are contiguous, names
 * and labels are well-formed, counters are ≥ 0, and each histogram series has increasing `le` bounds, cumulative
 * bucket counts, a `+Inf` bucket equal to `_count`, and a `_sum`. Throws an Error naming the line on any breach.
 */

/** One sample line. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A metric family: its TYPE, HELP and samples (for a histogram: `_bucket`, `_sum`, `_count` lines). */
export interface Family {
  type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  help: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

function parseValue(s: string, line: string): number {
  if (s === "+Inf") return Infinity;
  if (s === "-Inf") return -Infinity;
  if (s === "NaN") return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) throw new Error(`bad value '${s}' in: ${line}`);
  return Number(s);
}

function parseLabels(body: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 0;
  while (i < body.length) {
    const eq = body.indexOf("=", i);
    if (eq < 0 || body[eq + 1] !== '"') throw new Error(`bad label set in: ${line}`);
    const name = body.slice(i, eq);
    if (!LABEL.test(name) || name in labels) throw new Error(`bad or repeated label name '${name}' in: ${line}`);
    let j = eq + 2;
    let value = "";
    for (; j < body.length && body[j] !== '"'; j++) {
      if (body[j] !== "\\") {
        value += body[j];
        continue;
      }
      const esc = body[++j];
      if (esc === "n") value += "\n";
      else if (esc === "\\" || esc === '"') value += esc;
      else throw new Error(`bad escape '\\${esc}' in: ${line}`);
    }
    if (j >= body.length) throw new Error(`unterminated label value in: ${line}`);
    labels[name] = value;
    i = j + 1;
    if (i < body.length) {
      if (body[i] !== ",") throw new Error(`expected ',' between labels in: ${line}`);
      i++;
    }
  }
  return labels;
}

function parseSample(line: string): Sample {
  const m = /^([^\s{]+)(?:\{(.*)\})?\s+(\S+)(?:\s+(-?\d+))?$/.exec(line);
  if (!m || !NAME.test(m[1])) throw new Error(`bad sample line: ${line}`);
  return { name: m[1], labels: m[2] ? parseLabels(m[2], line) : {}, value: parseValue(m[3], line) };
}

function familyOf(sample: string, typeOf: (name: string) => Family["type"] | undefined): string {
  for (const suffix of ["_bucket", "_sum", "_count"]) {
    if (!sample.endsWith(suffix)) continue;
    const base = sample.slice(0, -suffix.length);
    const t = typeOf(base);
    if (t === "histogram" || (t === "summary" && suffix !== "_bucket")) return base;
  }
  return sample;
}

const seriesKey = (labels: Record<string, string>, leave: string): string =>
  JSON.stringify(
    Object.entries(labels)
      .filter(([k]) => k !== leave)
      .sort(([a], [b]) => a.localeCompare(b)),
  );

function checkHistogram(name: string, f: Family): void {
  const series = new Map<string, { buckets: Array<[number, number]>; sum?: number; count?: number }>();
  for (const s of f.samples) {
    const key = seriesKey(s.labels, "le");
    const e = series.get(key) ?? { buckets: [] };
    series.set(key, e);
    if (s.name === `${name}_bucket`) {
      if (!("le" in s.labels)) throw new Error(`${name}_bucket without le`);
      e.buckets.push([parseValue(s.labels.le, s.labels.le), s.value]);
    } else if (s.name === `${name}_sum`) e.sum = s.value;
    else if (s.name === `${name}_count`) e.count = s.value;
    else throw new Error(`sample ${s.name} in histogram ${name}`);
  }
  for (const [key, e] of series) {
    const where = `histogram ${name}${key}`;
    if (e.sum === undefined || e.count === undefined) throw new Error(`${where}: no _sum or _count`);
    for (let i = 1; i < e.buckets.length; i++) {
      if (!(e.buckets[i][0] > e.buckets[i - 1][0])) throw new Error(`${where}: le bounds not increasing`);
      if (e.buckets[i][1] < e.buckets[i - 1][1]) throw new Error(`${where}: bucket counts not cumulative`);
    }
    const last = e.buckets.at(-1);
    if (!last || last[0] !== Infinity) throw new Error(`${where}: no +Inf bucket`);
    if (last[1] !== e.count) throw new Error(`${where}: +Inf bucket ${last[1]} ≠ _count ${e.count}`);
  }
}

/** Parses and checks exposition text; returns the families by name. @throws Error on any breach of the format. */
export function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const announced = new Map<string, { help?: string; type?: Family["type"] }>();
  const closed = new Set<string>();
  let current: string | null = null;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const meta = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(line);
    if (meta) {
      const [, kind, name, rest = ""] = meta;
      if (!NAME.test(name) || families.has(name))
        throw new Error(`${kind} after the samples of ${name} (or a bad name): ${line}`);
      const a = announced.get(name) ?? {};
      if (kind === "HELP") {
        if (a.help !== undefined) throw new Error(`second HELP for ${name}`);
        a.help = rest;
      } else {
        if (a.type !== undefined || !TYPES.has(rest)) throw new Error(`second or unknown TYPE for ${name}: ${line}`);
        a.type = rest as Family["type"];
      }
      announced.set(name, a);
      continue;
    }
    if (line.startsWith("#")) continue;
    const s = parseSample(line);
    const fam = familyOf(s.name, (n) => announced.get(n)?.type);
    const a = announced.get(fam);
    if (!a?.type || a.help === undefined) throw new Error(`sample before its HELP and TYPE: ${line}`);
    if (fam !== current) {
      if (closed.has(fam)) throw new Error(`samples of ${fam} are not contiguous: ${line}`);
      if (current) closed.add(current);
      current = fam;
    }
    const f = families.get(fam) ?? { type: a.type, help: a.help, samples: [] };
    families.set(fam, f);
    if (f.type === "counter" && !(s.value >= 0)) throw new Error(`negative counter: ${line}`);
    f.samples.push(s);
  }
  for (const [name, f] of families) if (f.type === "histogram") checkHistogram(name, f);
  return families;
}

/** The value of the sample `name` whose labels include `labels` (exactly one must match; 0 when none does). */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const all = [...families.values()].flatMap((f) => f.samples);
  const hits = all.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (hits.length > 1) throw new Error(`${hits.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return hits[0]?.value ?? 0;
}
