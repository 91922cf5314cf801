// Evaluates the reference cases the way Argo's server does (selector, parameter, plain value, metadata label)
// with libs/expr and libs/events' evaluateBinding, and compares with the real engine's results.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { evaluateBinding } from '@app/events/dispatch/evaluate-binding.js';
import type { BindingObject, TemplateObject } from '@app/events/manifests/argo-objects.js';

import { compile, execute } from '../../src/api.js';
import { eventEnv, metadataEnv } from '../../src/environment.js';
import { withReplacementCharacters } from '../../src/go-bytes.js';
import { withClock } from '../../src/go-time.js';
import { ExprCompileError, ExprRuntimeError } from '../../src/errors.js';
import { toParameterValue } from '../../src/parameter-value.js';
import { goTypeName } from '../../src/values.js';
import type { ExprValue } from '../../src/values.js';
import { goRepr } from './go-repr.js';

export type CaseId = number | string;

export interface FidelityCase {
  id: CaseId;
  area: string;
  mode: 'event' | 'meta';
  expr: string;
  env: {
    namespace: string;
    discriminator: string;
    metadata: Record<string, string[]>;
    payload: unknown;
  };
}

/** The fields of a reference result this harness compares (see README.md for all of them). */
export interface Outcome {
  compileErr: string | null;
  runErr: string | null;
  type: string | null;
  param: string | null;
  selector: 'true' | 'false' | 'error' | null;
  selMsg: string | null;
  urepr: string | null;
  paramOut: string | null;
  metaOut: string | null;
}

export interface ReferenceResult extends Outcome {
  id: CaseId;
  variants?: Outcome[];
}

export interface Difference {
  id: CaseId;
  area: string;
  expr: string;
  /** The first field whose meaning differs, with both sides. */
  field: keyof Outcome;
  ours: string | null;
  go: string | null;
}

export interface Comparison {
  cases: number;
  differences: Difference[];
  /** Cases where both sides fail the same way but the error text differs. */
  errorTexts: { compared: number; differing: number };
}

function readJsonLines<T>(file: string): T[] {
  const text = gunzipSync(readFileSync(file)).toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** Every `<name>-cases.jsonl.gz` of the folder with its `<name>-results.jsonl.gz`. */
export function loadCaseSets(
  folder: string,
): { name: string; cases: FidelityCase[]; results: Map<CaseId, ReferenceResult> }[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith('-cases.jsonl.gz'))
    .sort()
    .map((file) => {
      const name = file.slice(0, -'-cases.jsonl.gz'.length);
      const results = readJsonLines<ReferenceResult>(join(folder, `${name}-results.jsonl.gz`));
      return {
        name,
        cases: readJsonLines<FidelityCase>(join(folder, file)),
        results: new Map(results.map((r) => [r.id, r])),
      };
    });
}

const TEMPLATE: TemplateObject = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'WorkflowTemplate',
  metadata: { name: 't', namespace: 'argo' },
  spec: {},
};

function binding(selector: string, submit?: BindingObject['spec']['submit']): BindingObject {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'WorkflowEventBinding',
    metadata: { name: 'b', namespace: 'argo' },
    spec: { event: { selector }, ...(submit && { submit }) },
  };
}

function dispatch(b: BindingObject, env: Record<string, unknown>) {
  return evaluateBinding(b, { env, getTemplate: () => TEMPLATE, random: () => 0 });
}

const SELECTOR_PREFIX = 'failed to evaluate workflow template expression: ';

/** What libs/expr + evaluateBinding give for one case, in the reference's terms. */
/** Rebuilds every object of a JSON value with its keys rotated by `shift`: another map iteration order. */
function rotateKeys(value: unknown, shift: number): unknown {
  if (Array.isArray(value)) return value.map((v) => rotateKeys(v, shift));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const k = entries.length === 0 ? 0 : shift % entries.length;
  return Object.fromEntries(
    [...entries.slice(k), ...entries.slice(0, k)].map(([key, v]) => [key, rotateKeys(v, shift)]),
  );
}

/** Evaluates a case; `mapOrder` > 0 iterates every map of the environment in another (rotated) order. */
export function evaluateCase(c: FidelityCase, mapOrder = 0): Outcome {
  const { namespace, discriminator, metadata, payload } = c.env;
  const plain = rotateKeys(eventEnv(payload, metadata, discriminator, namespace), mapOrder) as Record<
    string,
    unknown
  >;
  const env = c.mode === 'meta' ? metadataEnv(plain) : plain;
  const out: Outcome = {
    compileErr: null,
    runErr: null,
    type: null,
    param: null,
    selector: null,
    selMsg: null,
    urepr: null,
    paramOut: null,
    metaOut: null,
  };
  let value: ExprValue | undefined;
  try {
    value = execute(compile(c.expr, env), env);
  } catch (e) {
    if (e instanceof ExprCompileError) out.compileErr = e.message;
    else if (e instanceof ExprRuntimeError) out.runErr = e.message;
    else throw e;
  }
  if (value !== undefined) {
    out.type = goTypeName(value);
    out.urepr = goRepr(value, true);
    try {
      out.param = toParameterValue(value);
    } catch {
      out.param = null;
    }
  }
  const selected = dispatch(binding(c.expr), env);
  if (selected.failure) {
    out.selector = 'error';
    out.selMsg = selected.failure.message.replace(SELECTOR_PREFIX, '');
  } else {
    out.selector = selected.matched ? 'true' : 'false';
  }
  if (c.mode === 'event') {
    const submit = {
      workflowTemplateRef: { name: 't' },
      arguments: { parameters: [{ name: 'p', valueFrom: { event: c.expr } }] },
    };
    const r = dispatch(binding('true', submit), plain);
    out.paramOut = r.failure
      ? `err:${r.failure.message}`
      : `ok:${r.workflow!.spec.arguments!.parameters[0]!.value}`;
  } else {
    const submit = { workflowTemplateRef: { name: 't' }, metadata: { labels: { k: c.expr } } };
    const r = dispatch(binding('true', submit), plain);
    // The reference wrote Go strings through json.Marshal: an invalid byte reads as U+FFFD.
    out.metaOut = r.failure
      ? `err:${r.failure.message}`
      : `ok:${withReplacementCharacters(r.workflow!.metadata.labels.k!)}`;
  }
  return out;
}

