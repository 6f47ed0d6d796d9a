/**
 * The SSRF guard: which hosts and addresses a URL fetch may reach. Addresses are classified with `ipaddr.js`
 * against the IANA special-purpose registries (RFC 6890 and its updates); only global unicast is allowed, so
 * loopback, RFC 1918 private, link-local, CGNAT (100.64/10), unspecified, multicast, broadcast, documentation and
 * reserved ranges are refused, and IPv6 forms that carry an IPv4 address (IPv4-mapped ::ffff:0:0/96, NAT64
 * 64:ff9b::/96 and 64:ff9b:1::/48, IPv4-translated, 6to4 2002::/16) are judged by the IPv4 address inside.
 * Cloud metadata endpoints are refused always, even when private addresses are allowed: nothing legitimate is
 * ingested from them and they hand out credentials.
 */
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { PegasError } from "../../errors.ts";
import { displayUrl } from "./errors.ts";

/** How one address was classified: `range` is ipaddr.js's range name (`unicast`, `private`, `loopback`…). */
export interface AddressClass {
  /** The address in canonical text form. */
  address: string;
  /** Range name; for IPv6 carrying IPv4, e.g. `ipv4Mapped/loopback`; `invalid` when it is no IP address. */
  range: string;
  /** True when a fetch must not connect to it unless private addresses are allowed. */
  forbidden: boolean;
  /** True for a cloud metadata endpoint (refused even when private addresses are allowed). */
  metadata: boolean;
}

/**
 * Cloud metadata addresses: AWS/GCP/Azure/OpenStack IMDS 169.254.169.254, AWS ECS task metadata 169.254.170.2,
 * AWS IMDS over IPv6 fd00:ec2::254, Alibaba 100.100.100.200, Azure WireServer 168.63.129.16 (a public address!),
 * Oracle 192.0.0.192.
 */
const METADATA_ADDRESSES = new Set(
  ["169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200", "168.63.129.16", "192.0.0.192"].map((a) =>
    ipaddr.parse(a).toNormalizedString(),
  ),
);

/** Host names of metadata services (GCP, AWS, Tencent); their addresses are refused too, this also covers proxies. */
const METADATA_NAMES = new Set([
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.tencentyun.com",
]);

/** Suffixes of names that only a local resolver knows (RFC 6761, RFC 6762 appendix G, RFC 8375, ICANN .internal). */
const LOCAL_SUFFIXES = [
  ".localhost",
  ".local",
  ".internal",
  ".home.arpa",
  ".lan",
  ".intranet",
  ".corp",
  ".home",
  ".private",
];

/** IPv6 ranges that embed an IPv4 address, and where it sits (index of the first of two 16-bit parts, RFC 6052 /96). */
const EMBEDDING_RANGES: Record<string, number> = { ipv4Mapped: 6, rfc6145: 6, rfc6052: 6, "6to4": 1 };

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3") as [ipaddr.IPv6, number];

function classifyV4(v4: ipaddr.IPv4, prefix = ""): AddressClass {
  const range = v4.range();
  const metadata = METADATA_ADDRESSES.has(v4.toNormalizedString());
  return { address: v4.toString(), range: prefix + range, forbidden: range !== "unicast" || metadata, metadata };
}

/**
 * Classifies an IP address given as text (IPv4 dotted quad or IPv6, with or without brackets).
 * Anything that is not a valid address is `invalid` and forbidden.
 */
