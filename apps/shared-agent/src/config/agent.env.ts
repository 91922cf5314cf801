import { parseDuration } from '@app/contract';
import { EnvInt, type EnvExtras, type EnvSource } from '@app/plugin-kit';
import { BlockedNetworks, DEFAULT_BLOCKED_NETWORKS } from '@app/argo-agent';
import {
  IsGoDuration,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  Min,
} from '@app/plugin-kit/config/env-rules.js';
import { parseExternalPlugins, type ExternalPluginSpec } from './external-plugins.js';

/** DNS-1123 label: a namespace name. */
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
/** A label value that also starts a Lease name (a DNS-1123 subdomain): the Leases carry it as their label. */
const LEASE_PREFIX = /^[a-z0-9]([-a-z0-9.]{0,50}[a-z0-9])?$/;

/**
 * The shared agent's own settings. Its names start with AGENT_ (and Argo's ARGO_AGENT_PATCH_RATE), so they
 * never meet the hosted plugins' variables, which the same environment carries.
 */
export class AgentEnv implements EnvExtras {
  /** Namespaces whose WorkflowTaskSets the agent works, comma-separated; unset means every namespace. */
  @IsOptional()
  @IsString()
  AGENT_NAMESPACES?: string;

  /** How often results are written to the TaskSets' status (Argo's agent: ARGO_AGENT_PATCH_RATE, 10s). */
  @IsGoDuration({ min: '100ms', max: '10m' })
  ARGO_AGENT_PATCH_RATE = '10s';

  /** Most tasks executing at once over all workflows; further ones wait their turn. */
  @EnvInt()
  @IsInt()
  @Min(1)
  @Max(100_000)
  AGENT_MAX_TASKS_IN_FLIGHT = 256;

  /**
   * Most tasks of one namespace executing at once (default a quarter of AGENT_MAX_TASKS_IN_FLIGHT): one
   * namespace whose steps hang cannot hold every slot.
   */
  @IsOptional()
  @EnvInt()
  @IsInt()
  @Min(1)
  AGENT_MAX_TASKS_PER_NAMESPACE?: number;

  /** Bytes of TaskSets held in memory; past it, further TaskSets wait (read again once room is made). */
  @EnvInt()
  @IsInt()
  @Min(1024 * 1024)
  AGENT_WATCH_MEMORY = 128 * 1024 * 1024;

  /** The namespace of the shard Leases (default: the agent's own, from its service account or kubeconfig). */
  @IsOptional()
  @IsString()
  AGENT_LEASE_NAMESPACE?: string;

  /** Name prefix of the shard Leases (`<prefix>-<n>`) and of the members' Leases. */
  @IsString()
  @IsNotEmpty()
  AGENT_LEASE_PREFIX = 'shared-agent';

  /**
   * Works only the TaskSets of the controller with this instance ID (the controller's `instanceID`); unset:
   * only those of a controller without one, as such a controller does.
   */
  @IsOptional()
  @IsString()
  AGENT_INSTANCE_ID?: string;

  /** Number of shards the TaskSets are spread over (one Lease each); the same on every replica. */
  @EnvInt()
  @IsInt()
  @Min(1)
  @Max(1024)
  AGENT_SHARDS = 32;

  /** How long a Lease holds without renewal: the longest a dead replica's shards wait for a new owner. */
  @IsGoDuration({ min: '2s', max: '5m' })
  AGENT_LEASE_DURATION = '15s';

  /** This replica's name in the Leases (default: the pod name, HOSTNAME). */
  @IsOptional()
  @IsString()
  AGENT_IDENTITY?: string;

  /** Port of /healthz, /readyz and /metrics. */
  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(65535)
  AGENT_PORT = 9090;

  @IsString()
  @IsNotEmpty()
  AGENT_HOST = '0.0.0.0';

  /** Longest a graceful stop waits for in-flight tasks before handing them back. */
  @IsGoDuration({ max: '5m' })
  AGENT_SHUTDOWN_TIMEOUT = '20s';

  /**
   * Longest a shard handover or a graceful stop then waits for the controller to take the results just written
   * (their tasks leave the TaskSet), so that the next owner does not read a TaskSet between the controller's
   * two patches; `0s` hands over at once.
   */
  @IsGoDuration({ max: '1m' })
  AGENT_HANDOVER_RESULT_WAIT = '5s';

  /**
   * Executor plugin servers called over HTTP, in order, after the in-process ones: `<name>=<url>` entries
   * separated by commas, semicolons or line breaks. Each one's token is read from
   * `<AGENT_PLUGIN_TOKEN_DIR>/<name>/token`.
   */
  @IsOptional()
  @IsString()
  AGENT_EXTERNAL_PLUGINS?: string;

