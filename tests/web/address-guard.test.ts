/**
 * The SSRF guard's classification (no network): IPv4 and IPv6 special-purpose ranges (RFC 6890), IPv6 forms that
 * carry IPv4, cloud metadata, local names with a proxy, and the allowPrivate / allowHosts exemptions.
 */
import { describe, expect, test } from "bun:test";
import {
  type GuardPolicy,
  checkAddress,
  checkHost,
  classifyAddress,
  localNameReason,
  normalizeHost,
} from "../../src/adapters/web/address-guard.ts";
import type { PegasError } from "../../src/errors.ts";

const strict: GuardPolicy = { allowPrivate: false, allowHosts: new Set() };
const open: GuardPolicy = { allowPrivate: true, allowHosts: new Set() };

function refusal(fn: () => void): PegasError | null {
  try {
    fn();
    return null;
  } catch (err) {
    return err as PegasError;
  }
}

describe("classifyAddress", () => {
  test.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.1.1", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["100.127.255.255", "carrierGradeNat"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["192.0.2.10", "reserved"],
    ["240.0.0.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "linkLocal"],
    ["fe80::1%eth0", "linkLocal"],
    ["fc00::1", "uniqueLocal"],
    ["fd12:3456::1", "uniqueLocal"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "reserved"],
    ["::7f00:1", "reserved"],
    ["::ffff:127.0.0.1", "ipv4Mapped/loopback"],
    ["::ffff:7f00:1", "ipv4Mapped/loopback"],
    ["::ffff:10.1.2.3", "ipv4Mapped/private"],
    ["::ffff:169.254.169.254", "ipv4Mapped/linkLocal"],
    ["64:ff9b::a00:1", "rfc6052/private"],
    ["64:ff9b:1::1", "rfc8215"],
    ["2002:7f00:1::1", "6to4/loopback"],
    ["[::1]", "loopback"],
  ])("%s is forbidden (%s)", (ip, range) => {
    const c = classifyAddress(ip);
    expect(c.range).toBe(range);
    expect(c.forbidden).toBe(true);
  });

  test.each([
    ["93.184.216.34", "unicast"],
    ["8.8.8.8", "unicast"],
    ["172.32.0.1", "unicast"],
    ["100.128.0.1", "unicast"],
    ["2606:4700::1111", "unicast"],
    ["::ffff:93.184.216.34", "ipv4Mapped/unicast"],
    ["64:ff9b::5db8:d822", "rfc6052/unicast"],
  ])("%s is allowed (%s)", (ip, range) => {
    const c = classifyAddress(ip);
    expect(c.range).toBe(range);
    expect(c.forbidden).toBe(false);
  });

  test.each([
    "169.254.169.254",
    "fd00:ec2::254",
    "168.63.129.16",
    "100.100.100.200",
    "192.0.0.192",
    "::ffff:169.254.169.254",
  ])("%s is a metadata address", (ip) => {
    const c = classifyAddress(ip);
    expect(c.metadata).toBe(true);
    expect(c.forbidden).toBe(true);
  });

  test.each(["", "example.com", "1.2.3", "999.1.1.1", "0x7f.1", "::ffff::1"])("%p is invalid", (text) => {
    expect(classifyAddress(text)).toMatchObject({ range: "invalid", forbidden: true });
  });
});

describe("checkAddress", () => {
  test("refusal names the URL, the name, the address and its range", () => {
    const err = refusal(() => checkAddress("http://intranet.test/a", "intranet.test", "10.0.0.1", strict));
    expect(err?.code).toBe("INVALID_INPUT");
    expect(err?.message).toContain("http://intranet.test/a");
    expect(err?.message).toContain("'intranet.test' resolves to 10.0.0.1, a private address");
  });

  test("allowPrivate opens private addresses but never metadata", () => {
    expect(refusal(() => checkAddress("http://x.test/", "x.test", "127.0.0.1", open))).toBeNull();
    expect(refusal(() => checkAddress("http://x.test/", "x.test", "169.254.169.254", open))?.message).toContain(
      "metadata",
    );
  });

  test("allowHosts opens one host by name only", () => {
    const policy: GuardPolicy = { allowPrivate: false, allowHosts: new Set(["wiki.corp.test"]) };
    expect(refusal(() => checkAddress("http://wiki.corp.test/", "wiki.corp.test", "10.1.1.1", policy))).toBeNull();
    expect(refusal(() => checkAddress("http://other.test/", "other.test", "10.1.1.1", policy))?.code).toBe(
      "INVALID_INPUT",
    );
    expect(
      refusal(() => checkAddress("http://wiki.corp.test/", "wiki.corp.test", "fd00:ec2::254", policy))?.message,
    ).toContain("metadata");
  });

  test("a public address passes", () => {
    expect(refusal(() => checkAddress("http://example.com/", "example.com", "93.184.216.34", strict))).toBeNull();
  });
});

describe("checkHost (before any lookup)", () => {
  test.each(["localhost", "foo.localhost", "printer.local", "db.internal", "router.home.arpa", "nas.lan", "intranet"])(
    "with a proxy, %s is refused as a local name",
    (host) => {
      const err = refusal(() => checkHost(`http://${host}/`, host, strict, true));
      expect(err?.code).toBe("INVALID_INPUT");
      expect(localNameReason(host)).not.toBeNull();
    },
  );

  test("with a proxy, public names pass without lookup; local names pass when allowed", () => {
    expect(refusal(() => checkHost("http://example.com/", "example.com", strict, true))).toBeNull();
    expect(refusal(() => checkHost("http://localhost/", "localhost", open, true))).toBeNull();
  });

  test("without a proxy, names are left to resolution (checked by address)", () => {
    expect(refusal(() => checkHost("http://localhost/", "localhost", strict, false))).toBeNull();
  });

  test.each([
    ["127.0.0.1", true],
    ["::1", true],
    ["::ffff:10.0.0.1", true],
    ["93.184.216.34", false],
  ])("IP literal %s refused=%p in both modes", (host, refused) => {
    for (const viaProxy of [true, false]) {
      expect(refusal(() => checkHost(`http://[${host}]/`, host, strict, viaProxy)) !== null).toBe(refused);
    }
  });

  test.each(["metadata.google.internal", "metadata.goog", "instance-data"])(
    "%s is refused even when private is allowed",
    (host) => {
      for (const viaProxy of [true, false]) {
        expect(refusal(() => checkHost(`http://${host}/`, host, open, viaProxy))?.message).toContain("metadata");
      }
    },
  );

  test("normalizeHost strips brackets, case and the FQDN dot", () => {
    expect(normalizeHost("[::1]")).toBe("::1");
    expect(normalizeHost("LocalHost.")).toBe("localhost");
  });
});
