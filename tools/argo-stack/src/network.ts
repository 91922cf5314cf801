// One network namespace per pod, as a kubelet gives each pod its own: the pod's `localhost` is its own (two
// agent pods both serve plugins on port 10420), and it reaches this machine through a bridge. Each stack has
// its own bridge and /24, chosen at `up`, so several stacks run side by side. Needs root (ip, netns, veth).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Stack n uses bridge `argostk<n>` and 10.213.<n>.0/24; this machine is .1 on it (HOST_ADDR). */
export function bridgeName(index: number): string {
  return `argostk${index}`;
}

export function hostAddress(index: number): string {
  return `10.213.${index}.1`;
}

function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

function quietly(fn: () => void): void {
  try {
    fn();
  } catch {
    // already gone
  }
}

/** The first stack index whose bridge does not exist yet. */
export function freeStackIndex(taken: (index: number) => boolean): number {
  for (let index = 1; index < 250; index++) {
    if (!existsSync(`/sys/class/net/${bridgeName(index)}`) && !taken(index)) return index;
  }
  throw new Error('no free stack index (250 stacks on this machine?)');
}

export function createBridge(index: number): void {
  const bridge = bridgeName(index);
  if (!existsSync(`/sys/class/net/${bridge}`)) ip('link', 'add', bridge, 'type', 'bridge');
  quietly(() => ip('addr', 'add', `${hostAddress(index)}/24`, 'dev', bridge));
  ip('link', 'set', bridge, 'up');
}

export function deleteBridge(index: number): void {
  quietly(() => ip('link', 'del', bridgeName(index)));
}

export interface PodNetwork {
  namespace: string;
  address: string;
}

/** Pod slot k (2–254) of stack n: netns `argostk<n>-p<k>`, veth `ask<n>p<k>` on the bridge, eth0 inside. */
export function createPodNetwork(index: number, slot: number): PodNetwork {
  const namespace = `${bridgeName(index)}-p${slot}`;
  const veth = `ask${index}p${slot}`;
  const address = `10.213.${index}.${slot}`;
  deletePodNetwork(index, slot);
  ip('netns', 'add', namespace);
  ip('link', 'add', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', namespace);
  ip('link', 'set', veth, 'master', bridgeName(index), 'up');
  ip('-n', namespace, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
  ip('-n', namespace, 'link', 'set', 'eth0', 'up');
  ip('-n', namespace, 'link', 'set', 'lo', 'up');
  ip('-n', namespace, 'route', 'add', 'default', 'via', hostAddress(index));
  return { namespace, address };
}

export function deletePodNetwork(index: number, slot: number): void {
  quietly(() => ip('link', 'del', `ask${index}p${slot}`));
  quietly(() => ip('netns', 'del', `${bridgeName(index)}-p${slot}`));
}

/** Every pod namespace of stack n still present (after a crash), for `down`. */
export function leftoverPodSlots(index: number): number[] {
  let out: string;
  try {
    out = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  } catch {
    return [];
  }
  const prefix = `${bridgeName(index)}-p`;
  return out
    .split('\n')
    .map((line) => line.split(' ')[0])
    .filter((name) => name.startsWith(prefix))
    .map((name) => Number(name.slice(prefix.length)));
}
