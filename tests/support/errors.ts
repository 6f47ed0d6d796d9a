/** Assertions on rejected promises: what failed must be a PegasError, optionally with a given code. */
import { expect } from "bun:test";
import { PegasError } from "../../src/errors.ts";

/** Awaits `p`, which must reject with a PegasError; returns it. */
export async function rejection(p: Promise<unknown>): Promise<PegasError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(PegasError);
    return err as PegasError;
  }
  throw new Error("expected a rejection");
}

/** Awaits `p`, which must reject with a PegasError of `code`; returns it. */
export async function rejectsWith(p: Promise<unknown>, code: PegasError["code"]): Promise<PegasError> {
  const err = await rejection(p);
  expect(err.code).toBe(code);
  return err;
}
