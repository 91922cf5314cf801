// Hints for the classic WorkflowEventBinding mistakes, from the expressions and the error a binding gave.
import type { BindingEvaluation } from '../dispatch/evaluate-binding.js';

const BARE_STRING_COMPARE = /metadata\s*\[\s*(["'])([^"']*)\1\s*\]\s*(==|!=)\s*(["'])([^"']*)\4/g;
const BARE_STRING_COMPARE_REVERSED = /(["'])([^"']*)\1\s*(==|!=)\s*metadata\s*\[\s*(["'])([^"']*)\4\s*\]/g;
const METADATA_KEY = /metadata\s*(?:\?\.)?\s*\[\s*(["'])([^"']*)\1\s*\]|metadata\s*\??\.\s*([A-Za-z_][\w]*)/g;

/** Hints from the expression text alone (they apply whether or not the binding failed). */
export function expressionHints(source: string): string[] {
  const hints: string[] = [];
  for (const m of source.matchAll(BARE_STRING_COMPARE))
    hints.push(
      `metadata[${m[1]}${m[2]}${m[1]}] is a list of strings, so \`${m[0]}\` is always ${m[3] === '==' ? 'false' : 'true'}: write metadata[${m[1]}${m[2]}${m[1]}] ${m[3]} [${m[4]}${m[5]}${m[4]}] (or ${m[4]}${m[5]}${m[4]} in metadata[${m[1]}${m[2]}${m[1]}])`,
    );
  for (const m of source.matchAll(BARE_STRING_COMPARE_REVERSED))
    hints.push(
      `metadata[${m[4]}${m[5]}${m[4]}] is a list of strings, so comparing it with the string ${m[1]}${m[2]}${m[1]} is never equal: compare with [${m[1]}${m[2]}${m[1]}]`,
    );
  for (const m of source.matchAll(METADATA_KEY)) {
    const key = m[2] ?? m[3]!;
    const lower = key.toLowerCase();
    if (!lower.startsWith('x-'))
      hints.push(
        `metadata[${JSON.stringify(key)}] is always nil: only headers whose names start with x- reach bindings (${key === 'authorization' || lower === 'authorization' ? 'Authorization never does' : `send it as X-${key}`})`,
      );
    else if (key !== lower)
      hints.push(
        `metadata[${JSON.stringify(key)}] is always nil: header names are lower-cased, use metadata[${JSON.stringify(lower)}]`,
      );
  }
  return hints;
}

/** Hints from a binding's failure (the reason of its expression error, the stage, the result type). */
export function failureHints(evaluation: BindingEvaluation, payloadIsNil: boolean): string[] {
  const failure = evaluation.failure;
  if (!failure) return [];
  const hints: string[] = [];
  const reason = failure.exprError?.reason ?? '';
  const what = failure.expression?.what ?? '';
  const unknown = /^unknown name (\S+)/.exec(reason)?.[1];
  if (unknown === 'event')
    hints.push(
      'the variables are payload, metadata, discriminator and namespace: write payload.x, not event.payload.x (the Argo docs example has this mistake)',
    );
  else if (
    ['sprig', 'toJson', 'jsonpath', 'asInt', 'asFloat'].includes(unknown ?? '') &&
    failure.stage !== 'metadata'
  )
    hints.push(
      `${unknown} exists only in name/generateName/label/annotation expressions; selectors and parameters have the expr builtins (string(x), toJSON(x), int(x), float(x))`,
    );
  else if (unknown && failure.stage === 'metadata')
    hints.push(
      `a literal ${what} needs quotes inside the expression: in YAML write '"${unknown}..."' (single quotes around a double-quoted string)`,
    );
  else if (unknown)
    hints.push(
      `"${unknown}" is not defined: the variables are payload, metadata, discriminator and namespace`,
    );
  if (/^type nil has no field/.test(reason) && payloadIsNil)
    hints.push(
      'the body was empty (or null), so payload is nil and every payload.x is a compile error, even behind a nil check: send {} instead of no body',
    );
  const fetch = /^cannot fetch (\S+) from <nil>/.exec(reason);
  if (fetch) {
    const chain = nilChain(failure.expression?.source ?? '', fetch[1]!);
    hints.push(
      chain
        ? `${chain} is nil in this event, so .${fetch[1]} fails: guard it with ${chain}?.${fetch[1]} (and ?? for a default) or test ${chain} != nil first`
        : `a field before .${fetch[1]} is missing in this event: guard with ?. and ?? (payload.a?.${fetch[1]} ?? "") or test for nil first`,
    );
  }
  if (
    /^invalid operation: string \+ (float64|int|bool|<nil>)/.test(reason) ||
    /^invalid operation: (float64|int) \+ string/.test(reason)
  )
    hints.push(
      '+ joins two strings only: convert with string(x), and string(int(x)) for whole JSON numbers (which are float64)',
    );
  if (failure.resultType && failure.stage === 'selector')
    hints.push(
      `the selector must give a bool, not a ${failure.resultType}: compare it (payload.x == "value") or test it (payload.x != nil)`,
    );
  if (failure.resultType && failure.stage === 'metadata')
    hints.push(
      `${what} must be a string, not a ${failure.resultType}: wrap it in string(...) or sprig.toString(...)${failure.resultType === 'float64' ? ' (string(int(x)) for plain digits: JSON numbers are float64, and 1234567 prints as 1.234567e+06)' : ''}${failure.resultType === '<nil>' ? ', and make sure the field exists (?? "default")' : ''}`,
    );
  if (failure.stage === 'template' && /not found/.test(failure.message))
    hints.push(
      `the template must exist before the event arrives, in the binding's namespace (${evaluation.binding.metadata.namespace}); for a ClusterWorkflowTemplate set workflowTemplateRef.clusterScope: true`,
    );
  if (/valueFrom is nil/.test(failure.message))
    hints.push(
      'parameters of a binding take their value from valueFrom.event (an expression); a literal is valueFrom.event: \'"text"\'',
    );
  if (/^unexpected token EOF/.test(reason) && failure.expression?.source.trim() === '')
    hints.push(`the ${what} is empty: write an expression (true matches every event)`);
  return hints;
}

/** Hints that are not errors: a match that submits nothing. */
export function outcomeHints(evaluation: BindingEvaluation): string[] {
  if (evaluation.matched && !evaluation.hasSubmit)
    return [
      'the selector matched but the binding has no spec.submit: nothing is submitted, and the server says nothing about it',
    ];
  return [];
}

/** The member chain before `.field` in the source (`payload.repo` for `payload.repo.name`), if it is plain. */
function nilChain(source: string, field: string): string | undefined {
  const escaped = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`([A-Za-z_]\\w*(?:\\??\\.[A-Za-z_]\\w*|\\[[^\\]]*\\])*)\\??\\.${escaped}\\b`).exec(
    source,
  );
  return m?.[1];
}
