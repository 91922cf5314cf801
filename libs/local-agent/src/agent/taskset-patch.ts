import type { ArgoNodeResult, ArgoOutputs } from '@app/argo-agent/argo-reply.js';

/**
 * What the controller reads back for a plugin node (controller/taskset.go reconcileTaskSet copies it onto the
 * node): the agent sends each result as a JSON merge patch of the WorkflowTaskSet's `status.nodes[<id>]`
 * (executor/agent.go patchWorker), marshalled by Go. Fields a reply leaves out or Go omits (an empty message,
 * no outputs, an empty list) keep what an earlier result of the node said; objects merge key by key, lists
 * are replaced whole.
 *
 * Each result is taken as a patch of its own. Results that reach the agent within one patch tick
 * (ARGO_AGENT_PATCH_RATE, the controller's DEFAULT_REQUEUE_TIME) replace each other before one is sent, which
 * only happens when a requeue is shorter than that rate.
 */
export function patchNodeResult(current: ArgoNodeResult | undefined, result: ArgoNodeResult): ArgoNodeResult {
  return mergePatch(current ?? {}, marshalNodeResult(result)) as ArgoNodeResult;
}

type Json = Record<string, unknown>;

/** wfv1.NodeResult through encoding/json: phase, message and progress are omitempty strings, outputs a pointer. */
function marshalNodeResult(result: ArgoNodeResult): Json {
  return defined({
    phase: result.phase || undefined,
    message: result.message || undefined,
    outputs: result.outputs && marshalOutputs(result.outputs),
    progress: result.progress || undefined,
  });
}

/** wfv1.Outputs: parameters and artifacts are omitempty slices (an empty list is left out), result and exitCode pointers. */
function marshalOutputs(outputs: ArgoOutputs): Json {
  return defined({
    parameters: outputs.parameters?.length ? outputs.parameters : undefined,
    artifacts: outputs.artifacts?.length ? outputs.artifacts : undefined,
    result: outputs.result,
    exitCode: outputs.exitCode,
  });
}

function defined(object: Json): Json {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** RFC 7386 JSON merge patch (what a MergePatchType patch does to the stored object). */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Json = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}
