/** The job registry of background ingests: progress is kept, a failure keeps its code, unknown ids are NOT_FOUND. */
import { expect, test } from "bun:test";
import { JobRegistry } from "../../src/core/documents/jobs.ts";
import { PegasError } from "../../src/errors.ts";

test("a job keeps its last progress and its result; a failed one its error code", async () => {
  const jobs = new JobRegistry<number>();
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const a = jobs.start(async (onProgress) => {
    onProgress(3, 10, "file 3 done");
    await gate;
    return 42;
  });
  expect(a.state).toBe("running");
  expect(jobs.get(a.id).job).toMatchObject({ state: "running", progress: 3, total: 10, message: "file 3 done" });
  release();
  await Bun.sleep(0);
  expect(jobs.get(a.id)).toMatchObject({ job: { state: "done" }, result: 42 });
  const b = jobs.start(async () => {
    throw new PegasError("LIMIT_EXCEEDED", "too big");
  });
  await Bun.sleep(0);
  expect(jobs.get(b.id).job).toMatchObject({ state: "failed", error: { code: "LIMIT_EXCEEDED" } });
  expect(() => jobs.get("job-unknown")).toThrow(/no job 'job-unknown'/);
});
