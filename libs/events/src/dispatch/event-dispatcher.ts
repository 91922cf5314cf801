import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import type { Environment } from '@app/expr';
import type { Caller } from '../auth/caller.js';
import { EndpointLogger } from '../logging/endpoint-logger.js';
import type { BindingObject, TemplateObject } from '../manifests/argo-objects.js';
import { ManifestStore } from '../manifests/manifest-store.js';
import { ENDPOINT_OPTIONS, type ResolvedOptions } from '../options.js';
import { EventRecorder } from '../recorder/event-recorder.js';
import { WorkflowSubmitter } from '../submit/workflow-submitter.js';
import { EvaluatorPool } from '../evaluation/evaluator-pool.js';
import { lookUpTemplate } from '../evaluation/evaluation-job.js';
import { boundFailure } from '../evaluation/limits.js';
import type { CreatorClaims } from './evaluate-binding.js';

/** One received event, after the bindings were listed: what a queue worker (or the request) dispatches. */
export interface EventOperation {
  namespace: string;
  bindings: BindingObject[];
  env: Environment;
  caller: Caller;
}

/** The caller's token claims the creator labels are made of. */
function claimsOf(caller: Caller): CreatorClaims {
  return { subject: caller.subject, email: caller.email, preferredUsername: caller.preferredUsername };
}

/**
 * Argo's operation.Dispatch: every binding in list order; a failing binding is logged, recorded as a Warning
 * Event and collected, and the others still run. Returns the errors (empty = every binding succeeded).
 */
@Injectable()
export class EventDispatcher {
  constructor(
    @Inject(ENDPOINT_OPTIONS) private readonly options: ResolvedOptions,
    private readonly manifests: ManifestStore,
    private readonly submitter: WorkflowSubmitter,
    private readonly recorder: EventRecorder,
    private readonly logger: EndpointLogger,
    private readonly evaluator: EvaluatorPool,
  ) {}

  async dispatch(op: EventOperation): Promise<string[]> {
    const errors: string[] = [];
    for (const binding of op.bindings) {
      if (this.options.dispatchDelayMs > 0) await sleep(this.options.dispatchDelayMs);
      const error = await this.dispatchOne(binding, op);
      if (error === undefined) continue;
      errors.push(error);
      this.recorder.bindingError(binding, `failed to dispatch event: ${error}`);
    }
    return errors;
  }

  private async dispatchOne(binding: BindingObject, op: EventOperation): Promise<string | undefined> {
    const submit = binding.spec.submit;
    const outcome = await this.evaluator.evaluate({
      mode: 'dispatch',
      binding,
      env: op.env,
      instanceId: this.options.instanceId,
      claims: claimsOf(op.caller),
      template:
        submit &&
        lookUpTemplate(() =>
          this.getTemplate(op.caller, submit.workflowTemplateRef, binding.metadata.namespace),
        ),
      random: Array.from({ length: 5 }, () => this.options.random()),
    });
    if (outcome.kind === 'bound') return boundFailure(outcome.site, outcome.reason);
    if (outcome.result.mode !== 'dispatch') throw new Error('the evaluator answered a report');
    const evaluation = outcome.result.dispatch;
    if (evaluation.failure) return evaluation.failure.message;
    if (!evaluation.workflow) {
      if (evaluation.matched && !evaluation.hasSubmit)
        this.logger.info(`binding ${binding.metadata.name} matched but has no submit`);
      return undefined;
    }
    try {
      await this.submitter.submit(evaluation.workflow, op.caller);
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  }

  /** GET (cluster)workflowtemplate with the caller's permissions; Kubernetes' messages on failure. */
  private getTemplate(
    caller: Caller,
    ref: { name: string; clusterScope?: boolean },
    namespace: string,
  ): TemplateObject {
    if (ref.clusterScope) {
      if (!caller.can('get clusterworkflowtemplates'))
        throw new Error(caller.forbidden('get clusterworkflowtemplates', undefined, ref.name));
      const template = this.manifests.getClusterTemplate(ref.name);
      if (!template) throw new Error(`clusterworkflowtemplates.argoproj.io "${ref.name}" not found`);
      return template;
    }
    if (!caller.can('get workflowtemplates', namespace))
      throw new Error(caller.forbidden('get workflowtemplates', namespace, ref.name));
    const template = this.manifests.getTemplate(namespace, ref.name);
    if (!template) throw new Error(`workflowtemplates.argoproj.io "${ref.name}" not found`);
    return template;
  }
}
