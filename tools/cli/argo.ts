// npm run argo -- up|down|status|env|build: the real Argo Workflows (controller, agent, server) and a real Kubernetes
// API server as local processes, for the real-Argo suite (npm run test:argo) and for trying a plugin by hand.
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exitWith, runCommand, UsageError, type CommandSpec, type ParsedCommand } from './kit/args.js';

const root = resolve(import.meta.dirname, '../..');

const USAGE = `usage: npm run argo -- <up|down|status|env|build> [--dir <folder>] [--patch-rate <duration>]
                                          [--agent pod|shared] [--replicas <n>] [--node runner|real]
                                          [--qps <n>] [--burst <n>] [--workflow-workers <n>]

Runs the real Argo Workflows v4.1 stack on this machine, with no Docker and no kubelet: etcd, kube-apiserver
and kube-controller-manager (Kubernetes v1.35), Argo's CRDs, workflow-controller, argo server, and a pod runner
that runs the pods the controller creates (agent pods with their plugin sidecars, workflow pods) as processes,
one network and mount namespace per pod (or, with --node real, a real node). Builds the binaries from the Go modules pinned in tools/argo-stack/go
on first use (needs Go and the Go module proxy; about 12 minutes on 2 cores, up to an hour on a busy machine;
cached afterwards). Needs root.

  up        build what is missing, start the stack, return once it is ready (then prints what env prints)
  down      stop every process the stack started and remove its network and folder
  status    what runs
  env       KUBECONFIG, KUBECTL, ARGO, ARGO_SERVER, HOST_ADDR (and more) for scripts: eval "$(npm run -s argo -- env)"
  build     only build what is missing (Kubernetes, Argo and helm binaries; with --node real also the real node's
            CoreDNS and registry; no root needed), e.g. ahead of a run

  --dir <folder>           the stack's folder (default: one per checkout, under ~/.cache/executor-plugins)
  --patch-rate <duration>  the controller's DEFAULT_REQUEUE_TIME, which agents use as their status patch rate
                           (default 2s; Argo's default is 10s)
  --agent pod|shared       pod (default): Argo's agent pod per workflow; shared: the controller with
                           disableAgentPodCreation "true" and the shared agent (dist/apps/shared-agent,
                           npm run build first) as processes of the stack, configured as manifests/shared-agent's
                           Deployment (its ServiceAccount's token, the plugins' Secrets of namespace argo); on a
                           real node, that Deployment itself (kubectl apply -k), its pods running our image
  --replicas <n>           replicas of the shared agent (default 2)
  --node runner|real       runner (default; a stack that is up keeps its node): the pod runner runs the pods as
                           processes; real (opt-in): a real node runs them, the kubelet, kube-scheduler and
                           kube-proxy (Kubernetes v1.35) with Debian's containerd, runc and CNI plugins (installed
                           with apt-get when missing) and images built here (docs/testing.md, "The real node");
                           up again on a real node builds and pushes the images of the checkout it runs from
  --qps <n>, --burst <n>, --workflow-workers <n>
                           the workflow-controller's flags of the same names (Argo's defaults: 20, 30, 32), as
                           Argo's scaling guide raises them for many workflows`;

const SPEC = {
  usage: USAGE,
  options: {
    dir: { type: 'string' },
    'patch-rate': { type: 'string', default: '2s' },
    agent: { type: 'string', default: 'pod' },
    replicas: { type: 'string', default: '2' },
    node: { type: 'string' },
    qps: { type: 'string' },
    burst: { type: 'string' },
    'workflow-workers': { type: 'string' },
  },
  positionals: [{ name: '<up|down|status|env|build>', required: true }],
} as const satisfies CommandSpec;

const COMMANDS = ['up', 'down', 'status', 'env', 'build', 'run-pods'];

