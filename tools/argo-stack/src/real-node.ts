// The stack's real node (`up --node real`): containerd with runc and the CNI plugins (Debian's packages), the
// kubelet, kube-scheduler and kube-proxy (built from the pinned Kubernetes module), the images it runs, built
// here and pushed to its registry, and CoreDNS. In place of the pod runner: pods are scheduled, their images
// pulled, run in containers with their cgroups, users and security contexts, and `kubectl logs` and `exec`
// reach them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBinarySet } from './binaries.js';
import { CLUSTER_DNS_IP, CLUSTER_DOMAIN, startClusterDns } from './cluster-dns.js';
import { ensureInstalled } from './debian.js';
import {
  hostOf,
  mirrorHosts,
  pushImages,
  qualified,
  startImageMirror,
  type BuiltImage,
  type ImageMirror,
} from './image-mirror.js';
import { bridgeName, hostAddress } from './network.js';
import { ensureNodeImages, nodeBase } from './node-images.js';
import { ensurePluginImages } from './plugin-images.js';
import { pinnedVersion, VERSIONED_MODULE } from './versions.js';
import {
  argoModuleDir,
  exitedLine,
  freePort,
  kubectl,
  moduleDir,
  startProcess,
  until,
  type StackState,
} from './stack.js';

/** Debian's packages the node runs, and why these: docs/testing.md, "The real node". */
export const NODE_PACKAGES = ['containerd', 'runc', 'containernetworking-plugins', 'iptables', 'conntrack'];
const CNI_BIN = '/usr/lib/cni';
const CGROUP_ROOT = '/sys/fs/cgroup';

export interface RealNode {
  name: string;
  /** The kubelet's cgroup root in every v1 hierarchy (created by the stack, `/argostk<n>`). */
  cgroupRoot: string;
  containerdSocket: string;
  kubeletPort: number;
  /** The registry containerd pulls every image from. */
  mirror: ImageMirror;
  /** The Node base the plugin images are built on (an `up` again builds a checkout's images on it). */
  base: BuiltImage;
}

const nodeDir = (state: StackState) => join(state.dir, 'node');

export function nodeName(state: StackState): string {
  return `argo-stack-${state.index}`;
}

function containerdConfig(state: StackState, node: RealNode, sandboxImage: string): string {
  const dir = nodeDir(state);
  return `version = 2
root = "${join(dir, 'containerd/root')}"
state = "${join(dir, 'containerd/state')}"
[grpc]
  address = "${node.containerdSocket}"
[plugins."io.containerd.internal.v1.opt"]
  path = "${join(dir, 'containerd/opt')}"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "${sandboxImage}"
  # This machine's root lacks CAP_SYS_RESOURCE: runc cannot lower a container's oom_score_adj (the kubelet asks
  # -998 for the pause container), so it is kept at containerd's own, as for a rootless containerd.
  restrict_oom_score_adj = true
  stream_server_address = "127.0.0.1"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "/usr/sbin/runc"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "${CNI_BIN}"
    conf_dir = "${join(dir, 'cni/net.d')}"
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = "${node.mirror.hostsDir}"
`;
}

/** The pods' network: the stack's bridge and /24 (this machine is .1), addresses from host-local. */
function cniConfig(state: StackState): string {
  const subnet = `10.213.${state.index}`;
  return `${JSON.stringify(
    {
      cniVersion: '1.0.0',
      name: 'argo-stack',
      plugins: [
        {
          type: 'bridge',
          bridge: bridgeName(state.index),
          isGateway: true,
          ipMasq: false,
          hairpinMode: true,
          ipam: {
            type: 'host-local',
            ranges: [
              [{ subnet: `${subnet}.0/24`, rangeStart: `${subnet}.2`, gateway: hostAddress(state.index) }],
            ],
            routes: [{ dst: '0.0.0.0/0' }],
            dataDir: join(nodeDir(state), 'cni/ipam'),
          },
        },
        { type: 'portmap', capabilities: { portMappings: true } },
      ],
    },
    null,
    2,
  )}\n`;
}

/**
 * The kubelet's static configuration. cgroup v1 (this machine's hierarchy): v1.35 refuses to start on it unless
 * `failCgroupV1: false` (its default is true), and the driver is cgroupfs (no systemd here). Eviction thresholds
 * low and image garbage collection off: the node shares its disk with the machine.
 */
