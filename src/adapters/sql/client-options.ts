/**
 * postgres.js options shared by both backends, so that rows come back in one shape: int8 (bigint ids, counts) as
 * JS numbers (ids stay far below 2^53), timestamptz as Date, jsonb as objects, bytea as Buffer.
 */
import type { Options, PostgresType } from "postgres";

const int8AsNumber: PostgresType<number> = {
  to: 20,
  from: [20],
  serialize: (x: number) => String(x),
  parse: (x: string) => Number(x),
};

/** Base client options; callers add host/path and pool size. */
export const CLIENT_OPTIONS: Options<{ int8: PostgresType<number> }> = {
  onnotice: () => {},
  types: { int8: int8AsNumber },
  connection: { application_name: "pegas-memory" },
};
