import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Config } from '../../config.js';

/*
 * Where the server may send a push. A device's endpoint is an address the server POSTs to, chosen by whoever
 * subscribes: unchecked, it makes the server connect to anything it can reach (its own database port, a
 * cloud's metadata service, the office network). So:
 *
 * - `checkEndpoint`, at subscribe and again before every push (rows stored earlier, settings changed since):
 *   https only, to a host on PUSH_SERVICE_HOSTS (by default the push services browsers use), no user name or
 *   password; an address literal only under `*`, and only a public one. Plain http only to this machine's
 *   loopback, and only where PUSH_ALLOW_LOOPBACK_HTTP is set (never in production: config.ts), for the tests'
 *   push service stand-in.
 * - `guardedLookup`, when the transport opens a connection: the name is resolved once, every address it
 *   answers must be public (`isPublicAddress`), and the connection goes to those addresses, not to a second
 *   lookup's (a name that answers a public address to a check and a private one to the connect gets nowhere).
 */

/** Resolves a host name to its addresses (all of them): `dns.lookup` by default; tests answer for the DNS. */
export type PushLookup = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

export const systemLookup: PushLookup = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export interface PushEndpointPolicy {
  /** Host names, `*.`-wildcards (any name under it), or `*` (any host whose addresses are public). */
  hosts: readonly string[];
  /** http://127.0.0.1, [::1] or localhost allowed (a stand-in on this machine; never in production). */
  allowLoopbackHttp: boolean;
}

export function endpointPolicy(config: Pick<Config, 'PUSH_SERVICE_HOSTS' | 'PUSH_ALLOW_LOOPBACK_HTTP'>): PushEndpointPolicy {
  return { hosts: config.PUSH_SERVICE_HOSTS, allowLoopbackHttp: config.PUSH_ALLOW_LOOPBACK_HTTP };
}

/**
 * A push the policy does not allow: never sent, never tried again. Names the host only: a full endpoint is a
 * capability to push to that device, and stays out of logs.
 */
export class PushEndpointRefused extends Error {
  readonly code = 'PUSH_ENDPOINT_REFUSED';
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`push endpoint refused (${host}): ${reason}`);
    this.name = 'PushEndpointRefused';
  }
}

/** Global unicast IPv6 (2000::/3): the rest is special or unassigned (IPv4-compatible ::a.b.c.d among them). */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** NAT64's well-known prefix (RFC 6052): an IPv6-only network's way to reach an IPv4 address, judged by that address. */
const NAT64_V6 = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * Whether a connection to `address` leaves for the public internet. IPv4: ipaddr.js's `unicast` only (not
 * loopback, private, link-local with the metadata services, CGNAT, multicast, broadcast, reserved and test
 * ranges). IPv6: global unicast outside every special range (so not loopback, unique local, link-local,
 * multicast, IPv4-mapped or -compatible, 6to4 and Teredo, which carry an IPv4 address inside); a NAT64
 * address is judged by the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return false;
  }
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  if (v6.match(NAT64_V6)) return isPublicAddress(ipaddr.fromByteArray(v6.toByteArray().slice(12)).toString());
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}

/** 127.0.0.0/8 or ::1: the stand-in's addresses, where PUSH_ALLOW_LOOPBACK_HTTP lets plain http through. */
export function isLoopbackAddress(address: string): boolean {
  try {
    return ipaddr.parse(address).range() === 'loopback';
  } catch {
    return false;
  }
}

/** Names that never leave the machine or the site, refused without a lookup even under `*`. */
const LOCAL_NAME = /(^|\.)(localhost|local|localdomain|internal|intranet|lan|home\.arpa)$/;

function hostAllowed(hosts: readonly string[], host: string): boolean {
  return hosts.some((pattern) => pattern === '*' || pattern === host || (pattern.startsWith('*.') && host.endsWith(pattern.slice(1))));
}

/**
 * The endpoint as a URL when the policy lets pushes go there; else throws PushEndpointRefused. Address literals
 * arrive normalised by the WHATWG parser (0x7f000001, 2130706433, 127.1 and 0177.0.0.1 are all 127.0.0.1).
 * `loopback` says the endpoint is the plain-http stand-in: its connection must reach loopback only.
 */
export function checkEndpoint(policy: PushEndpointPolicy, endpoint: string): { url: URL; loopback: boolean } {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new PushEndpointRefused('?', 'not a URL');
  }
  // The name without a final dot ("fcm.googleapis.com." is the same host) and an IPv6 literal without brackets.
  const host = url.hostname.replace(/\.$/, '').replace(/^\[(.*)\]$/, '$1');
  const refuse = (reason: string) => new PushEndpointRefused(url.host, reason);
  if (url.username || url.password) throw refuse('a user name or password in the address');
  const literal = net.isIP(host) !== 0;
  if (url.protocol === 'http:') {
    if (!policy.allowLoopbackHttp) throw refuse('plain http');
    if (literal ? !isLoopbackAddress(host) : host !== 'localhost') throw refuse('plain http off this machine');
    return { url, loopback: true };
  }
  if (url.protocol !== 'https:') throw refuse(`not https (${url.protocol})`);
  if (literal) {
    if (!isPublicAddress(host)) throw refuse('not a public address');
    if (!policy.hosts.includes('*')) throw refuse('not one of the push services');
    return { url, loopback: false };
  }
  if (!host.includes('.') || LOCAL_NAME.test(host)) throw refuse('a local name');
  if (!hostAllowed(policy.hosts, host)) throw refuse('not one of the push services');
  return { url, loopback: false };
}

/**
 * A `lookup` for the transport's agents: resolves once with `resolve`, refuses the connection when any address
 * fails `allowed` (one bad answer among good ones is the whole name refused: the connection could take any),
 * and hands the checked addresses to the connection (`all`: every one, for Node's happy eyeballs).
 */
export function guardedLookup(resolve: PushLookup, allowed: (address: string) => boolean, refusal: string): LookupFunction {
  return (hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    resolve(hostname)
      .then((answers) => {
        if (answers.some((a) => !allowed(a.address))) throw new PushEndpointRefused(hostname, refusal);
        const usable = answers.filter((a) => wanted === 0 || a.family === wanted).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
        if (usable.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
        return usable;
      })
      .then(
        (usable) => (options.all ? callback(null, usable) : callback(null, usable[0]!.address, usable[0]!.family)),
        (error: NodeJS.ErrnoException) => callback(error, options.all ? [] : '', 4),
      );
  };
}
