// Argo's per-binding dispatch() up to (not including) the CREATE call: selector, template lookup, instance
// ID check and the Workflow object with its name, labels, annotations and parameters. Shared by the endpoint
// (which then creates the Workflow) and the binding tester (which prints it).
import {
  compile,
  execute,
  ExprError,
  goTypeOf,
  metadataEnv,
  sprintS,
  toParameterValue,
  type Environment,
  type ExprValue,
} from '@app/expr';
import {
  LABEL,
  type BindingObject,
  type TemplateObject,
  type WorkflowObject,
} from '../manifests/argo-objects.js';
import { dnsFriendly } from './dns-friendly.js';
import { compileFailure, parameterSite, runFailure, type ExpressionSite } from './expression-site.js';

export interface CreatorClaims {
  subject?: string;
  email?: string;
  preferredUsername?: string;
}

export interface EvaluationContext {
  env: Environment;
  instanceId?: string;
  /** Claims of the caller's token (creator labels); undefined = no claims. */
  claims?: CreatorClaims;
  /** Gets the referenced template or throws an Error with Kubernetes' message (not found, forbidden). */
  getTemplate(ref: { name: string; clusterScope?: boolean }, namespace: string): TemplateObject;
  random: () => number;
  /** Called before each expression is compiled and run (the evaluator process reports its progress so). */
  onExpression?(site: ExpressionSite): void;
}

export type Stage = 'selector' | 'template' | 'instanceid' | 'metadata' | 'parameter';

/** Where and why a binding failed; `message` is the error Argo records (after `failed to dispatch event: `). */
export interface BindingFailure {
  stage: Stage;
  message: string;
  /** The expression that failed and what it is (`selector`, `name`, `label "x"`, `parameter p`...). */
  expression?: { what: string; source: string };
  exprError?: ExprError;
  /** A metadata expression that returned a non-string, with its Go type. */
  resultType?: string;
}

export interface BindingEvaluation {
  binding: BindingObject;
  /** The selector's result, when it ran. */
  selectorValue?: ExprValue;
  matched: boolean;
  hasSubmit: boolean;
  /** The Workflow that would be created (matched, with submit, no error). */
  workflow?: WorkflowObject;
  failure?: BindingFailure;
}

const SUFFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

class Failure extends Error {
  constructor(readonly failure: BindingFailure) {
    super(failure.message);
  }
}

function exprFailure(site: ExpressionSite, message: string, err: unknown): Failure {
  const exprError = err instanceof ExprError ? err : undefined;
  const expression = { what: site.what, source: site.source };
  return new Failure({ stage: site.stage, message, expression, exprError });
}

/** Compiles and runs one expression; a failure carries Argo's message for that expression. */
function evaluateSite(site: ExpressionSite, env: Environment, ctx: EvaluationContext): ExprValue {
  ctx.onExpression?.(site);
  let program;
  try {
    program = compile(site.source, env);
  } catch (e) {
    throw exprFailure(site, compileFailure(site, (e as Error).message), e);
  }
  try {
    return execute(program, env);
  } catch (e) {
    throw exprFailure(site, runFailure(site, (e as Error).message), e);
  }
}

/** A name/generateName/label/annotation expression; it must give a Go string. */
function evaluateString(site: ExpressionSite, env: Environment, ctx: EvaluationContext): string {
  const value = evaluateSite(site, env, ctx);
  if (typeof value !== 'string') {
    const type = goTypeOf(value);
    throw new Failure({
      stage: 'metadata',
      message: `workflow ${site.what} expression must evaluate to a string, not a ${type}`,
      expression: { what: site.what, source: site.source },
      resultType: type,
    });
  }
  return value;
}

