/**
 * A model graph behind the Bolt stand-in: script entries that answer exactly the statement shapes the Memgraph
 * adapter sends (model.ts, writes.ts, reads.ts, schema.ts) by computing them on an in-memory graph, with the
 * semantics Memgraph documents for them (MERGE on a key, DETACH DELETE, `*BFS` yielding each reachable node once at
 * its least hop count under the filter lambda, strings ordered by code point). It lets the shared GraphStore
 * contract run through the adapter, the real driver and Bolt; it is a model of those statements, not Memgraph, so it
 * proves the adapter's own logic (planning, ordering, cutting, the path walk) and nothing about Memgraph's parser.
 */
import type { BoltScriptEntry, RecordedRun } from "../support/bolt-standin.ts";
import { toJs } from "../support/packstream.ts";

type Props = Record<string, unknown>;
interface MNode {
  id: string;
  label: string;
  props: Props;
}
interface MEdge {
  key: string;
  type: string;
  src: string;
  dst: string;
  props: Props;
}
interface Filter {
  kinds: string[] | null;
  noInferred: boolean;
}

const cp = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The in-memory graph and its statement handlers. */
export class ModelGraph {
  readonly nodes = new Map<string, MNode>();
  edges: MEdge[] = [];

  private find(label: string, prop: string, key: unknown): MNode | undefined {
    for (const n of this.nodes.values()) if (n.label === label && n.props[prop] === key) return n;
    return undefined;
  }

  private merge(label: string, prop: string, key: unknown, id: string): MNode {
    const found = this.find(label, prop, key);
    if (found) return found;
    const n = { id, label, props: { [prop]: key, id } };
    this.nodes.set(id, n);
    return n;
  }

  private live = (id: string) => this.nodes.has(id) && this.nodes.get(id)?.props.status !== "retracted";
  private row = (n: MNode) => ({ id: n.id, labels: [n.label], props: n.props });
  private edgeMap = (e: MEdge) => ({ key: e.key, src: e.src, dst: e.dst, ...e.props });
  private passes = (e: MEdge, f: Filter) =>
    (f.kinds === null || f.kinds.includes(e.props.kind as string)) && !(f.noInferred && e.props.inferred === true);

  /** Steps from `id` along `dir` ("out", "in", "both"): [neighbour, edge]. */
  private steps(id: string, dir: string, f: Filter): [string, MEdge][] {
    const out: [string, MEdge][] = [];
    for (const e of this.edges) {
      if (!this.passes(e, f)) continue;
      if (dir !== "in" && e.src === id) out.push([e.dst, e]);
      if (dir !== "out" && e.dst === id) out.push([e.src, e]);
    }
    return out.filter(([n]) => this.live(n));
  }

  /** Least hop counts from `start` within `depth` (start excluded), as Memgraph's single-source *BFS yields them. */
  private bfs(start: string, dir: string, depth: number, f: Filter): Map<string, number> {
    const dist = new Map<string, number>([[start, 0]]);
    let frontier = [start];
    for (let d = 1; d <= depth && frontier.length > 0; d++) {
      const next: string[] = [];
      for (const u of frontier) for (const [n] of this.steps(u, dir, f)) if (!dist.has(n)) dist.set(n, d), next.push(n);
      frontier = next;
    }
    dist.delete(start);
    return dist;
  }

  private filterOf(run: RecordedRun): Filter {
    return {
      kinds: run.query.includes("e.kind IN $kinds") ? (toJs(run.params.kinds) as string[]) : null,
      noInferred: run.query.includes("e.inferred = false"),
    };
  }

  private dirOf(q: string, v: string): string {
    return q.includes(`<-[${v}`) ? "in" : q.includes("]->(m)") ? "out" : "both";
  }

  private p = (run: RecordedRun, name: string) => toJs(run.params[name]);

