/**
 * Name resolution for direct fetches, and the `lookup` functions handed to `node:http`. Without a proxy a name is
 * resolved once, every address is checked, and the connection is pinned to the checked addresses: the request's
 * own lookup returns them instead of asking DNS again, so a second answer (DNS rebinding) cannot slip in a
 * private address. With a proxy the request gets a lookup that always fails, so no name is resolved locally.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { PegasError } from "../../errors.ts";
import { type GuardPolicy, checkAddress } from "./address-guard.ts";
import { displayUrl } from "./errors.ts";

/** A resolver: host name → every address it has (IPv4 and IPv6 text form). Injectable for tests. */
export type Lookup = (host: string) => Promise<readonly string[]>;

/** The system resolver (getaddrinfo via `dns.lookup`, all addresses, in the resolver's order). */
export const systemLookup: Lookup = async (host) =>
  (await dnsLookup(host, { all: true, order: "verbatim" })).map((a) => a.address);

/** Most addresses kept from one answer; a longer answer is cut, every kept address is checked. */
const MAX_ADDRESSES = 32;

/**
 * Resolves `host` with `lookup` and checks every address; one forbidden address refuses the whole name, since
 * the connection could otherwise land on it.
 * @returns the checked addresses, in resolver order.
 * @throws PegasError INVALID_INPUT for a forbidden or malformed address; errors of `lookup` pass through.
 */
export async function resolveChecked(
  url: string,
  host: string,
  lookup: Lookup,
  policy: GuardPolicy,
): Promise<string[]> {
  const answer = (await lookup(host)).slice(0, MAX_ADDRESSES);
  if (answer.length === 0) {
    throw new PegasError("INVALID_INPUT", `'${host}' of '${displayUrl(url)}' has no address`, {
      hint: "check the host name",
    });
  }
  for (const address of answer) checkAddress(url, host, address, policy);
  return [...answer];
}

/** The callback shape of `dns.lookup`, as `node:http` and `net.connect` call it. */
type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `dns.lookup`-compatible function for `node:http`. */
export type RequestLookup = (
  hostname: string,
  options: { all?: boolean; family?: number | string },
  cb: LookupCallback,
) => void;

function familyOf(address: string): 4 | 6 {
  return isIP(address) === 6 ? 6 : 4;
}

/**
 * A request lookup that answers `host` with the already checked `addresses` and refuses any other name, so the
 * socket connects to exactly what was checked while the Host header and TLS SNI keep the name.
 */
export function pinnedLookup(host: string, addresses: readonly string[]): RequestLookup {
  return (hostname, options, cb) => {
    const wanted = Number(options?.family) || 0;
    const list = addresses
      .filter((a) => !wanted || familyOf(a) === wanted)
      .map((a) => ({ address: a, family: familyOf(a) }));
    if (hostname.toLowerCase().replace(/\.$/, "") !== host || list.length === 0) {
      const err: NodeJS.ErrnoException = new Error(`no checked address for '${hostname}'`);
      err.code = "ENOTFOUND";
      return queueMicrotask(() => cb(err, []));
    }
    queueMicrotask(() => (options?.all ? cb(null, list) : cb(null, list[0].address, list[0].family)));
  };
}

/** A request lookup that always fails: with a proxy, a local lookup would leak the name around the proxy. */
export const refusingLookup: RequestLookup = (hostname, _options, cb) => {
  const err: NodeJS.ErrnoException = new Error(`local DNS lookup of '${hostname}' refused: a proxy is configured`);
  err.code = "ENOTFOUND";
  queueMicrotask(() => cb(err, []));
};
