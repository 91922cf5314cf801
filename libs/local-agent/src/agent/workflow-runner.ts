import { randomUUID } from 'node:crypto';
import { isFinalPhase, isNodePhase, parseDuration, sleep, type NodePhase } from '@app/contract';
import { executePluginTemplate } from '@app/argo-agent/agent-dispatch.js';
import type { ArgoNodeResult } from '@app/argo-agent/argo-reply.js';
import { isFailedPhase, nodeId, type AgentNode, type AgentNodeType } from './agent-node.js';
import { marshalExecuteTemplateArgs } from '@app/argo-agent/go-json.js';
import {
  ARGO_RPC_TIMING,
  PluginCallError,
  PluginRpcClient,
  type AgentPlugin,
  type RpcTiming,
} from '@app/argo-agent/plugin-rpc-client.js';
import { patchNodeResult } from './taskset-patch.js';
import { substituteJson, substituteText, unresolvedTags, type Variables } from './substitute.js';
import { evaluateWhen } from './when.js';
import type {
  ArgumentsSpec,
  ParamSpec,
  StepSpec,
  TaskSpec,
  TemplateSpec,
  WorkflowShape,
} from './workflow-types.js';

export interface RunOptions {
  plugins: AgentPlugin[];
  namespace?: string;
  /** Overrides of spec.arguments.parameters (`-p name=value`). */
  parameters?: Record<string, string>;
  /** WorkflowTemplates for workflowTemplateRef and templateRef. */
  templates?: WorkflowShape[];
  /**
   * Multiplies every wait of the agent: requeues, retryStrategy backoff and the RPC client's 1-2-4-8 s
   * connection backoff (0.01 makes a 30s requeue take 300ms). Not the 30 s call timeout: a bound on the
   * plugin's reply, not a wait. Default 1.
   */
  timeScale?: number;
  /** The RPC client's timing; a backoffMs given here is used as given (not scaled). */
  rpc?: Partial<RpcTiming>;
  /** Concurrent plugin calls (ARGO_AGENT_TASK_WORKERS, default 16). */
  workers?: number;
  /** Randomness for the plugin order and the generated name suffix. */
  random?: () => number;
  /** Safety net: most template.execute dispatches for one node (default 100000). */
  maxCallsPerNode?: number;
  /**
   * Calls again after a final non-Succeeded reply (Failed, Error, Skipped, Omitted) that carried a requeue:
   * Argo's taskWorker re-queues any requeue > 0 and keeps doing so while the workflow runs. Default 3.
   */
  maxRequeuesAfterFinal?: number;
  /** Safety net: the run fails after this long (default: spec.activeDeadlineSeconds, else 1h). */
  deadlineMs?: number;
  onEvent?: (event: RunEvent) => void;
}

export interface RunEvent {
  node: AgentNode;
  kind: 'started' | 'requeue' | 'finished';
  requeueMs?: number;
}

export interface WorkflowResult {
  name: string;
  namespace: string;
  uid: string;
  phase: NodePhase;
  message?: string;
  startedAt: number;
  finishedAt: number;
  parameters: Record<string, string>;
  nodes: AgentNode[];
  warnings: string[];
  /** The first node with this display name (step or task name). */
  node(displayName: string): AgentNode | undefined;
  /** RPC calls made, per plugin: attempts, statuses and errors. */
  rpcCalls: Record<string, number>;
}

const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

class Semaphore {
  private free: number;
  private readonly waiting: Array<() => void> = [];
  constructor(size: number) {
    this.free = size;
  }
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

/** One run of a workflow through the local agent. */
class WorkflowRun {
  readonly nodes = new Map<string, AgentNode>();
  readonly warnings: string[] = [];
  private readonly clients: PluginRpcClient[];
  private readonly workers: Semaphore;
  private readonly globals: Variables = new Map();
  private readonly timeScale: number;
  private readonly deadline: number;
  private readonly random: () => number;
  readonly name: string;
  readonly namespace: string;
  readonly uid = randomUUID();
  readonly startedAt = Date.now();

