import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * The default of a shared agent's blocked networks: its own pod (loopback, the unspecified address), link-local
 * addresses (169.254.169.254: the instance metadata of AWS, Google Cloud, Azure, Oracle Cloud and DigitalOcean;
 * 169.254.170.2: AWS ECS task credentials; 169.254.170.23: the EKS Pod Identity agent), and the metadata and
 * identity endpoints the clouds document outside those ranges: AWS IMDS over IPv6 (fd00:ec2::254), the EKS Pod
 * Identity agent over IPv6 (fd00:ec2::23), Alibaba Cloud's metadata (100.100.100.200), Azure's WireServer
 * (168.63.129.16) and Oracle's legacy metadata address (192.0.0.192). The sources are in docs/shared-agent.md.
 */
export const DEFAULT_BLOCKED_NETWORKS = [
  '127.0.0.0/8',
  '::1/128',
  '0.0.0.0/8',
  '::/128',
  '169.254.0.0/16',
  'fe80::/10',
  'fd00:ec2::254/128',
  'fd00:ec2::23/128',
  '100.100.100.200/32',
  '168.63.129.16/32',
  '192.0.0.192/32',
].join(',');

/**
 * Networks a client must not connect to, checked at connect time on every address a name resolves to (and on
 * an address written in the URL), so neither a name pointing inside nor a redirect gets past it. Argo's agent
 * has no such rule: it runs in the workflow's own namespace, under that namespace's network policies. An agent
 * shared by every namespace is not, and without it an HTTP template would reach its own pod (loopback) and the
 * node's metadata endpoint (link-local).
 */
export class BlockedNetworks {
  private constructor(
    private readonly networks: Array<{ cidr: string; list: BlockList }>,
    /** The setting that lists them, named in the refusal. */
    readonly setting: string,
  ) {}

  /** `spec`: CIDRs separated by commas (`none`: none); answers the problems of a bad entry. */
  static parse(spec: string, setting: string): { blocked: BlockedNetworks; problems: string[] } {
    const problems: string[] = [];
    const networks: Array<{ cidr: string; list: BlockList }> = [];
    const entries = spec.trim() === 'none' ? [] : spec.split(',').map((e) => e.trim());
    for (const cidr of entries.filter(Boolean)) {
      const match = /^([^/]+)\/(\d{1,3})$/.exec(cidr);
      const family = match ? isIP(match[1]!) : 0;
      const prefix = Number(match?.[2]);
      if (!match || family === 0 || prefix > (family === 4 ? 32 : 128)) {
        problems.push(`${setting}: "${cidr}" is not a network such as 169.254.0.0/16 or fe80::/10`);
        continue;
      }
      const list = new BlockList();
      list.addSubnet(match[1]!, prefix, family === 4 ? 'ipv4' : 'ipv6');
      networks.push({ cidr, list });
    }
    return { blocked: new BlockedNetworks(networks, setting), problems };
  }

  get empty(): boolean {
    return this.networks.length === 0;
  }

  /** The listed network holding `address` (an IPv4 address mapped into IPv6 counts as IPv4), or undefined. */
  holding(address: string): string | undefined {
    const bare = address.replace(/^\[|\]$/g, '');
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
    const candidates: Array<[string, 'ipv4' | 'ipv6']> = mapped
      ? [[mapped, 'ipv4']]
      : [[bare, isIP(bare) === 4 ? 'ipv4' : 'ipv6']];
    for (const { cidr, list } of this.networks)
      if (candidates.some(([a, family]) => list.check(a, family))) return cidr;
    return undefined;
  }

  /** Why a connection to `address` is refused (the text after Go's `dial tcp <addr>: `), or undefined. */
  refusal(address: string): string | undefined {
    const cidr = this.holding(address);
    return cidr && `not allowed: ${cidr} is in ${this.setting}`;
  }

  /** dns.lookup for a connection to `port`, failing (EBLOCKEDNET) when an address it answers is listed. */
  lookup(port: number): LookupFunction {
    return (hostname, options, callback) => {
      dnsLookup(hostname, options as LookupOptions, (err, address, family) => {
        if (err) return callback(err, address as string, family);
        const all = Array.isArray(address) ? (address as LookupAddress[]) : [{ address, family }];
        for (const each of all) {
          const refused = this.refusal(each.address);
          if (refused) return callback(blockedError(each.address, port, refused), '', 0);
        }
        callback(null, address as string, family);
      });
    };
  }
}

/** The error a refused connection fails with (Go's transport would word it `dial tcp <addr>: <refusal>`). */
export function blockedError(address: string, port: number, refusal: string): NodeJS.ErrnoException {
  return Object.assign(new Error(refusal), { code: 'EBLOCKEDNET', address, port });
}