async function main({ values, positionals: [command] }: ParsedCommand<typeof SPEC.options>): Promise<number> {
  if (!COMMANDS.includes(command))
    throw new UsageError(`unknown command '${command}' (up, down, status, env or build)`);
  if (!/^\d+(ms|s|m)$/.test(values['patch-rate']))
    throw new UsageError(`--patch-rate must be a duration such as 2s, got '${values['patch-rate']}'`);
  if (!['pod', 'shared'].includes(values.agent))
    throw new UsageError(`--agent must be pod or shared, got '${values.agent}'`);
  if (values.node !== undefined && !['runner', 'real'].includes(values.node))
    throw new UsageError(`--node must be runner or real, got '${values.node}'`);
  const replicas = Number(values.replicas);
  if (!/^\d+$/.test(values.replicas) || replicas < 1 || replicas > 16)
    throw new UsageError(`--replicas must be a number from 1 to 16, got '${values.replicas}'`);
  const controllerFlags = (['qps', 'burst', 'workflow-workers'] as const).flatMap((name) => {
    const value = values[name];
    if (value === undefined) return [];
    if (!/^[1-9]\d{0,4}$/.test(value))
      throw new UsageError(`--${name} must be a whole number from 1 to 99999, got '${value}'`);
    return [`--${name}=${value}`];
  });
  const stack = await import('../argo-stack/src/stack.js');
  const dir = values.dir ? resolve(values.dir) : stack.defaultStackDir(root);
  const log = (line: string) => console.error(`argo: ${line}`);
  switch (command) {
    case 'up': {
      if (process.getuid?.() !== 0)
        throw new UsageError('up needs root (network namespaces and bind mounts for the pods)');
      const shared = values.agent === 'shared';
      if (shared && !existsSync(join(root, 'dist/apps/shared-agent/main.js')))
        throw new UsageError('--agent shared runs dist/apps/shared-agent: npm run build first');
      const running = stack.readState(dir);
      const up = running?.processes.some((p) => stack.alive(p)) ? running : undefined;
      // Without --node, a stack that is up keeps the node it has.
      const node = (values.node ?? (up?.realNode ? 'real' : 'runner')) as 'runner' | 'real';
      if (up && Boolean(up.realNode) !== (node === 'real'))
        throw new UsageError(
          `the stack in ${dir} is up with ${up.realNode ? 'a real node' : 'the pod runner'}: npm run argo -- down first`,
        );
      if (up && Boolean(up.sharedAgent) !== shared)
        throw new UsageError(
          `the stack in ${dir} is up with ${up.sharedAgent ? 'the shared agent' : 'agent pods'}: npm run argo -- down first`,
        );
      const state = await stack.up({
        repoRoot: root,
        dir,
        patchRate: values['patch-rate'],
        log,
        podRunner: [process.execPath, process.argv[1], 'run-pods', '--dir', dir],
        controllerConfig: shared ? { disableAgentPodCreation: 'true' } : {},
        controllerFlags,
        node,
      });
      if (shared && !state.sharedAgent) {
        const { startSharedAgents } = await import('../argo-stack/src/shared-agents.js');
        const { installSharedAgentDeployment } = await import('../argo-stack/src/shared-agent-pods.js');
        const start = state.realNode ? installSharedAgentDeployment : startSharedAgents;
        try {
          await start(state, { replicas, patchRate: values['patch-rate'], log });
        } catch (err) {
          await stack.down(dir, () => undefined, { keepFiles: true });
          throw err;
        }
      }
      console.log(stack.envLines(state).join('\n'));
      return 0;
    }
    case 'down':
      await stack.down(dir, log);
      return 0;
    case 'status':
      console.log(stack.status(dir).join('\n'));
      return stack.readState(dir) ? 0 : 1;
    case 'build': {
      const { BINARIES, REAL_NODE_SETS, ensureBinarySet } = await import('../argo-stack/src/binaries.js');
      for (const set of Object.keys(BINARIES) as Array<keyof typeof BINARIES>)
        if (values.node === 'real' || !REAL_NODE_SETS.includes(set))
          console.log(`${set}: ${await ensureBinarySet(root, set, log)}`);
      return 0;
    }
    case 'env': {
      const state = stack.readState(dir);
      if (!state) {
        console.error(`argo: no stack in ${dir}: npm run argo -- up`);
        return 1;
      }
      console.log(stack.envLines(state).join('\n'));
      return 0;
    }
    default:
      return runPods(dir);
  }
}

/** The pod runner, started by `up` as a process of the stack. */
async function runPods(dir: string): Promise<number> {
  const stack = await import('../argo-stack/src/stack.js');
  const { PodRunner } = await import('../argo-stack/src/pod-runner.js');
  const state = stack.readState(dir);
  if (!state) throw new UsageError(`no stack in ${dir}`);
  const runner = new PodRunner({
    client: stack.kubeClient(state),
    index: state.index,
    dir,
    images: { repoRoot: state.repoRoot, argoBin: state.bin.argo, shimDir: join(dir, 'shims') },
    apiServerPort: state.ports.apiServer,
    log: (fields) => console.log(JSON.stringify({ time: new Date().toISOString(), ...fields })),
  });
  await runner.start();
  writeFileSync(join(dir, 'pod-runner.ready'), `${process.pid}\n`);
  await new Promise<void>((done) => {
    process.once('SIGTERM', done);
    process.once('SIGINT', done);
  });
  await runner.stop();
  return 0;
}

exitWith(
  await runCommand({ name: 'argo', help: 'npm run argo -- --help' }, process.argv.slice(2), SPEC, main),
);
