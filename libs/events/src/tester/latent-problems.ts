// What a binding that did not match this event would run into once it matches: its parameter and metadata
// expressions are compiled (not run) against this event, and its template is looked up.
import { compile, ExprError, metadataEnv } from '@app/expr';
import type { BindingFailure, EvaluationContext, Stage } from '../dispatch/evaluate-binding.js';
import { parameterSite } from '../dispatch/expression-site.js';
import type { BindingObject } from '../manifests/argo-objects.js';

export interface LatentProblems {
  problems: string[];
  failures: BindingFailure[];
}

export function latentProblems(binding: BindingObject, ctx: EvaluationContext): LatentProblems {
  const out: LatentProblems = { problems: [], failures: [] };
  const submit = binding.spec.submit;
  if (!submit) return out;
  const add = (stage: Stage, message: string, what?: string, source?: string, err?: unknown) => {
    out.problems.push(message);
    out.failures.push({
      stage,
      message,
      ...(what !== undefined && { expression: { what, source: source ?? '' } }),
      ...(err instanceof ExprError && { exprError: err }),
    });
  };
  try {
    ctx.getTemplate(submit.workflowTemplateRef, binding.metadata.namespace);
  } catch (e) {
    add('template', `failed to get workflow template: ${(e as Error).message}`);
  }
  for (const p of submit.arguments?.parameters ?? []) {
    if (!p.valueFrom) {
      add('parameter', `malformed workflow template parameter "${p.name}": valueFrom is nil`);
      continue;
    }
    const source = p.valueFrom.event ?? '';
    ctx.onExpression?.(parameterSite(p.name, source));
    try {
      compile(source, ctx.env);
    } catch (e) {
      add('parameter', `parameter ${p.name}: ${(e as Error).message}`, `parameter ${p.name}`, source, e);
    }
  }
  const metaEnv = metadataEnv(ctx.env);
  const meta = submit.metadata ?? {};
  const expressions: Array<[string, string | undefined]> = [
    ['name', meta.name],
    ['generateName', meta.generateName],
    ...Object.entries(meta.labels ?? {}).map(([k, v]): [string, string] => [`label "${k}"`, v]),
    ...Object.entries(meta.annotations ?? {}).map(([k, v]): [string, string] => [`annotation "${k}"`, v]),
  ];
  for (const [what, source] of expressions) {
    if (!source) continue;
    ctx.onExpression?.({ stage: 'metadata', what, source });
    try {
      compile(source, metaEnv);
    } catch (e) {
      add('metadata', `${what}: ${(e as Error).message}`, what, source, e);
    }
  }
  return out;
}
