/**
 * scripts/release.ts, the cheap parts (the real cross-builds take minutes and fetch ~100 MB): the target list,
 * the compile command derived from package.json's build script, the host runtime found without the network, and
 * SHA256SUMS checked by sha256sum itself, keeping the other targets' entries when one target is rebuilt.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileDigest, runtimeFor, TARGETS, updateChecksums } from "../../scripts/release.ts";

const ROOT = resolve(import.meta.dir, "../..");
const PKG = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

describe("scripts/release.ts", () => {
  test("npm run release runs it", () => {
    expect(PKG.scripts.release).toBe("bun scripts/release.ts");
  });

  test("targets: linux x64, arm64 and x64-musl, each with its Bun target and @oven runtime package", () => {
    expect(TARGETS.map((t) => t.name)).toEqual(["linux-x64", "linux-arm64", "linux-x64-musl"]);
    for (const t of TARGETS) {
      expect(t.bunTarget as string).toBe(`bun-${t.name}`);
      // npm names arm64 "aarch64": @oven/bun-linux-aarch64.
      expect(t.runtimePackage).toBe(`@oven/bun-${t.name.replace("arm64", "aarch64")}`);
    }
  });

  test("the host's runtime comes from node_modules, without the network", async () => {
    if (process.platform !== "linux" || process.arch !== "x64") {
      console.warn(`skipped: host is ${process.platform}-${process.arch}, not linux-x64`);
      return;
    }
    const version = JSON.parse(readFileSync(join(ROOT, "node_modules", "bun", "package.json"), "utf8")).version;
    const path = await runtimeFor(TARGETS[0]!, version, mkdtempSync(join(tmpdir(), "pegas-rel-cache-")));
    const p = Bun.spawnSync([path, "--version"], { stdout: "pipe" });
    expect(p.stdout.toString().trim()).toBe(version);
  });

  test("SHA256SUMS is what sha256sum -c accepts, and rejects after a change", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pegas-rel-"));
    writeFileSync(join(dir, "b-linux-arm64"), "arm\n");
    writeFileSync(join(dir, "a-linux-x64"), "Память — memory\n");
    const text = await updateChecksums(dir, [join(dir, "b-linux-arm64"), join(dir, "a-linux-x64")]);
    expect(
      text
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split("  ")[1]),
    ).toEqual(["a-linux-x64", "b-linux-arm64"]);
    expect(text).toContain(`${await fileDigest(join(dir, "b-linux-arm64"), "sha256", "hex")}  b-linux-arm64\n`);
    const check = () =>
      Bun.spawnSync(["sha256sum", "-c", "SHA256SUMS"], { cwd: dir, stdout: "pipe", stderr: "pipe" }).exitCode;
    expect(check()).toBe(0);
    writeFileSync(join(dir, "a-linux-x64"), "tampered\n");
    expect(check()).not.toBe(0);
  });

  test("rebuilding one target keeps the other executables' entries while their files are there, drops the gone ones", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pegas-rel-"));
    const names = ["pegas-memory-1-linux-arm64", "pegas-memory-1-linux-x64", "pegas-memory-1-linux-x64-musl"];
    for (const n of names) writeFileSync(join(dir, n), `${n}\n`);
    const first = await updateChecksums(
      dir,
      names.map((n) => join(dir, n)),
    );
    const line = (n: string) => first.split("\n").find((l) => l.endsWith(`  ${n}`));
    writeFileSync(join(dir, names[1]!), "rebuilt x64\n");
    rmSync(join(dir, names[2]!));
    const second = await updateChecksums(dir, [join(dir, names[1]!)]);
    expect(second).toBe(
      `${line(names[0]!)}\n${await fileDigest(join(dir, names[1]!), "sha256", "hex")}  ${names[1]}\n`,
    );
    expect(
      Bun.spawnSync(["sha256sum", "-c", "SHA256SUMS"], { cwd: dir, stdout: "pipe", stderr: "pipe" }).exitCode,
    ).toBe(0);
    // An entry in sha256sum's binary-mode form (`*name`) is kept as it is too.
    writeFileSync(join(dir, "SHA256SUMS"), `${line(names[0]!)!.replace("  ", " *")}\n`);
    expect(await updateChecksums(dir, [join(dir, names[1]!)])).toContain(` *${names[0]}\n`);
  });

  test("sha512 digests use the registry's integrity encoding (base64)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pegas-rel-"));
    writeFileSync(join(dir, "f"), "abc");
    // Known answer: sha512("abc") in base64.
    expect(await fileDigest(join(dir, "f"), "sha512", "base64")).toBe(
      "3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw==",
    );
  });
});