/** Template → instance ID → metadata → name → creator labels → binding label → parameters, in Argo's order. */
function buildWorkflow(binding: BindingObject, ctx: EvaluationContext): WorkflowObject {
  const submit = binding.spec.submit!;
  const ref = submit.workflowTemplateRef;
  const namespace = binding.metadata.namespace;
  let template: TemplateObject;
  try {
    template = ctx.getTemplate(ref, namespace);
  } catch (e) {
    throw new Failure({
      stage: 'template',
      message: `failed to get workflow template: ${(e as Error).message}`,
    });
  }
  const templateLabel = template.metadata.labels?.[LABEL.instanceId];
  if (ctx.instanceId ? templateLabel !== ctx.instanceId : templateLabel !== undefined)
    throw new Failure({
      stage: 'instanceid',
      message: `failed to validate workflow template instanceid: '${template.metadata.name}' is not managed by the current Argo Server`,
    });

  const clusterScope = ref.clusterScope === true;
  const labels: Record<string, string> = {
    [clusterScope ? LABEL.clusterWorkflowTemplate : LABEL.workflowTemplate]: ref.name,
    ...template.spec.workflowMetadata?.labels,
  };
  const annotations: Record<string, string> = { ...template.spec.workflowMetadata?.annotations };
  if (ctx.instanceId) labels[LABEL.instanceId] = ctx.instanceId;
  else delete labels[LABEL.instanceId];

  const metaEnv = metadataEnv(ctx.env);
  const meta = submit.metadata ?? {};
  let name = '';
  let generateName = `${ref.name}-`;
  const metadata = (what: string, source: string) =>
    evaluateString({ stage: 'metadata', what, source }, metaEnv, ctx);
  if (meta.name) name = metadata('name', meta.name);
  if (meta.generateName) generateName = metadata('generateName', meta.generateName);
  for (const key of Object.keys(meta.labels ?? {}).sort())
    labels[key] = metadata(`label "${key}"`, meta.labels![key]!);
  for (const key of Object.keys(meta.annotations ?? {}).sort())
    annotations[key] = metadata(`annotation "${key}"`, meta.annotations![key]!);
  if (name === '') name = generateName + randomSuffix(ctx.random);

  const claims = ctx.claims;
  const creator: Array<[string, string | undefined]> = [
    [LABEL.creator, claims?.subject],
    [LABEL.creatorEmail, claims?.email?.replace('@', '.at.')],
    [LABEL.creatorPreferredUsername, claims?.preferredUsername],
  ];
  for (const [key, value] of creator) {
    const friendly = value ? dnsFriendly(value) : '';
    if (friendly) labels[key] = friendly;
    else delete labels[key];
  }
  delete labels[LABEL.action];
  labels[LABEL.binding] = binding.metadata.name;

  const parameters: Array<{ name: string; value: string }> = [];
  for (const p of submit.arguments?.parameters ?? []) {
    if (!p.valueFrom)
      throw new Failure({
        stage: 'parameter',
        message: `malformed workflow template parameter "${p.name}": valueFrom is nil`,
      });
    const site = parameterSite(p.name, p.valueFrom.event ?? '');
    const result = evaluateSite(site, ctx.env, ctx);
    try {
      parameters.push({ name: p.name, value: toParameterValue(result) });
    } catch (e) {
      throw new Failure({
        stage: 'parameter',
        message: `failed to convert result to JSON "${p.name}" expression: ${(e as Error).message}`,
        expression: { what: site.what, source: site.source },
      });
    }
  }
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { name, generateName, namespace, labels, annotations },
    spec: {
      workflowTemplateRef: { name: ref.name, ...(clusterScope && { clusterScope: true }) },
      ...(parameters.length > 0 && { arguments: { parameters } }),
    },
  };
}

function randomSuffix(random: () => number): string {
  return Array.from({ length: 5 }, () => SUFFIX_ALPHABET[Math.floor(random() * SUFFIX_ALPHABET.length)]).join(
    '',
  );
}

/** Evaluates one binding against one event. Never throws for binding problems: they are in `failure`. */
export function evaluateBinding(binding: BindingObject, ctx: EvaluationContext): BindingEvaluation {
  const result: BindingEvaluation = { binding, matched: false, hasSubmit: binding.spec.submit != null };
  try {
    const selector = binding.spec.event?.selector ?? '';
    const value = evaluateSite({ stage: 'selector', what: 'selector', source: selector }, ctx.env, ctx);
    result.selectorValue = value;
    if (typeof value !== 'boolean')
      throw new Failure({
        stage: 'selector',
        message: `failed to evaluate workflow template expression: unable to cast expression result '${sprintS(value)}' to bool`,
        expression: { what: 'selector', source: selector },
        resultType: goTypeOf(value),
      });
    result.matched = value;
    if (!value || !result.hasSubmit) return result;
    result.workflow = buildWorkflow(binding, ctx);
  } catch (e) {
    if (!(e instanceof Failure)) throw e;
    result.failure = e.failure;
  }
  return result;
}
