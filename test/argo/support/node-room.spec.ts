import { NodeRoom, agentPodRequests, quantity } from './node-room.js';
import { pluginApps } from './plugins.js';

describe("the real node's room for agent pods", () => {
  it('reads Kubernetes quantities of CPU and memory', () => {
    expect([quantity('50m', 'cpu'), quantity('2', 'cpu'), quantity(undefined, 'cpu')]).toEqual([50, 2000, 0]);
    expect([quantity('96Mi', 'memory'), quantity('64M', 'memory'), quantity('1024Ki', 'memory')]).toEqual([
      96 * 1024 ** 2,
      64e6,
      1024 ** 2,
    ]);
    expect(() => quantity('lots', 'cpu')).toThrow('not a cpu quantity: lots');
  });

  it("asks for an agent pod what Argo's container and the shipped sidecars request", () => {
    // 4 sidecars of 50m and Argo's agent container of 10m: the 210m that fits 9 times into 2 CPUs.
    expect(agentPodRequests(pluginApps())).toEqual({ cpu: 210, memory: 4 * 96 * 1024 ** 2 + 64e6 });
  });

  it('admits no more workflows at once than their requests fit, and the next as one ends', async () => {
    const room = new NodeRoom({ cpu: 2000, memory: 24e9 });
    const pod = { cpu: 210, memory: 400e6 };
    let running = 0;
    let most = 0;
    const ends: Array<() => void> = [];
    const work = () =>
      new Promise<void>((resolve) => {
        running += 1;
        most = Math.max(most, running);
        ends.push(() => {
          running -= 1;
          resolve();
        });
      });
    const all = Promise.all(Array.from({ length: 33 }, () => room.run(pod, work)));
    await new Promise((r) => setImmediate(r));
    expect(running).toBe(9);
    while (ends.length > 0) {
      ends.shift()!();
      await new Promise((r) => setImmediate(r));
    }
    await all;
    expect(most).toBe(9);
    await expect(room.run({ cpu: 2100, memory: 0 }, work)).rejects.toThrow(
      'an agent pod asks 2100m CPU and 0 B, more than the node has free (2000m, 24000000000 B)',
    );
  });
});