  /** Where the external plugins' token files are (Argo's agent: /var/run/argo/<name>/token). */
  @IsString()
  @IsNotEmpty()
  AGENT_PLUGIN_TOKEN_DIR = '/var/run/argo';

  /** Largest HTTP-template response body read; a larger one fails the node. */
  @EnvInt()
  @IsInt()
  @Min(1024)
  @Max(64 * 1024 * 1024)
  AGENT_HTTP_MAX_BODY = 1024 * 1024;

  /** Deadline of an HTTP template without timeoutSeconds (Argo's agent has none; `0s`: AGENT_HTTP_MAX_TIMEOUT). */
  @IsGoDuration({ max: '24h' })
  AGENT_HTTP_DEFAULT_TIMEOUT = '10m';

  /** Longest deadline of any HTTP template, its timeoutSeconds included (Argo's agent has none). */
  @IsGoDuration({ min: '1s', max: '24h' })
  AGENT_HTTP_MAX_TIMEOUT = '1h';

  /**
   * Most steps one successCondition may take (every node evaluated, a closure's body once per element, every
   * element it makes); past it the node fails. Argo's agent has no bound: one condition held its only thread.
   */
  @EnvInt()
  @IsInt()
  @Min(100)
  @Max(1_000_000_000)
  AGENT_EXPR_MAX_STEPS = 100_000;

  /** Longest one successCondition may run, checked with its steps; past it the node fails. */
  @IsGoDuration({ min: '1ms', max: '10s' })
  AGENT_EXPR_TIMEOUT = '100ms';

  /**
   * Networks HTTP templates may not reach (CIDRs, comma-separated; `none`): by default the agent's own pod
   * and the clouds' metadata and identity endpoints (DEFAULT_BLOCKED_NETWORKS). Argo's agent pod runs in the
   * workflow's namespace, under its network policies; the shared agent runs in its own.
   */
  @IsString()
  AGENT_HTTP_BLOCKED_NETWORKS = DEFAULT_BLOCKED_NETWORKS;

  /** Filled by loadExtras. */
  namespaces: string[] = [];
  maxTasksPerNamespace = 64;
  externalPlugins: ExternalPluginSpec[] = [];
  blockedNetworks?: BlockedNetworks;

  loadExtras(_source: EnvSource): string[] {
    const problems: string[] = [];
    this.namespaces = (this.AGENT_NAMESPACES ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    for (const n of this.namespaces)
      if (!NAMESPACE.test(n)) problems.push(`AGENT_NAMESPACES: "${n}" is not a namespace name`);
    if (this.AGENT_LEASE_NAMESPACE !== undefined && !NAMESPACE.test(this.AGENT_LEASE_NAMESPACE))
      problems.push(`AGENT_LEASE_NAMESPACE: "${this.AGENT_LEASE_NAMESPACE}" is not a namespace name`);
    if (!LEASE_PREFIX.test(this.AGENT_LEASE_PREFIX))
      problems.push(
        `AGENT_LEASE_PREFIX: "${this.AGENT_LEASE_PREFIX}" is not a Lease name prefix (lower-case letters, digits, - and ., at most 52)`,
      );
    this.maxTasksPerNamespace =
      this.AGENT_MAX_TASKS_PER_NAMESPACE ?? Math.max(1, Math.floor(this.AGENT_MAX_TASKS_IN_FLIGHT / 4));
    if (
      this.AGENT_MAX_TASKS_PER_NAMESPACE !== undefined &&
      this.maxTasksPerNamespace > this.AGENT_MAX_TASKS_IN_FLIGHT
    )
      problems.push(
        `AGENT_MAX_TASKS_PER_NAMESPACE: ${this.maxTasksPerNamespace} is more than AGENT_MAX_TASKS_IN_FLIGHT (${this.AGENT_MAX_TASKS_IN_FLIGHT})`,
      );
    if (parseDuration(this.AGENT_HTTP_DEFAULT_TIMEOUT) > parseDuration(this.AGENT_HTTP_MAX_TIMEOUT))
      problems.push(
        `AGENT_HTTP_DEFAULT_TIMEOUT: ${this.AGENT_HTTP_DEFAULT_TIMEOUT} is longer than AGENT_HTTP_MAX_TIMEOUT (${this.AGENT_HTTP_MAX_TIMEOUT})`,
      );
    const external = parseExternalPlugins(this.AGENT_EXTERNAL_PLUGINS);
    this.externalPlugins = external.plugins;
    problems.push(...external.problems);
    const blocked = BlockedNetworks.parse(this.AGENT_HTTP_BLOCKED_NETWORKS, 'AGENT_HTTP_BLOCKED_NETWORKS');
    this.blockedNetworks = blocked.blocked;
    problems.push(...blocked.problems);
    return problems;
  }
}
