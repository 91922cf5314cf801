import {
  formatDuration,
  type Duration,
  type ExecuteTemplateReply,
  type OutputParameter,
} from '@app/contract';

/** Output parameters as a handler gives them; numbers and booleans are sent as strings (AnyString). */
export type OutputValues = Record<string, string | number | boolean | null | undefined>;

/** A requeue as a Go duration string (`30s`) or milliseconds. */
export type RequeueAfter = Duration | number;

export function toOutputParameters(values: OutputValues): OutputParameter[] {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([name, value]) => ({ name, value: String(value) }));
}

export function toRequeue(after: RequeueAfter): Duration {
  return typeof after === 'number' ? formatDuration(Math.max(after, 1000)) : after;
}

export function succeeded(outputs?: OutputValues, message?: string): ExecuteTemplateReply {
  const parameters = outputs ? toOutputParameters(outputs) : [];
  return {
    node: {
      phase: 'Succeeded',
      ...(message !== undefined && { message }),
      ...(parameters.length > 0 && { outputs: { parameters } }),
    },
  };
}

export function failed(message: string, outputs?: OutputValues): ExecuteTemplateReply {
  const parameters = outputs ? toOutputParameters(outputs) : [];
  return { node: { phase: 'Failed', message, ...(parameters.length > 0 && { outputs: { parameters } }) } };
}

export function running(
  message: string,
  requeueAfter: RequeueAfter,
  outputs?: OutputValues,
): ExecuteTemplateReply {
  const parameters = outputs ? toOutputParameters(outputs) : [];
  return {
    node: { phase: 'Running', message, ...(parameters.length > 0 && { outputs: { parameters } }) },
    requeue: toRequeue(requeueAfter),
  };
}

export function pending(message: string, requeueAfter: RequeueAfter): ExecuteTemplateReply {
  return { node: { phase: 'Pending', message }, requeue: toRequeue(requeueAfter) };
}
