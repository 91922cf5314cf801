// `events test`: evaluates every binding of a namespace against one event and says what would be submitted.
import { eventEnv, type Environment } from '@app/expr';
import type { EvaluationContext } from '../dispatch/evaluate-binding.js';
import { lookUpTemplate } from '../evaluation/evaluation-job.js';
import { EvaluatorPool } from '../evaluation/evaluator-pool.js';
import { boundFailure, BOUND_HINT, type ExpressionLimits } from '../evaluation/limits.js';
import { decodeFirstJsonValue } from '../intake/go-json-decoder.js';
import { headerMetadata } from '../intake/header-metadata.js';
import { LABEL, type BindingObject } from '../manifests/argo-objects.js';
import type { SourcedObject } from '../manifests/load-manifests.js';
import { ManifestStore } from '../manifests/manifest-store.js';
import { reportBinding, type BindingReport } from './binding-report.js';

export type { BindingReport } from './binding-report.js';

export interface TestEventInput {
  objects: SourcedObject[];
  /** The body bytes, decoded like the server does (empty = nil payload). */
  body: Buffer;
  /** `Name: value` pairs as given with -H, in order. */
  headers: Array<[string, string]>;
  namespace: string;
  discriminator: string;
  instanceId?: string;
  /** The peer IP and Host the server would see (for x-forwarded-for / x-forwarded-host). */
  remoteAddress?: string;
  host?: string;
}

export interface TestReport {
  namespace: string;
  discriminator: string;
  payload: unknown;
  metadata: Record<string, string[]>;
  /** Headers given with -H that bindings will not see. */
  notes: string[];
  bindings: BindingReport[];
  /** Every binding evaluated without error. */
  ok: boolean;
}

/** The event as the server reads it and the bindings it lists, before any is evaluated. */
interface PreparedTest {
  input: TestEventInput;
  store: ManifestStore;
  payload: unknown;
  payloadIsNil: boolean;
  metadata: Record<string, string[]>;
  notes: string[];
  listed: BindingObject[];
  ctx: EvaluationContext;
}

function prepare(input: TestEventInput): PreparedTest {
  const store = new ManifestStore(input.objects, input.namespace);
  const payload = decodeFirstJsonValue(input.body);
  const rawHeaders = [
    ...(input.host ? ['Host', input.host] : []),
    ...input.headers.flatMap(([name, value]) => [name, value]),
  ];
  const metadata = headerMetadata({ rawHeaders, remoteAddress: input.remoteAddress });
  const notes = input.headers
    .filter(([name]) => !name.toLowerCase().startsWith('x-'))
    .map(([name]) => `header ${name} is not visible to bindings: only headers starting with x- are kept`);
  const env: Environment = eventEnv(payload, metadata, input.discriminator, input.namespace);
  const ctx: EvaluationContext = {
    env,
    instanceId: input.instanceId,
    claims: undefined,
    getTemplate: (ref, namespace) => {
      const t = ref.clusterScope
        ? store.getClusterTemplate(ref.name)
        : store.getTemplate(namespace, ref.name);
      if (!t)
        throw new Error(
          `${ref.clusterScope ? 'clusterworkflowtemplates' : 'workflowtemplates'}.argoproj.io "${ref.name}" not found`,
        );
      return t;
    },
    random: () => 0,
  };
  const listed = store.listBindings(input.namespace, input.instanceId);
  const payloadIsNil = payload === undefined || payload === null;
  return { input, store, payload, payloadIsNil, metadata, notes, listed, ctx };
}

/** The report: the listed bindings' reports, then the bindings of the namespace the server does not list. */
function finish(prepared: PreparedTest, reports: BindingReport[]): TestReport {
  const { input, store, listed } = prepared;
  for (const binding of store.allBindings()) {
    if (binding.metadata.namespace !== input.namespace || listed.includes(binding)) continue;
    const label = binding.metadata.labels?.[LABEL.instanceId];
    reports.push({
      name: binding.metadata.name,
      namespace: binding.metadata.namespace,
      outcome: 'not listed',
      selector: binding.spec.event?.selector ?? '',
      hints: [
        input.instanceId
          ? `the server (--instanceid ${input.instanceId}) only lists bindings labelled ${LABEL.instanceId}=${input.instanceId}${label ? ` (this one has ${label})` : ''}`
          : `the binding has the label ${LABEL.instanceId}=${label}: only a server started with --instanceid ${label} lists it`,
      ],
    });
  }
  return {
    namespace: input.namespace,
    discriminator: input.discriminator,
    payload: prepared.payload ?? null,
    metadata: prepared.metadata,
    notes: prepared.notes,
    bindings: reports,
    ok: reports.every((r) => r.outcome !== 'error'),
  };
}

/** Evaluates the bindings of `namespace` as the server would for this event (creator labels left out), here. */
export function testBindings(input: TestEventInput): TestReport {
  const prepared = prepare(input);
  const { ctx, payloadIsNil } = prepared;
  return finish(
    prepared,
    prepared.listed.map((binding) => reportBinding(binding, ctx, payloadIsNil)),
  );
}

/**
 * testBindings with the serve command's bounds: each binding is evaluated in an evaluator process, and one
 * whose expression outlasts `limits` is an error for that binding only (what `events test` runs).
 */
export async function testBindingsBounded(
  input: TestEventInput,
  limits: ExpressionLimits,
): Promise<TestReport> {
  const prepared = prepare(input);
  const { ctx, payloadIsNil } = prepared;
  const pool = new EvaluatorPool({ size: 1, limits });
  const reports: BindingReport[] = [];
  try {
    for (const binding of prepared.listed) {
      const outcome = await pool.evaluate({
        mode: 'report',
        binding,
        env: ctx.env,
        instanceId: input.instanceId,
        template:
          binding.spec.submit &&
          lookUpTemplate(() =>
            ctx.getTemplate(binding.spec.submit!.workflowTemplateRef, binding.metadata.namespace),
          ),
        random: [0],
        payloadIsNil,
      });
      if (outcome.kind === 'result' && outcome.result.mode === 'report') reports.push(outcome.result.report);
      else if (outcome.kind === 'bound')
        reports.push({
          name: binding.metadata.name,
          namespace: binding.metadata.namespace,
          outcome: 'error',
          selector: binding.spec.event?.selector ?? '',
          error: `failed to dispatch event: ${boundFailure(outcome.site, outcome.reason)}`,
          hints: [BOUND_HINT],
        });
      else throw new Error('the evaluator answered a dispatch');
    }
  } finally {
    await pool.close();
  }
  return finish(prepared, reports);
}