  constructor(
    private readonly wf: WorkflowShape,
    private readonly options: RunOptions,
  ) {
    this.random = options.random ?? Math.random;
    this.timeScale = options.timeScale ?? 1;
    const suffix = Array.from(
      { length: 5 },
      () => NAME_ALPHABET[Math.floor(this.random() * NAME_ALPHABET.length)],
    ).join('');
    this.name = wf.metadata.name ?? `${wf.metadata.generateName ?? 'workflow-'}${suffix}`;
    this.namespace = wf.metadata.namespace ?? options.namespace ?? 'argo';
    const timing: RpcTiming = {
      ...ARGO_RPC_TIMING,
      backoffMs: ARGO_RPC_TIMING.backoffMs * this.timeScale,
      ...options.rpc,
    };
    // The agent asks the plugins in the order of ARGO_PLUGIN_ADDRESSES: a random order per workflow.
    this.clients = shuffle(options.plugins, this.random).map(
      (p) => new PluginRpcClient(p, timing, this.random),
    );
    this.workers = new Semaphore(options.workers ?? 16);
    const activeDeadline = wf.spec.activeDeadlineSeconds;
    this.deadline =
      this.startedAt + (options.deadlineMs ?? (activeDeadline ? activeDeadline * 1000 : 3600_000));
  }

  private workflowParameters: Record<string, string> = {};

  get parameters(): Record<string, string> {
    return this.workflowParameters;
  }

  async run(): Promise<WorkflowResult> {
    const spec = this.wf.spec;
    // Names from the workflow and the command line: a parameter named __proto__ is a parameter.
    const params = Object.create(null) as Record<string, string>;
    for (const p of spec.arguments?.parameters ?? [])
      if (p.value !== undefined) params[p.name] = String(p.value);
    Object.assign(params, this.options.parameters);
    this.workflowParameters = params;
    this.setGlobals(params, 'Running');
    const entry = spec.entrypoint;
    let phase: NodePhase = 'Error';
    let message: string | undefined;
    if (!entry) {
      message = 'spec.entrypoint is required';
    } else {
      const root = await this.execute(
        { name: entry, template: entry, arguments: spec.arguments },
        this.name,
        this.name,
        undefined,
        new Map(),
      );
      // A workflow whose root hangs is Running, without a message, and never reaches its exit handler; a
      // skipped or omitted root is a success (operator.go maps the root node's phase onto the workflow).
      phase = root.hung ? 'Running' : SKIPPED_PHASES.has(root.phase) ? 'Succeeded' : root.phase;
      message = root.hung || phase === 'Succeeded' ? undefined : root.message;
      if (spec.onExit && !root.hung) {
        this.globals.set('workflow.status', phase);
        this.globals.set('workflow.duration', String((Date.now() - this.startedAt) / 1000));
        const exit = await this.execute(
          { name: 'onExit', template: spec.onExit },
          `${this.name}.onExit`,
          `${this.name}.onExit`,
          undefined,
          new Map(),
        );
        // operator.go: a successful run whose exit handler failed or errored takes its phase and message.
        if (isFailedPhase(exit.phase) && phase === 'Succeeded') {
          phase = exit.phase;
          message = exit.message;
        }
      }
    }
    return this.result(phase, message);
  }

  private result(phase: NodePhase, message: string | undefined): WorkflowResult {
    const nodes = [...this.nodes.values()];
    const rpcCalls: Record<string, number> = {};
    for (const c of this.clients) rpcCalls[c.plugin.name] = c.calls.length;
    return {
      name: this.name,
      namespace: this.namespace,
      uid: this.uid,
      phase,
      message,
      startedAt: this.startedAt,
      finishedAt: Date.now(),
      parameters: this.parameters,
      nodes,
      warnings: this.warnings,
      rpcCalls,
      node: (displayName: string) => nodes.find((n) => n.displayName === displayName),
    };
  }