function kubeletConfig(state: StackState, node: RealNode, healthzPort: number): string {
  const pki = join(state.dir, 'pki');
  return `${JSON.stringify(
    {
      apiVersion: 'kubelet.config.k8s.io/v1beta1',
      kind: 'KubeletConfiguration',
      address: state.hostAddr,
      port: node.kubeletPort,
      readOnlyPort: 0,
      healthzBindAddress: '127.0.0.1',
      healthzPort,
      tlsCertFile: join(pki, 'serving.crt'),
      tlsPrivateKeyFile: join(pki, 'serving.key'),
      authentication: {
        anonymous: { enabled: false },
        webhook: { enabled: true },
        x509: { clientCAFile: join(pki, 'ca.crt') },
      },
      authorization: { mode: 'Webhook' },
      cgroupDriver: 'cgroupfs',
      cgroupRoot: node.cgroupRoot,
      cgroupsPerQOS: true,
      failCgroupV1: false,
      failSwapOn: false,
      containerRuntimeEndpoint: `unix://${node.containerdSocket}`,
      enforceNodeAllocatable: ['pods'],
      evictionHard: {
        'memory.available': '100Mi',
        'nodefs.available': '1%',
        'nodefs.inodesFree': '1%',
        'imagefs.available': '1%',
      },
      imageGCHighThresholdPercent: 100,
      imageGCLowThresholdPercent: 99,
      resolvConf: '/etc/resolv.conf',
      clusterDNS: [CLUSTER_DNS_IP],
      clusterDomain: CLUSTER_DOMAIN,
      serializeImagePulls: false,
      syncFrequency: '10s',
      nodeStatusReportFrequency: '10s',
      containerLogMaxSize: '10Mi',
      // Its KUBE-FIREWALL and canary chains are the machine's, and guard route_localnet, which stays off here.
      makeIPTablesUtilChains: false,
    },
    null,
    2,
  )}\n`;
}

function kubeletKubeconfig(state: StackState): string {
  const pki = join(state.dir, 'pki');
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: argo-stack',
    '  cluster:',
    `    server: https://${state.hostAddr}:${state.ports.apiServer}`,
    `    certificate-authority: ${join(pki, 'ca.crt')}`,
    'users:',
    '- name: kubelet',
    '  user:',
    `    client-certificate: ${join(pki, 'kubelet.crt')}`,
    `    client-key: ${join(pki, 'kubelet.key')}`,
    'contexts:',
    '- name: kubelet',
    '  context: {cluster: argo-stack, user: kubelet}',
    'current-context: kubelet',
    '',
  ].join('\n');
}

/** The v1 hierarchies of this machine (memory, cpu, ... and name=systemd), each a folder under /sys/fs/cgroup. */
function hierarchies(): string[] {
  return readdirSync(CGROUP_ROOT).filter(
    (h) => h !== 'unified' && existsSync(join(CGROUP_ROOT, h, 'cgroup.procs')),
  );
}

/** The node's cgroup root in every hierarchy: the kubelet creates kubepods below it; cpuset needs cpus and mems. */
function createCgroupRoot(root: string): void {
  for (const h of hierarchies()) {
    const dir = join(CGROUP_ROOT, h, root);
    mkdirSync(dir, { recursive: true });
    for (const file of ['cpuset.cpus', 'cpuset.mems'])
      if (existsSync(join(dir, file)) && readFileSync(join(dir, file), 'utf8').trim() === '')
        writeFileSync(join(dir, file), readFileSync(join(CGROUP_ROOT, h, file)));
  }
}

function removeCgroups(dir: string): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isDirectory()) removeCgroups(join(dir, entry.name));
  try {
    rmdirSync(dir);
  } catch {
    // a process still in it: left for the machine to show
  }
}

/** Another stack's kube-proxy owns the machine's Service rules (its chains are global): one real node at a time. */
function assertNoOtherKubeProxy(kubeProxy: string): void {
  try {
    execFileSync('iptables', ['-t', 'nat', '-S', 'KUBE-SERVICES'], { stdio: 'ignore' });
  } catch {
    return;
  }
  throw new Error(
    `the nat table already has kube-proxy's KUBE-SERVICES chain: another stack runs a real node (npm run argo -- down it), or one stopped without cleaning up (${kubeProxy} --cleanup)`,
  );
}