const outcomeKind = (o: Outcome): string =>
  o.compileErr ? 'compile error' : o.runErr ? 'run error' : 'value';
/** The outcome with what it carries (error text or value), for reports of differing outcomes. */
const describeOutcome = (o: Outcome): string =>
  `${outcomeKind(o)}: ${o.compileErr ?? o.runErr ?? o.urepr ?? ''}`;
/** `ok:<text>` stays whole; an error is compared by kind only (its text is counted apart). */
const outputMeaning = (s: string | null): string | null => (s?.startsWith('err:') ? 'err' : s);

/** JSON text with every list sorted, for values whose list order comes from Go's map iteration. */
function unordered(text: string | null): string | null {
  if (text === null) return null;
  const sortLists = (v: unknown): unknown => {
    if (Array.isArray(v))
      return v.map(sortLists).sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1));
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sortLists(x)]));
    return v;
  };
  try {
    return JSON.stringify(sortLists(JSON.parse(text)));
  } catch {
    return text;
  }
}

/** The first semantic difference between two outcomes, or undefined. */
function semanticDifference(
  ours: Outcome,
  go: Outcome,
  mapOrder: boolean,
): [keyof Outcome, string | null, string | null] | undefined {
  const text = (s: string | null): string | null => (mapOrder ? unordered(s) : s);
  const output = (s: string | null): string | null => {
    const meaning = outputMeaning(s);
    return meaning?.startsWith('ok:') ? `ok:${text(meaning.slice(3))}` : meaning;
  };
  const pairs: [keyof Outcome, string | null, string | null][] = [
    ['compileErr', outcomeKind(ours), outcomeKind(go)],
    ['type', ours.type, go.type],
    ['urepr', ours.urepr, go.urepr],
    ['param', text(ours.param), text(go.param)],
    ['selector', ours.selector, go.selector],
    ['paramOut', output(ours.paramOut), output(go.paramOut)],
    ['metaOut', output(ours.metaOut), output(go.metaOut)],
  ];
  const diff = pairs.find(([, a, b]) => a !== b);
  if (!diff) return undefined;
  const [field] = diff;
  if (field === 'compileErr') return [field, describeOutcome(ours), describeOutcome(go)];
  return [field, (ours[field] ?? null) as string | null, (go[field] ?? null) as string | null];
}

/** Evaluates a case and tells whether it read the clock (`now()`, sprig's `htmlDate(nil)`...). */
function evaluateWatchingClock(c: FidelityCase): [Outcome, boolean] {
  let read = false;
  const outcome = withClock(
    () => {
      read = true;
      return BigInt(Date.now()) * 1_000_000n;
    },
    () => evaluateCase(c),
  );
  return [outcome, read];
}

const MAP_ORDERS_TRIED = 8;

export function compareCases(
  cases: readonly FidelityCase[],
  results: ReadonlyMap<CaseId, ReferenceResult>,
): Comparison {
  const differences: Difference[] = [];
  const errorTexts = { compared: 0, differing: 0 };
  for (const c of cases) {
    const go = results.get(c.id);
    if (!go) throw new Error(`no reference result for case ${c.id}`);
    const [ours, readClock] = evaluateWatchingClock(c);
    if (readClock) {
      // Clock-derived values differ by construction: only the outcome is compared.
      if (outcomeKind(ours) !== outcomeKind(go))
        differences.push({ ...pick(c), field: 'compileErr', ours: outcomeKind(ours), go: outcomeKind(go) });
      continue;
    }
    const candidates = [go, ...(go.variants ?? [])];
    // keys()/values()/toPairs() list a map in Go's random order: list order is not compared
    const mapOrder = /\b(keys|values|toPairs)\s*\(/.test(c.expr);
    const diffs = candidates.map((candidate) => semanticDifference(ours, candidate, mapOrder));
    let diff = diffs.includes(undefined) ? undefined : diffs[0];
    // A value picked out of keys()/values()/toPairs() (`first(keys($env))`) depends on Go's random map order,
    // which the reference saw once: accepted when another iteration order of the same maps gives it.
    for (let order = 1; diff && mapOrder && order < MAP_ORDERS_TRIED; order++) {
      if (semanticDifference(evaluateCase(c, order), go, mapOrder) === undefined) diff = undefined;
    }
    // Results built from Go's random map order (the reference ran them several times): outcome and type only.
    if (diff && go.variants && !['compileErr', 'type'].includes(diff[0])) diff = undefined;
    if (diff) {
      differences.push({ ...pick(c), field: diff[0], ours: diff[1], go: diff[2] });
      continue;
    }
    const goError = go.compileErr ?? go.runErr;
    if (goError) {
      errorTexts.compared++;
      if ((ours.compileErr ?? ours.runErr) !== goError) errorTexts.differing++;
    }
  }
  return { cases: cases.length, differences, errorTexts };
}

function pick(c: FidelityCase): Pick<Difference, 'id' | 'area' | 'expr'> {
  return { id: c.id, area: c.area, expr: c.expr };
}
