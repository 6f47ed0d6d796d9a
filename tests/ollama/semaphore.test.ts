/** The semaphore that bounds Ollama requests in flight. */
import { expect, test } from "bun:test";
import { Semaphore } from "../../src/adapters/llm/ollama/semaphore.ts";

test("grants up to the limit, then queues first-in first-out", async () => {
  const s = new Semaphore(2);
  const r1 = await s.acquire();
  const r2 = await s.acquire();
  expect(s.inUse).toBe(2);
  const order: number[] = [];
  const w3 = s.acquire().then((r) => (order.push(3), r));
  const w4 = s.acquire().then((r) => (order.push(4), r));
  expect(s.waiting).toBe(2);
  r1();
  r1(); // a second release of the same permit changes nothing
  const r3 = await w3;
  expect(s.inUse).toBe(2);
  r2();
  const r4 = await w4;
  expect(order).toEqual([3, 4]);
  r3();
  r4();
  expect(s.inUse).toBe(0);
});

test("an aborted waiter leaves the queue and takes no permit", async () => {
  const s = new Semaphore(1);
  const r1 = await s.acquire();
  const ctl = new AbortController();
  const waiting = s.acquire(ctl.signal);
  ctl.abort(new Error("stop"));
  await expect(waiting).rejects.toThrow("stop");
  expect(s.waiting).toBe(0);
  r1();
  expect(s.inUse).toBe(0);
  await expect(s.acquire(AbortSignal.abort(new Error("already")))).rejects.toThrow("already");
});

test("a limit below 1 is refused", () => {
  expect(() => new Semaphore(0)).toThrow("concurrency limit 0");
  expect(() => new Semaphore(1.5)).toThrow();
});