export async function startRealNode(state: StackState, log: (line: string) => void): Promise<RealNode> {
  const started = Date.now();
  const kube = (name: string) => join(state.bin.kube, name);
  ensureInstalled(NODE_PACKAGES, log);
  assertNoOtherKubeProxy(kube('kube-proxy'));
  const dir = nodeDir(state);
  mkdirSync(join(dir, 'cni/net.d'), { recursive: true });
  const images = await nodeImages(state, log);
  const base = baseOf(state, images);
  const pushed = [...images.filter((i) => i !== base), ...pluginImages(state.repoRoot, base, log)];
  const node: RealNode = {
    name: nodeName(state),
    cgroupRoot: `/${bridgeName(state.index)}`,
    containerdSocket: join(dir, 'containerd.sock'),
    kubeletPort: await freePort(state.hostAddr),
    base,
    mirror: await startImageMirror(
      state,
      dir,
      pushed.map((i) => hostOf(i.ref)),
      log,
    ),
  };
  state.realNode = node;
  await pushImages(node.mirror, pushed, log);
  const sandbox = images.find((i) => i.ref.startsWith('registry.k8s.io/pause:'))!.ref;
  writeFileSync(join(dir, 'containerd.toml'), containerdConfig(state, node, sandbox));
  writeFileSync(join(dir, 'cni/net.d/10-argo-stack.conflist'), cniConfig(state));
  const containerd = startProcess(state, 'containerd', [
    'containerd',
    '--config',
    join(dir, 'containerd.toml'),
  ]);
  await until(
    'containerd',
    60,
    () => (nodeCtr(node, ['version']) ? true : undefined),
    () => exitedLine(containerd),
  );

  execFileSync(kube('certs'), [
    '--dir',
    join(state.dir, 'pki'),
    '--client',
    `kubelet=system:node:${node.name}/system:nodes`,
  ]);
  writeFileSync(join(dir, 'kubelet.kubeconfig'), kubeletKubeconfig(state), { mode: 0o600 });
  const healthzPort = await freePort('127.0.0.1');
  writeFileSync(join(dir, 'kubelet.json'), kubeletConfig(state, node, healthzPort));
  createCgroupRoot(node.cgroupRoot);
  const kubelet = startProcess(state, 'kubelet', [
    kube('kubelet'),
    `--config=${join(dir, 'kubelet.json')}`,
    `--kubeconfig=${join(dir, 'kubelet.kubeconfig')}`,
    `--root-dir=${join(dir, 'kubelet')}`,
    `--cert-dir=${join(dir, 'kubelet/pki')}`,
    `--hostname-override=${node.name}`,
    `--node-ip=${state.hostAddr}`,
    '--v=1',
  ]);
  const kubeconfig = join(state.dir, 'kubeconfig');
  startProcess(state, 'kube-scheduler', [
    kube('kube-scheduler'),
    `--kubeconfig=${kubeconfig}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    `--secure-port=${await freePort('127.0.0.1')}`,
  ]);
  // Leaves the machine's conntrack limits and route_localnet as they are (kube-proxy would raise them).
  startProcess(state, 'kube-proxy', [
    kube('kube-proxy'),
    `--kubeconfig=${kubeconfig}`,
    `--hostname-override=${node.name}`,
    '--proxy-mode=iptables',
    `--cluster-cidr=10.213.${state.index}.0/24`,
    `--healthz-bind-address=127.0.0.1:${await freePort('127.0.0.1')}`,
    `--metrics-bind-address=127.0.0.1:${await freePort('127.0.0.1')}`,
    '--conntrack-max-per-core=0',
    '--conntrack-tcp-timeout-established=0',
    '--conntrack-tcp-timeout-close-wait=0',
    '--iptables-localhost-nodeports=false',
  ]);
  await until(
    `node ${node.name} Ready`,
    180,
    () => {
      const ready = kubectl(state, [
        'get',
        'node',
        node.name,
        '-o',
        'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
      ]);
      return ready === 'True' ? true : undefined;
    },
    () => exitedLine(kubelet) ?? exitedLine(containerd),
  );
  log(`real node ${node.name} Ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await startClusterDns(state, images.find((i) => i.ref.includes('/coredns/coredns:'))!.ref, log);
  return node;
}

/** The node's own images (pause, CoreDNS, argoexec, the third-party ones the suites name, the Node base). */
async function nodeImages(state: StackState, log: (line: string) => void): Promise<BuiltImage[]> {
  const corednsMod = join(state.repoRoot, 'tools/argo-stack/go/coredns/go.mod');
  const images = ensureNodeImages(
    {
      repoRoot: state.repoRoot,
      kubeModule: moduleDir(state.repoRoot, 'kube', 'k8s.io/kubernetes'),
      argoBin: state.bin.argo,
      argoModule: argoModuleDir(state.repoRoot),
      coredns: {
        bin: await ensureBinarySet(state.repoRoot, 'coredns', log),
        version: pinnedVersion(readFileSync(corednsMod, 'utf8'), VERSIONED_MODULE.coredns, corednsMod),
      },
    },
    log,
  );
  return images.map((i) => ({ ...i, transport: 'oci-archive' }));
}

/** The plugin and test images of a checkout, built on the Node base. */
function pluginImages(repoRoot: string, base: BuiltImage, log: (line: string) => void): BuiltImage[] {
  return ensurePluginImages(repoRoot, base, log).map((i) => ({ ...i, transport: 'docker-archive' }));
}

function baseOf(state: StackState, images: BuiltImage[]): BuiltImage {
  return images.find((i) => i.ref === nodeBase(state.repoRoot).image)!;
}

function nodeCtr(node: RealNode, args: string[]): string {
  return execFileSync('ctr', ['--address', node.containerdSocket, '--namespace', 'k8s.io', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * `up` again on a stack whose real node is up, from `repoRoot` (this checkout, or a fork with a new plugin):
 * builds what is missing of that checkout's plugin and test images and pushes those that changed to the node's
 * registry. A changed image is removed from the node, so that its next pod pulls it again, as a node pulls an
 * image pushed under a new tag.
 */
export async function pushCheckoutImages(
  state: StackState,
  repoRoot: string,
  log: (line: string) => void,
): Promise<void> {
  const node = state.realNode!;
  const images = pluginImages(repoRoot, node.base, log);
  mirrorHosts(
    node.mirror,
    images.map((i) => hostOf(i.ref)),
  );
  const pushed = await pushImages(node.mirror, images, log);
  const present = new Set(nodeCtr(node, ['images', 'ls', '-q']).split('\n'));
  const stale = pushed.map(qualified).filter((ref) => present.has(ref));
  if (stale.length) nodeCtr(node, ['images', 'rm', ...stale]);
  log(
    `images of ${repoRoot} in the node's registry${pushed.length ? `, pushed: ${pushed.join(', ')}` : ', none changed'}`,
  );
}

/** Before the stack's processes stop: every pod deleted, and containerd left with no running task. */
export async function drainRealNode(state: StackState): Promise<void> {
  const node = state.realNode;
  if (!node) return;
  try {
    kubectl(state, ['delete', 'pods', '--all', '--all-namespaces', '--grace-period=1', '--wait=false']);
    await until('the node drained', 60, () => {
      const tasks = execFileSync(
        'ctr',
        ['--address', node.containerdSocket, '--namespace', 'k8s.io', 'tasks', 'ls', '-q'],
        { encoding: 'utf8' },
      ).trim();
      return tasks === '' ? true : undefined;
    });
  } catch {
    // the API server or containerd is gone already: cleanUpRealNode ends what is left
  }
}

/** After the stack's processes stopped: shims, mounts, cgroups and Service rules the node left behind. */
export function cleanUpRealNode(state: StackState): void {
  const node = state.realNode;
  if (!node) return;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmdline.startsWith('/usr/bin/containerd-shim') && cmdline.includes(`\0${node.containerdSocket}\0`))
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone
      }
  }
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((target) => target && target.startsWith(`${state.dir}/`))
    .sort((a, b) => b.length - a.length);
  for (const target of mounts)
    try {
      execFileSync('umount', ['-l', target], { stdio: 'ignore' });
    } catch {
      // unmounted with its parent
    }
  for (const h of hierarchies()) removeCgroups(join(CGROUP_ROOT, h, node.cgroupRoot));
  try {
    execFileSync(join(state.bin.kube, 'kube-proxy'), ['--cleanup'], { stdio: 'ignore' });
  } catch {
    // nothing to clean
  }
  removeEmptyFirewallChain();
}

/**
 * kube-proxy makes an empty KUBE-FIREWALL chain (the kubelet's, which this kubelet does not fill) with jumps to
 * it from INPUT and OUTPUT, in the IPv4 and the IPv6 filter table, and its --cleanup leaves them: removed here
 * while the chain holds no rule.
 */
function removeEmptyFirewallChain(): void {
  for (const command of ['iptables', 'ip6tables']) {
    const table = (args: string[]) =>
      execFileSync(command, ['-t', 'filter', ...args], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    try {
      if (table(['-S', 'KUBE-FIREWALL']).trim() !== '-N KUBE-FIREWALL') continue;
      for (const chain of ['INPUT', 'OUTPUT'])
        while (table(['-S', chain]).includes('-j KUBE-FIREWALL')) table(['-D', chain, '-j', 'KUBE-FIREWALL']);
      table(['-X', 'KUBE-FIREWALL']);
    } catch {
      // no such chain
    }
  }
}
