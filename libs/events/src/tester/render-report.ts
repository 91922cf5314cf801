import type { BindingReport, TestReport } from './binding-tester.js';

const ICON: Record<BindingReport['outcome'], string> = {
  matched: '✔',
  'not matched': '○',
  error: '✖',
  'not listed': '-',
};

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

function renderBinding(b: BindingReport): string {
  const lines = [
    `${ICON[b.outcome]} ${b.name}: ${b.outcome}`,
    `    selector: ${b.selector.replace(/\s*\n\s*/g, ' ')}`,
  ];
  if (b.selectorValue !== undefined) lines.push(`    value:    ${b.selectorValue}`);
  if (b.failed)
    lines.push(`    false:    ${b.failed.condition}${b.failed.actual ? ` (${b.failed.actual})` : ''}`);
  const wf = b.workflow;
  if (wf) {
    const name = wf.randomSuffix ? `${wf.generateName}<5 random characters>` : wf.name;
    lines.push(
      `    would submit Workflow ${name} from ${wf.clusterScope ? 'ClusterWorkflowTemplate' : 'WorkflowTemplate'} ${wf.template}`,
    );
    if (wf.parameters.length > 0) {
      lines.push('      parameters:');
      for (const p of wf.parameters) lines.push(`        ${p.name}: ${p.value}`);
    }
    lines.push('      labels:');
    for (const [k, v] of Object.entries(wf.labels)) lines.push(`        ${k}: ${v}`);
    if (Object.keys(wf.annotations).length > 0) {
      lines.push('      annotations:');
      for (const [k, v] of Object.entries(wf.annotations)) lines.push(`        ${k}: ${v}`);
    }
    lines.push("      (plus workflows.argoproj.io/creator from the caller's token)");
  }
  if (b.error) lines.push(indent(b.error, '    '));
  for (const problem of b.whenMatched ?? []) lines.push(indent(`when it matches: ${problem}`, '    '));
  for (const hint of b.hints) lines.push(`    hint: ${hint}`);
  return lines.join('\n');
}

/** The text form of `events test`. */
export function renderTestReport(report: TestReport): string {
  const header = [
    `Event for namespace ${report.namespace}, discriminator ${JSON.stringify(report.discriminator)}`,
    `  payload:  ${JSON.stringify(report.payload)}`,
    `  metadata: ${JSON.stringify(report.metadata)}`,
    ...report.notes.map((n) => `  note: ${n}`),
    '',
  ];
  const body =
    report.bindings.length === 0
      ? [
          `no WorkflowEventBinding in namespace ${report.namespace}: the server would reply 200 and do nothing`,
        ]
      : report.bindings.map(renderBinding);
  const errors = report.bindings.filter((b) => b.outcome === 'error').length;
  const matched = report.bindings.filter((b) => b.outcome === 'matched').length;
  const n = report.bindings.length;
  const summary = `\n${n} binding${n === 1 ? '' : 's'}: ${matched} matched, ${errors} with ${errors === 1 ? 'an error' : 'errors'}`;
  return [...header, ...body, summary].join('\n') + '\n';
}
