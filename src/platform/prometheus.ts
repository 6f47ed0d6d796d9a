/**
 * prom-client's four classes this project uses, imported from their own modules: the package index also loads the
 * default process metrics, the cluster aggregator and the Pushgateway (http, perf_hooks, @opentelemetry/api), which
 * cost ≈ 30 ms at every start of the executable (measured: 35 ms vs 6 ms) although `serve` over stdio never renders.
 * Types come from the package's own declarations.
 */
import type * as Prom from "prom-client";
// @ts-expect-error -- prom-client declares only its index; this module is the same class (module.exports = Counter)
import CounterJs from "prom-client/lib/counter.js";
// @ts-expect-error -- see above (module.exports = Gauge)
import GaugeJs from "prom-client/lib/gauge.js";
// @ts-expect-error -- see above (module.exports = Histogram)
import HistogramJs from "prom-client/lib/histogram.js";
// @ts-expect-error -- see above (module.exports = Registry)
import RegistryJs from "prom-client/lib/registry.js";

/** prom-client's Counter. */
export const Counter = CounterJs as typeof Prom.Counter;
/** prom-client's Gauge. */
export const Gauge = GaugeJs as typeof Prom.Gauge;
/** prom-client's Histogram. */
export const Histogram = HistogramJs as typeof Prom.Histogram;
/** prom-client's Registry (its `contentType` is the text format 0.0.4 unless set otherwise). */
export const Registry = RegistryJs as typeof Prom.Registry;
/** An instance of {@link Registry}. */
export type Registry = Prom.Registry;