  private setGlobals(params: Record<string, string>, status: string): void {
    const g = this.globals;
    g.set('workflow.name', this.name);
    g.set('workflow.namespace', this.namespace);
    g.set('workflow.uid', this.uid);
    g.set('workflow.status', status);
    g.set('workflow.creationTimestamp', new Date(this.startedAt).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    g.set('workflow.mainEntrypoint', this.wf.spec.entrypoint ?? '');
    if (this.wf.spec.serviceAccountName)
      g.set('workflow.serviceAccountName', this.wf.spec.serviceAccountName);
    for (const [k, v] of Object.entries(this.wf.metadata.labels ?? {})) g.set(`workflow.labels.${k}`, v);
    for (const [k, v] of Object.entries(this.wf.metadata.annotations ?? {}))
      g.set(`workflow.annotations.${k}`, v);
    for (const [k, v] of Object.entries(params)) g.set(`workflow.parameters.${k}`, v);
    const list = Object.entries(params).map(([name, value]) => ({ name, value }));
    g.set('workflow.parameters', JSON.stringify(list));
    g.set('workflow.parameters.json', JSON.stringify(params));
  }

  // ---- templates ------------------------------------------------------------------------------------------

  private resolveTemplate(step: StepSpec): TemplateSpec {
    if (step.templateRef) {
      const { name, template } = step.templateRef;
      const wft = (this.options.templates ?? []).find((t) => t.metadata.name === name);
      const found = wft?.spec.templates?.find((t) => t.name === template);
      if (!found) throw new Error(`templateRef ${name}/${template} not found`);
      return found;
    }
    const found = this.wf.spec.templates?.find((t) => t.name === step.template);
    if (!found) throw new Error(`template ${step.template} not found`);
    return found;
  }

  private newNode(
    name: string,
    displayName: string,
    type: AgentNodeType,
    templateName: string,
    parent?: AgentNode,
  ): AgentNode {
    const node: AgentNode = {
      id: nodeId(this.name, name),
      name,
      displayName,
      type,
      templateName,
      phase: 'Pending',
      children: [],
      startedAt: Date.now(),
      calls: 0,
    };
    this.nodes.set(node.id, node);
    parent?.children.push(node.id);
    return node;
  }

  private finish(node: AgentNode, phase: NodePhase, message?: string): AgentNode {
    node.phase = phase;
    if (message !== undefined) node.message = message;
    node.finishedAt = Date.now();
    this.options.onEvent?.({ node, kind: 'finished' });
    return node;
  }

  /** Runs the template a step/task refers to: arguments → inputs, retries, then the template type. */
  private async execute(
    step: StepSpec,
    name: string,
    displayName: string,
    parent: AgentNode | undefined,
    _scope: Variables,
  ): Promise<AgentNode> {
    let template: TemplateSpec;
    try {
      template = this.resolveTemplate(step);
    } catch (err) {
      const node = this.newNode(name, displayName, 'Skipped', step.template ?? '', parent);
      return this.finish(node, 'Error', (err as Error).message);
    }
    const retry = template.retryStrategy;
    if (!retry) return this.executeOnce(template, step.arguments, name, displayName, parent, undefined);

    const retryNode = this.newNode(name, displayName, 'Retry', template.name, parent);
    retryNode.phase = 'Running';
    const limit = Number(retry.limit ?? 0);
    const policy = retry.retryPolicy ?? 'OnFailure';
    let last: AgentNode | undefined;
    let retryable = false;
    for (let attempt = 0; attempt <= limit; attempt++) {
      if (attempt > 0) await this.sleep(this.retryBackoff(retry, attempt));
      last = await this.executeOnce(
        template,
        step.arguments,
        `${name}(${attempt})`,
        `${displayName}(${attempt})`,
        retryNode,
        attempt,
        name,
      );
      // operator.go: Always retries Failed and Error, OnFailure (the default) Failed only, OnError Error only.
      retryable =
        policy === 'Always'
          ? isFailedPhase(last.phase)
          : policy === 'OnFailure'
            ? last.phase === 'Failed'
            : policy === 'OnError'
              ? last.phase === 'Error'
              : false;
      if (!retryable || last.hung) break;
    }
    retryNode.outputs = last?.outputs;
    if (last!.hung) {
      retryNode.hung = true;
      return this.finish(retryNode, 'Running');
    }
    // operator.go processNodeRetries: a success keeps no message; retries used up say so; a failure the policy
    // does not retry keeps the child's message.
    if (last!.phase === 'Succeeded') return this.finish(retryNode, 'Succeeded');
    return this.finish(retryNode, last!.phase, retryable ? 'No more retries left' : last!.message);
  }

  private retryBackoff(retry: NonNullable<TemplateSpec['retryStrategy']>, attempt: number): number {
    const base = retry.backoff?.duration
      ? parseDuration(
          String(
            /^\d+$/.test(String(retry.backoff.duration))
              ? `${retry.backoff.duration}s`
              : retry.backoff.duration,
          ),
        )
      : 0;
    const factor = Number(retry.backoff?.factor ?? 1);
    let delay = base * factor ** (attempt - 1);
    if (retry.backoff?.maxDuration) delay = Math.min(delay, parseDuration(String(retry.backoff.maxDuration)));
    return delay;
  }

  private async executeOnce(
    template: TemplateSpec,
    args: ArgumentsSpec | undefined,
    name: string,
    displayName: string,
    parent: AgentNode | undefined,
    retries: number | undefined,
    retryParentName?: string,
  ): Promise<AgentNode> {
    const type: AgentNodeType = template.steps
      ? 'Steps'
      : template.dag
        ? 'DAG'
        : template.plugin
          ? 'Plugin'
          : 'Skipped';
    const node = this.newNode(
      name,
      displayName,
      parent === undefined && name === this.name ? (type === 'Plugin' ? 'Plugin' : type) : type,
      template.name,
      parent,
    );
    this.options.onEvent?.({ node, kind: 'started' });

    // Inputs: argument value, else the input's value, else its default (which stays in the JSON too).
    const params: ParamSpec[] = [];
    for (const input of template.inputs?.parameters ?? []) {
      const arg = args?.parameters?.find((a) => a.name === input.name);
      const value = arg?.value ?? input.value ?? input.default;
      if (value === undefined)
        return this.finish(node, 'Error', `inputs.parameters.${input.name} was not supplied`);
      params.push({ ...input, value: String(value) });
    }
    const vars: Variables = new Map(this.globals);
    for (const p of params) vars.set(`inputs.parameters.${p.name}`, p.value!);
    vars.set('inputs.parameters', JSON.stringify(params));
    // With retries, {{node.name}} is the retry parent's name (substituted before the retry branch).
    vars.set('node.name', retryParentName ?? name);
    if (retries !== undefined) vars.set('retries', String(retries));

    const processed = substituteJson(
      { ...template, inputs: { ...template.inputs, parameters: params } },
      vars,
    );
    switch (type) {
      case 'Plugin':
        return this.executePlugin(processed, node);
      case 'Steps':
        return this.executeSteps(processed, node, vars);
      case 'DAG':
        return this.executeDag(processed, node, vars);
      default:
        return this.finish(
          node,
          'Skipped',
          `not a plugin template: the local agent runs plugin, steps and dag templates only`,
        );
    }
  }

  // ---- plugin nodes -----------------------------------------------------------------------------------------

  private async executePlugin(template: TemplateSpec, node: AgentNode): Promise<AgentNode> {
    const leftovers = unresolvedTags(template.plugin);
    if (leftovers.length > 0)
      this.warnings.push(
        `${node.name}: unresolved tags in the plugin body: ${leftovers.map((t) => `{{${t}}}`).join(', ')}`,
      );
    const body = marshalExecuteTemplateArgs(
      { name: this.name, namespace: this.namespace, uid: this.uid },
      template as Record<string, unknown>,
    );
    const maxCalls = this.options.maxCallsPerNode ?? 100_000;
    let afterFinal = 0;
    let reported: ArgoNodeResult | undefined;
    for (;;) {
      if (Date.now() > this.deadline)
        return this.finish(node, 'Failed', 'Step exceeded its deadline (local agent)');
      if (node.calls >= maxCalls)
        return this.finish(node, 'Failed', `local agent: gave up after ${maxCalls} calls`);
      node.calls++;
      let dispatched;
      try {
        dispatched = await this.workers.run(() => executePluginTemplate(this.clients, body));
      } catch (err) {
        // Every executor error becomes Failed with the error text (there is no Error phase from plugins).
        return this.finish(node, 'Failed', err instanceof PluginCallError ? err.message : String(err));
      }
      const { node: result, requeueMs, requeue, plugin } = dispatched;
      node.plugin = plugin;
      if (!result.phase) {
        // taskWorker sends the controller nothing for an empty phase, but still re-queues a requeue > 0.
        if (requeueMs > 0) {
          this.options.onEvent?.({ node, kind: 'requeue', requeueMs });
          await this.sleep(requeueMs);
          continue;
        }
        return this.hang(
          node,
          `the reply had no phase: Argo's agent reports nothing, so the node stays ${node.phase}`,
        );
      }
      // reconcileTaskSet copies what the agent's merge patches left in the task set onto the node.
      reported = patchNodeResult(reported, result);
      node.outputs = reported.outputs;
      node.message = reported.message || undefined;
      node.phase = reported.phase as NodePhase;
      const final = isFinalPhase(result.phase);
      if (result.phase === 'Succeeded') return this.finish(node, node.phase);
      if (requeueMs > 0 && final) {
        const cap = this.options.maxRequeuesAfterFinal ?? 3;
        if (afterFinal === 0)
          this.warnings.push(
            `${node.name}: a ${result.phase} reply carried requeue ${requeue}: Argo's agent calls again after it (and after every such reply, while the workflow runs); the local agent calls again at most ${cap} times`,
          );
        if (++afterFinal > cap) return this.finish(node, node.phase);
      }
      if (requeueMs <= 0) {
        if (final) return this.finish(node, node.phase);
        return this.hang(
          node,
          `${isNodePhase(result.phase) ? `${result.phase} without a requeue` : `unknown phase "${result.phase}"`}: Argo's agent never calls again, so the node stays ${result.phase}`,
        );
      }
      this.options.onEvent?.({ node, kind: 'requeue', requeueMs });
      await this.sleep(requeueMs);
    }
  }

  /**
   * A node Argo never completes: it keeps the phase and message the plugin gave, and the workflow runs on
   * until its deadline (the real agent shows exactly that); why is said in a warning.
   */
  private hang(node: AgentNode, why: string): AgentNode {
    node.hung = true;
    this.warnings.push(`${node.name}: ${why} and the workflow runs until its deadline`);
    return this.finish(node, node.phase);
  }

  // ---- steps ------------------------------------------------------------------------------------------------

  private async executeSteps(template: TemplateSpec, node: AgentNode, vars: Variables): Promise<AgentNode> {
    node.phase = 'Running';
    const scope: Variables = new Map(vars);
    for (const [index, group] of (template.steps ?? []).entries()) {
      const groupName = `${node.name}[${index}]`;
      const groupNode = this.newNode(groupName, `[${index}]`, 'StepGroup', '', node);
      groupNode.phase = 'Running';
      const children = await Promise.all(
        group.flatMap((step) =>
          this.expand(step, scope).map(({ step: s, suffix }) =>
            this.runStep(s, `${groupName}.${step.name}${suffix}`, `${step.name}${suffix}`, groupNode, scope),
          ),
        ),
      );
      for (const step of group) {
        const child = children.find((c) => c.displayName === step.name);
        if (child) this.exportOutputs(scope, `steps.${step.name}`, child);
      }
      const failed = children.find((c, i) => isFailedPhase(c.phase) && !this.continues(group, children[i]));
      const hung = children.find((c) => c.hung);
      // steps.go: a failed or errored child fails its group, naming the child's node id, and the group's
      // failure fails the steps node with the same message.
      const failure = failed && `child '${failed.id}' failed`;
      this.finish(groupNode, failed ? 'Failed' : hung ? 'Running' : 'Succeeded', failure);
      if (failed) return this.finish(node, 'Failed', failure);
      if (hung) {
        node.hung = true;
        return this.finish(node, 'Running');
      }
    }
    this.templateOutputs(template, node, scope);
    return this.finish(node, 'Succeeded');
  }

  private continues(group: StepSpec[], child: AgentNode): boolean {
    const step = group.find(
      (s) => child.displayName === s.name || child.displayName.startsWith(`${s.name}(`),
    );
    return Boolean(
      step?.continueOn &&
      ((child.phase === 'Failed' && step.continueOn.failed) ||
        (child.phase === 'Error' && step.continueOn.error)),
    );
  }

  private async runStep(
    step: StepSpec,
    name: string,
    displayName: string,
    parent: AgentNode,
    scope: Variables,
  ): Promise<AgentNode> {
    const resolved = substituteJson(step, scope);
    if (resolved.when !== undefined) {
      let run: boolean;
      try {
        run = evaluateWhen(resolved.when);
      } catch (err) {
        return this.finish(
          this.newNode(name, displayName, 'Skipped', step.template ?? '', parent),
          'Error',
          (err as Error).message,
        );
      }
      if (!run)
        return this.finish(
          this.newNode(name, displayName, 'Skipped', step.template ?? '', parent),
          'Skipped',
          `when '${resolved.when}' evaluated false`,
        );
    }
    return this.execute(resolved, name, displayName, parent, scope);
  }

  /** withItems / withSequence / withParam → one step per item with `{{item}}` bound. */
  private expand<S extends StepSpec>(step: S, scope: Variables): Array<{ step: S; suffix: string }> {
    let items: unknown[] | undefined;
    if (step.withItems) items = step.withItems;
    else if (step.withSequence) items = sequence(substituteJson(step.withSequence, scope));
    else if (step.withParam) {
      const text = substituteText(step.withParam, scope);
      try {
        items = JSON.parse(text) as unknown[];
      } catch {
        throw new Error(`withParam value is not a JSON list: ${text}`);
      }
    }
    if (!items) return [{ step, suffix: '' }];
    return items.map((item, i) => {
      const itemVars: Variables = new Map();
      if (item !== null && typeof item === 'object') {
        itemVars.set('item', JSON.stringify(item));
        for (const [k, v] of Object.entries(item))
          itemVars.set(`item.${k}`, typeof v === 'string' ? v : JSON.stringify(v));
      } else itemVars.set('item', String(item));
      const label = item !== null && typeof item === 'object' ? JSON.stringify(item) : String(item);
      const { withItems: _a, withSequence: _b, withParam: _c, ...rest } = step;
      return { step: substituteJson(rest as S, itemVars), suffix: `(${i}:${label})` };
    });
  }

  // ---- dag --------------------------------------------------------------------------------------------------

  private async executeDag(template: TemplateSpec, node: AgentNode, vars: Variables): Promise<AgentNode> {
    node.phase = 'Running';
    const scope: Variables = new Map(vars);
    const tasks = template.dag?.tasks ?? [];
    const results = new Map<string, AgentNode[]>();
    const running = new Map<string, Promise<void>>();
    const depsOf = (t: TaskSpec): string[] => t.dependencies ?? (t.depends ? dependsNames(t.depends) : []);
    let stopScheduling = false;
    for (;;) {
      const pending = tasks.filter((t) => !results.has(t.name) && !running.has(t.name));
      if (pending.length === 0 && running.size === 0) break;
      let scheduled = false;
      for (const task of pending) {
        const deps = depsOf(task);
        if (!deps.every((d) => results.has(d))) continue;
        scheduled = true;
        const runnable = !stopScheduling && this.dependsSatisfied(task, deps, results);
        if (!runnable) {
          const omitted = this.newNode(
            `${node.name}.${task.name}`,
            task.name,
            'Skipped',
            task.template ?? '',
            node,
          );
          results.set(task.name, [
            this.finish(
              omitted,
              'Omitted',
              stopScheduling
                ? 'omitted: an earlier task failed'
                : `omitted: depends '${task.depends ?? deps.join(' && ')}' not satisfied`,
            ),
          ]);
          continue;
        }
        const work = (async () => {
          const expanded = this.expand(task, scope);
          const children = await Promise.all(
            expanded.map(({ step, suffix }) =>
              this.runStep(step, `${node.name}.${task.name}${suffix}`, `${task.name}${suffix}`, node, scope),
            ),
          );
          results.set(task.name, children);
          if (children.length === 1) this.exportOutputs(scope, `tasks.${task.name}`, children[0]);
          if (children.some((c) => isFailedPhase(c.phase)) && template.dag?.failFast !== false)
            stopScheduling = true;
          running.delete(task.name);
        })();
        running.set(task.name, work);
      }
      if (!scheduled || running.size > 0) {
        if (running.size === 0) {
          const stuck = pending.map((t) => t.name).join(', ');
          return this.finish(node, 'Error', `dag cannot make progress: unknown dependencies for ${stuck}`);
        }
        await Promise.race(running.values());
      }
    }
    const all = [...results.values()].flat();
    const failed = all.find((c) => isFailedPhase(c.phase));
    const hung = all.find((c) => c.hung);
    // dag.go: the DAG takes the phase of a failed branch, without a message of its own.
    if (failed) return this.finish(node, failed.phase);
    if (hung) {
      node.hung = true;
      return this.finish(node, 'Running');
    }
    this.templateOutputs(template, node, scope);
    return this.finish(node, 'Succeeded');
  }

  private dependsSatisfied(task: TaskSpec, deps: string[], results: Map<string, AgentNode[]>): boolean {
    const phaseOf = (name: string): NodePhase => {
      const nodes = results.get(name) ?? [];
      if (nodes.some((n) => n.phase === 'Failed')) return 'Failed';
      if (nodes.some((n) => n.phase === 'Error')) return 'Error';
      if (nodes.every((n) => n.phase === 'Omitted')) return 'Omitted';
      if (nodes.every((n) => n.phase === 'Skipped')) return 'Skipped';
      return 'Succeeded';
    };
    if (!task.depends) return deps.every((d) => ['Succeeded', 'Skipped'].includes(phaseOf(d)));
    const expression = task.depends.replace(
      /([A-Za-z0-9_-]+)(\.(Succeeded|Failed|Errored|Skipped|Omitted|Daemoned|AnySucceeded|AllFailed))?/g,
      (_m, name: string, _s, result?: string) => {
        const phase = phaseOf(name);
        switch (result) {
          case undefined:
            return String(['Succeeded', 'Skipped', 'Daemoned'].includes(phase));
          case 'Errored':
            return String(phase === 'Error');
          case 'AnySucceeded':
            return String((results.get(name) ?? []).some((n) => n.phase === 'Succeeded'));
          case 'AllFailed':
            return String((results.get(name) ?? []).every((n) => isFailedPhase(n.phase)));
          default:
            return String(phase === result);
        }
      },
    );
    return evaluateWhen(expression);
  }

  // ---- outputs ----------------------------------------------------------------------------------------------

  private exportOutputs(scope: Variables, prefix: string, node: AgentNode): void {
    for (const p of node.outputs?.parameters ?? [])
      if (p.value !== undefined) scope.set(`${prefix}.outputs.parameters.${p.name}`, p.value);
    if (node.outputs?.result !== undefined) scope.set(`${prefix}.outputs.result`, node.outputs.result);
    if (node.outputs?.exitCode !== undefined) scope.set(`${prefix}.outputs.exitCode`, node.outputs.exitCode);
    scope.set(`${prefix}.status`, node.phase);
    if (node.message !== undefined) scope.set(`${prefix}.message`, node.message);
  }

  /** Outputs of a steps/dag template: `valueFrom.parameter` expressions over its children's outputs. */
  private templateOutputs(template: TemplateSpec, node: AgentNode, scope: Variables): void {
    const declared = template.outputs?.parameters ?? [];
    const parameters = declared
      .map((p) => {
        const from = p.valueFrom?.parameter;
        const value = from !== undefined ? substituteText(from, scope) : p.value;
        return value === undefined ? undefined : { name: p.name, value };
      })
      .filter((p): p is { name: string; value: string } => p !== undefined);
    if (parameters.length > 0) node.outputs = { parameters };
  }

  /** Waits a requeue or a backoff (scaled), never past the workflow's deadline: a longer one ends there. */
  private async sleep(ms: number): Promise<void> {
    const scaled = Math.min(ms * this.timeScale, this.deadline + 1 - Date.now());
    if (scaled > 0) await sleep(scaled);
  }
}

function sequence(spec: {
  count?: string | number;
  start?: string | number;
  end?: string | number;
  format?: string;
}): string[] {
  const start = Number(spec.start ?? 0);
  const end = spec.count !== undefined ? start + Number(spec.count) - 1 : Number(spec.end ?? start);
  const out: string[] = [];
  const step = end >= start ? 1 : -1;
  for (let i = start; step > 0 ? i <= end : i >= end; i += step)
    out.push(
      spec.format
        ? spec.format.replace(/%0?(\d*)d/, (_m, w: string) => String(i).padStart(Number(w || 0), '0'))
        : String(i),
    );
  return out;
}

/** Task names referenced by a `depends` expression. */
export function dependsNames(depends: string): string[] {
  const names = [
    ...depends.matchAll(
      /([A-Za-z0-9_-]+)(?:\.(?:Succeeded|Failed|Errored|Skipped|Omitted|Daemoned|AnySucceeded|AllFailed))?/g,
    ),
  ].map((m) => m[1]);
  return [...new Set(names.filter((n) => !['true', 'false'].includes(n)))];
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Root node phases that complete a workflow as Succeeded. */
const SKIPPED_PHASES = new Set<string>(['Skipped', 'Omitted']);

/** Resolves workflowTemplateRef: the WorkflowTemplate's spec, with the Workflow's own fields and arguments on top. */
export function resolveWorkflowTemplateRef(wf: WorkflowShape, templates: WorkflowShape[]): WorkflowShape {
  const ref = wf.spec.workflowTemplateRef;
  if (!ref) return wf;
  const wft = templates.find(
    (t) =>
      t.metadata.name === ref.name &&
      (ref.clusterScope ? t.kind === 'ClusterWorkflowTemplate' : t.kind !== 'ClusterWorkflowTemplate'),
  );
  if (!wft)
    throw new Error(
      `workflowTemplateRef: ${ref.clusterScope ? 'cluster' : ''}workflowtemplate "${ref.name}" not found`,
    );
  const { workflowTemplateRef: _ref, ...own } = wf.spec;
  const params = new Map<string, ParamSpec>();
  for (const p of wft.spec.arguments?.parameters ?? []) params.set(p.name, p);
  for (const p of own.arguments?.parameters ?? []) params.set(p.name, { ...params.get(p.name), ...p });
  return {
    ...wf,
    spec: {
      ...wft.spec,
      ...own,
      arguments: { ...wft.spec.arguments, ...own.arguments, parameters: [...params.values()] },
    },
  };
}

/** Runs a Workflow (already parsed and validated) through the local agent. */
export async function runWorkflowSpec(workflow: WorkflowShape, options: RunOptions): Promise<WorkflowResult> {
  const resolved = resolveWorkflowTemplateRef(workflow, options.templates ?? []);
  return new WorkflowRun(resolved, options).run();
}
