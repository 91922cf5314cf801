// One binding's part of the `events test` report: evaluated, and for a binding that did not match, what decided
// it and what it would run into once it matches. Runs in the evaluator process (no Nest, no manifests store).
import { goFormat } from '@app/expr';
import {
  evaluateBinding,
  type BindingEvaluation,
  type EvaluationContext,
} from '../dispatch/evaluate-binding.js';
import { invalidMessage, objectMetaProblems } from '../dispatch/kubernetes-validation.js';
import type { BindingObject } from '../manifests/argo-objects.js';
import { failedCondition, type FailedCondition } from './failed-condition.js';
import { expressionHints, failureHints, outcomeHints } from './hints.js';
import { latentProblems } from './latent-problems.js';

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
    ctx.onExpression?.({ stage: 'selector', what: 'selector', source: out.selector });
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

/** Evaluates one binding against the event of `ctx` and reports it as `events test` prints it. */
export function reportBinding(
  binding: BindingObject,
  ctx: EvaluationContext,
  payloadIsNil: boolean,
): BindingReport {
  return report(evaluateBinding(binding, ctx), ctx, payloadIsNil);
}
