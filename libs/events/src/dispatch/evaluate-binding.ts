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

function exprFailure(stage: Stage, message: string, what: string, source: string, err: unknown): Failure {
  const exprError = err instanceof ExprError ? err : undefined;
  return new Failure({ stage, message, expression: { what, source }, exprError });
}

function evaluateSelector(selector: string, env: Environment): ExprValue {
  const prefix = 'failed to evaluate workflow template expression: ';
  let program;
  try {
    program = compile(selector, env);
  } catch (e) {
    throw exprFailure('selector', `${prefix}${(e as Error).message}`, 'selector', selector, e);
  }
  let value: ExprValue;
  try {
    value = execute(program, env);
  } catch (e) {
    const message = `${prefix}unable to evaluate expression '${selector}': ${(e as Error).message}`;
    throw exprFailure('selector', message, 'selector', selector, e);
  }
  return value;
}

/** A name/generateName/label/annotation expression; it must give a Go string. */
function evaluateString(source: string, what: string, env: Environment): string {
  let value: ExprValue;
  try {
    value = execute(compile(source, env), env);
  } catch (e) {
    throw exprFailure(
      'metadata',
      `failed to evaluate workflow ${what} expression: ${(e as Error).message}`,
      what,
      source,
      e,
    );
  }
  if (typeof value !== 'string') {
    const type = goTypeOf(value);
    throw new Failure({
      stage: 'metadata',
      message: `workflow ${what} expression must evaluate to a string, not a ${type}`,
      expression: { what, source },
      resultType: type,
    });
  }
  return value;
}

function evaluateParameter(name: string, source: string, env: Environment): string {
  let program;
  try {
    program = compile(source, env);
  } catch (e) {
    const message = `failed to compile workflow template parameter ${name} expression: ${(e as Error).message}`;
    throw exprFailure('parameter', message, `parameter ${name}`, source, e);
  }
  try {
    return toParameterValue(execute(program, env));
  } catch (e) {
    const message = `failed to evaluate workflow template parameter "${name}" expression: ${(e as Error).message}`;
    throw exprFailure('parameter', message, `parameter ${name}`, source, e);
  }
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
  if (meta.name) name = evaluateString(meta.name, 'name', metaEnv);
  if (meta.generateName) generateName = evaluateString(meta.generateName, 'generateName', metaEnv);
  for (const key of Object.keys(meta.labels ?? {}).sort())
    labels[key] = evaluateString(meta.labels![key]!, `label "${key}"`, metaEnv);
  for (const key of Object.keys(meta.annotations ?? {}).sort())
    annotations[key] = evaluateString(meta.annotations![key]!, `annotation "${key}"`, metaEnv);
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
    parameters.push({ name: p.name, value: evaluateParameter(p.name, p.valueFrom.event ?? '', ctx.env) });
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
    const value = evaluateSelector(selector, ctx.env);
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