export function classifyAddress(text: string): AddressClass {
  const bare = text.replace(/^\[|\]$/g, "");
  if (isIP(bare.replace(/%.*$/, "")) === 0)
    return { address: bare, range: "invalid", forbidden: true, metadata: false };
  const addr = ipaddr.parse(bare);
  if (addr.kind() === "ipv4") return classifyV4(addr as ipaddr.IPv4);
  const v6 = addr as ipaddr.IPv6;
  // 64:ff9b:1::/48 (RFC 8215) is local-use NAT64 whose IPv4 position varies with the prefix: never global.
  const range = v6.range() === "rfc6052" && v6.parts[2] !== 0 ? "rfc8215" : v6.range();
  const at = EMBEDDING_RANGES[range];
  if (at !== undefined) {
    const p = v6.parts;
    const inner = new ipaddr.IPv4([p[at] >> 8, p[at] & 0xff, p[at + 1] >> 8, p[at + 1] & 0xff]);
    return { ...classifyV4(inner, `${range}/`), address: v6.toString() };
  }
  const metadata = METADATA_ADDRESSES.has(v6.toNormalizedString());
  // ipaddr.js calls everything outside its special list "unicast"; only 2000::/3 is global unicast (RFC 4291).
  const global = range === "unicast" && v6.match(GLOBAL_UNICAST_V6);
  return {
    address: v6.toString(),
    range: global || range !== "unicast" ? range : "reserved",
    forbidden: !global || metadata,
    metadata,
  };
}

/** A URL host as compared here: lower case, without IPv6 brackets and without the trailing dot of an FQDN. */
export function normalizeHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
}

/** True when `host` (normalized) is an IPv4 or IPv6 literal. */
export function isIpLiteral(host: string): boolean {
  return isIP(host) !== 0;
}

/**
 * Why a host name is local (known only to a local resolver), or null: `localhost`, `*.localhost`, `*.local`,
 * `*.internal`, `*.home.arpa` and similar private suffixes, and single-label names.
 */
export function localNameReason(host: string): string | null {
  if (isIpLiteral(host)) return null;
  if (host === "localhost") return "localhost";
  if (!host.includes(".")) return "a single-label name";
  const suffix = LOCAL_SUFFIXES.find((s) => host.endsWith(s));
  return suffix ? `a local name (*${suffix})` : null;
}

/** What may be reached: `allowPrivate` opens non-public addresses; `allowHosts` opens single hosts by name. */
export interface GuardPolicy {
  allowPrivate: boolean;
  /** Normalized hosts (names or IP literals) exempted from the private-address refusal; metadata stays refused. */
  allowHosts: ReadonlySet<string>;
}

function refuse(url: string, why: string): PegasError {
  return new PegasError("INVALID_INPUT", `refusing to fetch '${displayUrl(url)}': ${why}`, {
    hint: "only public http(s) addresses are fetched; allow private addresses in the configuration only for trusted networks",
  });
}

/**
 * Checks a host before any lookup or connection: metadata names always; IP literals by their address; with a
 * proxy (`viaProxy`), local names too, since the proxy resolves names and no local lookup is made.
 * @throws PegasError INVALID_INPUT naming the URL and the reason.
 */
export function checkHost(url: string, host: string, policy: GuardPolicy, viaProxy: boolean): void {
  if (METADATA_NAMES.has(host)) throw refuse(url, `'${host}' is a cloud metadata service`);
  if (isIpLiteral(host)) {
    checkAddress(url, host, host, policy);
    return;
  }
  if (!viaProxy || policy.allowPrivate || policy.allowHosts.has(host)) return;
  const local = localNameReason(host);
  if (local) throw refuse(url, `'${host}' is ${local}, which a proxy cannot reach safely`);
}

/**
 * Checks one address that `host` resolved to (or the literal itself).
 * @throws PegasError INVALID_INPUT naming the URL, the address and its range.
 */
export function checkAddress(url: string, host: string, address: string, policy: GuardPolicy): void {
  const c = classifyAddress(address);
  if (!c.forbidden) return;
  if (c.metadata) throw refuse(url, `${c.address} is a cloud metadata address`);
  if (policy.allowPrivate || policy.allowHosts.has(host)) return;
  const via = host === c.address || host === address ? "" : `'${host}' resolves to `;
  throw refuse(url, `${via}${c.address}, ${/^[aeiou]/i.test(c.range) ? "an" : "a"} ${c.range} address`);
}
