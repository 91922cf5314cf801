// `events test`: evaluates every binding of a namespace against one event and says what would be submitted.
import { eventEnv, goFormat, type Environment } from '@app/expr';
import {
  evaluateBinding,
  type BindingEvaluation,
  type EvaluationContext,
} from '../dispatch/evaluate-binding.js';
import { invalidMessage, objectMetaProblems } from '../dispatch/kubernetes-validation.js';
import { decodeFirstJsonValue } from '../intake/go-json-decoder.js';
import { headerMetadata } from '../intake/header-metadata.js';
import { LABEL } from '../manifests/argo-objects.js';
import type { SourcedObject } from '../manifests/load-manifests.js';
import { ManifestStore } from '../manifests/manifest-store.js';
import { failedCondition, type FailedCondition } from './failed-condition.js';
import { expressionHints, failureHints, outcomeHints } from './hints.js';
import { latentProblems } from './latent-problems.js';

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

export interface BindingReport {
  name: string;
  namespace: string;
  outcome: 'matched' | 'not matched' | 'error' | 'not listed';
  selector: string;
  /** Go %v of the selector's result. */
  selectorValue?: string;
  /** For a binding that did not match: the first false condition of its selector and its left side's value. */
  failed?: FailedCondition;
  workflow?: {
    name: string;
    /** True when the server would add a random 5-character suffix to generateName. */
    randomSuffix: boolean;
    generateName: string;
    template: string;
    clusterScope: boolean;
    labels: Record<string, string>;
    annotations: Record<string, string>;
    parameters: Array<{ name: string; value: string }>;
  };
  error?: string;
  /** Problems a binding that did not match would have once it matches (compile errors, missing template). */
  whenMatched?: string[];
  hints: string[];
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

function report(evaluation: BindingEvaluation, ctx: EvaluationContext, payloadIsNil: boolean): BindingReport {
  const hasName = Boolean(evaluation.binding.spec.submit?.metadata?.name);
  const b = evaluation.binding;
  const sources = [
    b.spec.event?.selector ?? '',
    ...(b.spec.submit?.arguments?.parameters ?? []).map((p) => p.valueFrom?.event ?? ''),
  ];
  const hints = [
    ...new Set([
      ...sources.flatMap(expressionHints),
      ...failureHints(evaluation, payloadIsNil),
      ...outcomeHints(evaluation),
    ]),
  ];
  const out: BindingReport = {
    name: b.metadata.name,
    namespace: b.metadata.namespace,
    outcome: evaluation.failure ? 'error' : evaluation.matched ? 'matched' : 'not matched',
    selector: b.spec.event?.selector ?? '',
    ...(evaluation.selectorValue !== undefined && { selectorValue: goFormat(evaluation.selectorValue) }),
    hints,
  };
  if (evaluation.failure) out.error = `failed to dispatch event: ${evaluation.failure.message}`;
  if (!evaluation.failure && !evaluation.matched) {
    const failed = failedCondition(out.selector, ctx.env);
    if (failed) out.failed = failed;
    const latent = latentProblems(b, ctx);
    if (latent.problems.length > 0) out.whenMatched = latent.problems;
    for (const failure of latent.failures)
      for (const hint of failureHints({ ...evaluation, failure }, payloadIsNil))
        if (!out.hints.includes(hint)) out.hints.push(hint);
  }
  const wf = evaluation.workflow;
  if (wf) {
    out.workflow = {
      name: wf.metadata.name,
      randomSuffix: !hasName,
      generateName: wf.metadata.generateName!,
      template: wf.spec.workflowTemplateRef.name,
      clusterScope: wf.spec.workflowTemplateRef.clusterScope === true,
      labels: wf.metadata.labels,
      annotations: wf.metadata.annotations,
      parameters: wf.spec.arguments?.parameters ?? [],
    };
    const problems = objectMetaProblems(wf.metadata);
    if (problems.length > 0) {
      out.outcome = 'error';
      out.error = `failed to dispatch event: failed to create workflow: ${invalidMessage(wf.metadata.name, problems)}`;
      out.hints.push(
        "names and labels must follow Kubernetes' rules (lower-case names; labels up to 63 characters of [A-Za-z0-9._-])",
      );
    }
  }
  return out;
}

/** Evaluates the bindings of `namespace` as the server would for this event (creator labels left out). */
export function testBindings(input: TestEventInput): TestReport {
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
  const listed = store.listBindings(input.namespace, input.instanceId);
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
  const payloadIsNil = payload === undefined || payload === null;
  const reports = listed.map((binding) => report(evaluateBinding(binding, ctx), ctx, payloadIsNil));
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
    payload: payload ?? null,
    metadata,
    notes,
    bindings: reports,
    ok: reports.every((r) => r.outcome !== 'error'),
  };
}