  /** Answers one RUN; null when the statement is not one the adapter sends. */
  answer(run: RecordedRun): Props[] | null {
    const q = run.query;
    let m: RegExpExecArray | null;
    if (q.startsWith("CREATE ")) return [];
    if ((m = /^UNWIND \$rows AS row\nMERGE \(n:(\w+) \{(\w+): row\.key\}\)\nSET n \+= row\.props$/.exec(q))) {
      for (const r of this.p(run, "rows") as Props[]) {
        const props = r.props as Props;
        const n = this.merge(m[1], m[2], r.key, String(props.id));
        for (const [k, v] of Object.entries(props))
          if (v === null) delete n.props[k];
          else n.props[k] = v;
      }
      return [];
    }
    if (q.startsWith("MATCH (a)-[e]->(b)\nWHERE e.key IN $keys AND NOT")) {
      const keys = this.p(run, "keys") as string[];
      const keep = new Set((this.p(run, "keep") as string[][]).map((k) => k.join("\u0000")));
      const gone = this.edges.filter(
        (e) => keys.includes(e.key) && !keep.has([e.key, e.type, e.src, e.dst].join("\u0000")),
      );
      this.edges = this.edges.filter((e) => !gone.includes(e));
      return gone.map((e) => ({ src: e.src, dst: e.dst }));
    }
    if (
      (m =
        /^UNWIND \$rows AS row\nMERGE \(a:(\w+) \{(\w+): row\.src\}\).*\nMERGE \(b:(\w+) \{(\w+): row\.dst\}\).*\nMERGE \(a\)-\[e:`(\w+)` \{key: row\.key\}\]->\(b\)\nSET /.exec(
          q,
        ))
    ) {
      for (const r of this.p(run, "rows") as Props[]) {
        const a = this.merge(m[1], m[2], r.src, String(r.src_id));
        const b = this.merge(m[3], m[4], r.dst, String(r.dst_id));
        const props = { kind: r.kind, confidence: r.confidence, inferred: r.inferred, source: r.source };
        const e = this.edges.find((x) => x.key === r.key && x.type === m![5] && x.src === a.id && x.dst === b.id);
        if (e) e.props = props;
        else this.edges.push({ key: String(r.key), type: m[5], src: a.id, dst: b.id, props });
      }
      return [];
    }
    return this.answerMore(run);
  }

  private answerMore(run: RecordedRun): Props[] | null {
    const q = run.query;
    let m: RegExpExecArray | null;
    if (q.includes("RETURN DISTINCT x.id AS id")) {
      const ids = new Set<string>();
      for (const k of this.p(run, "keys") as unknown[]) {
        const s = this.find("CodeSymbol", "symbol_id", k);
        for (const e of this.edges)
          for (const [x, y] of [
            [e.src, e.dst],
            [e.dst, e.src],
          ])
            if (s && x === s.id && /^(module|name):/.test(y)) ids.add(y);
      }
      return [...ids].map((id) => ({ id }));
    }
    if ((m = /^UNWIND \$keys AS key\nMATCH \(n:(\w+) \{(\w+): key\}\)\nDETACH DELETE n$/.exec(q))) {
      for (const k of this.p(run, "keys") as unknown[]) this.remove(this.find(m[1], m[2], k)?.id);
      return [];
    }
    if ((m = /^UNWIND \$names AS name\nMATCH \(n:(\w+) \{name: name\}\)/.exec(q))) {
      for (const k of this.p(run, "names") as string[]) {
        const n = this.find(m[1], "name", k);
        if (n && !this.edges.some((e) => e.src === n.id || e.dst === n.id)) this.nodes.delete(n.id);
      }
      return [];
    }
    if (q.startsWith("MATCH ()-[e]->()\nWITH e LIMIT $batch")) return [{ deleted: this.edges.splice(0).length }];
    if (q.startsWith("MATCH (n)\nWITH n LIMIT $batch")) {
      const deleted = this.nodes.size;
      this.nodes.clear();
      return [{ deleted }];
    }
    return this.answerReads(run);
  }

  private remove(id: string | undefined): void {
    if (id === undefined) return;
    this.nodes.delete(id);
    this.edges = this.edges.filter((e) => e.src !== id && e.dst !== id);
  }

