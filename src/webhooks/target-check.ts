import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Addresses a webhook must not reach unless allowed (CAL_WEBHOOKS_ALLOW_PRIVATE): the service's own
// machine and network, link-local (cloud metadata at 169.254.169.254), and their IPv6 forms.
const blocked = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 3]] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [['::', 127], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) blocked.addSubnet(net, prefix, 'ipv6');

const isBlocked = (address: string) => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? blocked.check(mapped[1], 'ipv4') : blocked.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
};

/**
 * Why a target URL may not be called, or undefined when it may: not http(s), or a host that is or resolves to
 * a private or loopback address. Checked when a subscription is made and again before each delivery (a name
 * can be pointed elsewhere after the check).
 */
export async function refusedTarget(url: string, allowPrivate: boolean): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'not an http(s) URL';
  if (parsed.username || parsed.password) return 'credentials in the URL';
  if (allowPrivate) return undefined;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return `the host ${host} does not resolve`;
  }
  const private_ = addresses.find(isBlocked);
  return private_ ? `${host} is a private or loopback address (${private_})` : undefined;
}
