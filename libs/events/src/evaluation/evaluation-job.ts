// What the evaluator process is asked to do: one binding against one event, as the dispatcher needs it
// (matched? the Workflow, or Argo's error) or as `events test` reports it. Everything in a job is plain data.
import type { Environment } from '@app/expr';
import {
  evaluateBinding,
  type CreatorClaims,
  type EvaluationContext,
  type Stage,
} from '../dispatch/evaluate-binding.js';
import type { ExpressionSite } from '../dispatch/expression-site.js';
import type { BindingObject, TemplateObject, WorkflowObject } from '../manifests/argo-objects.js';
import { reportBinding, type BindingReport } from '../tester/binding-report.js';

/** The binding's template as the caller may read it, or Kubernetes' message saying why not. */
export type TemplateLookup = { template: TemplateObject } | { error: string };

/** A template lookup as a job carries it: what `get` returns, or the message it throws. */
export function lookUpTemplate(get: () => TemplateObject): TemplateLookup {
  try {
    return { template: get() };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

export interface EvaluationJob {
  mode: 'dispatch' | 'report';
  binding: BindingObject;
  /** Names the event's environment: an evaluator that holds it already is not sent it again. */
  envId: number;
  env?: Environment;
  instanceId?: string;
  claims?: CreatorClaims;
  /** Undefined for a binding without submit. */
  template?: TemplateLookup;
  /** The random numbers the 5-character name suffix is drawn from. */
  random: number[];
  /** `report`: the event had no body (the hints say so). */
  payloadIsNil?: boolean;
}

/** What the dispatcher needs of an evaluation. */
export interface DispatchResult {
  matched: boolean;
  hasSubmit: boolean;
  workflow?: WorkflowObject;
  failure?: { stage: Stage; message: string };
}

export type JobResult =
  { mode: 'dispatch'; dispatch: DispatchResult } | { mode: 'report'; report: BindingReport };

export function runJob(
  job: EvaluationJob,
  env: Environment,
  onExpression: (site: ExpressionSite) => void,
): JobResult {
  let drawn = 0;
  const ctx: EvaluationContext = {
    env,
    instanceId: job.instanceId,
    claims: job.claims,
    getTemplate: () => {
      const lookup = job.template;
      if (lookup === undefined) throw new Error('the binding has no submit');
      if ('error' in lookup) throw new Error(lookup.error);
      return lookup.template;
    },
    random: () => job.random[drawn++ % job.random.length]!,
    onExpression,
  };
  if (job.mode === 'report')
    return { mode: 'report', report: reportBinding(job.binding, ctx, job.payloadIsNil ?? false) };
  const { matched, hasSubmit, workflow, failure } = evaluateBinding(job.binding, ctx);
  return {
    mode: 'dispatch',
    dispatch: {
      matched,
      hasSubmit,
      ...(workflow && { workflow }),
      ...(failure && { failure: { stage: failure.stage, message: failure.message } }),
    },
  };
}