  private answerReads(run: RecordedRun): Props[] | null {
    const q = run.query;
    const f = this.filterOf(run);
    let m: RegExpExecArray | null;
    const lookup = (label: string, prop: string, param: string) => {
      const n = this.find(label, prop, this.p(run, param));
      return n && this.live(n.id) ? n : undefined;
    };
    if ((m = /^MATCH \(a:(\w+) \{(\w+): \$key\}\)\nWHERE coalesce/.exec(q))) {
      const n = lookup(m[1], m[2], "key");
      return n ? [this.row(n)] : [];
    }
    if ((m = /^MATCH \(a:(\w+) \{(\w+): \$key\}\)\nMATCH \(a\).*hops \*BFS/.exec(q))) {
      const root = lookup(m[1], m[2], "key");
      if (!root) return [];
      const depth = Number(this.p(run, "depth"));
      const dist = [...this.bfs(root.id, this.dirOf(q, "hops"), depth, f)];
      if (q.includes("WHERE size(hops) = $depth")) return dist.filter(([, d]) => d === depth).map(([id]) => ({ id }));
      const rows = dist.map(([id, d]) => ({ ...this.row(this.nodes.get(id)!), distance: d }));
      rows.sort((x, y) => x.distance - y.distance || cp(x.id, y.id));
      return rows.slice(0, Number(this.p(run, "cut")));
    }
    if ((m = /^MATCH \(c:(\w+) \{(\w+): \$key\}\)/.exec(q))) {
      const c = lookup(m[1], m[2], "key");
      const dir = q.includes("<-[e]-(p)") ? "in" : q.includes("-[e]->(p)") ? "out" : "both";
      return c
        ? this.steps(c.id, dir, f).map(([p, e]) => ({ ...this.row(this.nodes.get(p)!), edge: this.edgeMap(e) }))
        : [];
    }
    if (q.startsWith("UNWIND $keys0 AS key")) {
      const ids = new Set(this.p(run, "ids") as string[]);
      return this.edges
        .filter((e) => ids.has(e.src) && ids.has(e.dst) && this.passes(e, f))
        .map((e) => ({ edge: this.edgeMap(e) }));
    }
    return this.answerCounts(q);
  }

  private answerCounts(q: string): Props[] | null {
    const live = [...this.nodes.values()].filter((n) => this.live(n.id));
    if (q.includes("RETURN labels(n) AS labels, count(n) AS count")) {
      const by = new Map<string, number>();
      for (const n of live) by.set(n.label, (by.get(n.label) ?? 0) + 1);
      return [...by].map(([l, count]) => ({ labels: [l], count }));
    }
    if (q.includes("RETURN e.kind AS kind")) {
      const by = new Map<string, number>();
      for (const e of this.edges)
        by.set(
          `${e.props.kind}\u0000${e.props.inferred}`,
          (by.get(`${e.props.kind}\u0000${e.props.inferred}`) ?? 0) + 1,
        );
      return [...by].map(([k, count]) => ({ kind: k.split("\u0000")[0], inferred: k.endsWith("true"), count }));
    }
    if (q.startsWith("MATCH (n:Atom) RETURN 'atom' AS entity")) {
      const count = (l: string) => [...this.nodes.values()].filter((n) => n.label === l).length;
      return [
        { entity: "atom", count: count("Atom") },
        { entity: "document", count: count("Document") },
        { entity: "symbol", count: count("CodeSymbol") },
        { entity: "entity", count: count("Entity") },
        { entity: "edge", count: this.edges.length },
      ];
    }
    return null;
  }

  /** The script for the stand-in: every statement answered from the model; an unknown one is a FAILURE. */
  script(): BoltScriptEntry[] {
    return [
      {
        match: /[\s\S]/,
        rows: (run) => {
          const rows = this.answer(run);
          if (rows === null)
            throw {
              code: "Neo.ClientError.Statement.SyntaxError",
              message: `the model graph does not know: ${run.query}`,
            };
          return rows;
        },
      },
    ];
  }
}
