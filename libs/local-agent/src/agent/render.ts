import { isFailedPhase, type AgentNode } from './agent-node.js';
import type { WorkflowResult } from './workflow-runner.js';

const ICON: Record<string, string> = {
  Succeeded: '✔',
  Failed: '✖',
  Error: '⚠',
  Running: '●',
  Pending: '◷',
  Skipped: '○',
  Omitted: '-',
};

function duration(node: { startedAt: number; finishedAt?: number }, now = Date.now()): string {
  const s = Math.round(((node.finishedAt ?? now) - node.startedAt) / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${s % 60}s` : `${s}s`;
}

/** A node tree like `argo get`: name, template, phase, duration, message, then output parameters. */
export function renderResult(result: WorkflowResult): string {
  const byId = new Map(result.nodes.map((n) => [n.id, n]));
  // Node rows are aligned in columns; output-parameter lines hang under their node outside the columns.
  const rows: Array<string[] | string> = [];
  const visit = (node: AgentNode, prefix: string, last: boolean, root: boolean): void => {
    // Step groups are structural: show their children directly, like argo get does.
    const children = node.children
      .map((id) => byId.get(id)!)
      .flatMap((c) => (c.type === 'StepGroup' ? c.children.map((id) => byId.get(id)!) : [c]));
    const branch = root ? ' ' : `${prefix}${last ? '└─' : '├─'}`;
    rows.push([
      `${branch}${Object.hasOwn(ICON, node.phase) ? ICON[node.phase] : '?'} ${root ? node.name : node.displayName}`,
      node.templateName,
      node.phase,
      duration(node),
      node.message ?? '',
    ]);
    const params = node.type === 'Plugin' ? (node.outputs?.parameters ?? []) : [];
    const childPrefix = root ? ' ' : `${prefix}${last ? '  ' : '│ '}`;
    const shown = [
      ...params.map((p) => [p.name, p.value] as const),
      ...(node.type === 'Plugin' && node.outputs?.result !== undefined
        ? [['result', node.outputs.result] as const]
        : []),
    ];
    for (const [name, text] of shown) {
      const value = text === undefined ? '(no value)' : text.length > 80 ? `${text.slice(0, 77)}...` : text;
      rows.push(`${childPrefix}${children.length ? '│' : ' '}   ${name}=${value}`);
    }
    children.forEach((c, i) => visit(c, childPrefix, i === children.length - 1, false));
  };
  const roots = result.nodes.filter((n) => n.name === result.name || n.name === `${result.name}.onExit`);
  for (const r of roots) visit(r, '', true, true);
  const columns = rows.filter((r): r is string[] => Array.isArray(r));
  const widths = [0, 1, 2, 3].map((i) =>
    Math.max(...columns.map((r) => [...r[i]].length), ['STEP', 'TEMPLATE', 'PHASE', 'DURATION'][i].length),
  );
  const line = (r: string[] | string) =>
    typeof r === 'string'
      ? r
      : r
          .map((c, i) => (i < 4 ? c + ' '.repeat(widths[i] - [...c].length) : c))
          .join('  ')
          .trimEnd();
  const header = [
    `Name:                ${result.name}`,
    `Namespace:           ${result.namespace}`,
    `Status:              ${result.phase}`,
    ...(result.message ? [`Message:             ${result.message}`] : []),
    `Duration:            ${duration(result)}`,
    ...(Object.keys(result.parameters).length
      ? ['Parameters:', ...Object.entries(result.parameters).map(([k, v]) => `  ${k}: ${v}`)]
      : []),
    '',
  ];
  const warnings = result.warnings.map((w) => `warning: ${w}`);
  return (
    [
      ...header,
      line(['STEP', 'TEMPLATE', 'PHASE', 'DURATION', 'MESSAGE']),
      ...rows.map(line),
      ...(warnings.length ? ['', ...warnings] : []),
    ].join('\n') + '\n'
  );
}

/** The same as JSON (for `--output json`). */
export function resultJson(result: WorkflowResult): Record<string, unknown> {
  return {
    metadata: { name: result.name, namespace: result.namespace, uid: result.uid },
    status: {
      phase: result.phase,
      message: result.message,
      startedAt: new Date(result.startedAt).toISOString(),
      finishedAt: new Date(result.finishedAt).toISOString(),
      nodes: Object.fromEntries(
        result.nodes.map((n) => [
          n.id,
          {
            id: n.id,
            name: n.name,
            displayName: n.displayName,
            type: n.type,
            templateName: n.templateName,
            phase: n.phase,
            message: n.message,
            outputs: n.outputs,
            children: n.children,
            calls: n.calls,
            plugin: n.plugin,
            hung: n.hung,
            startedAt: new Date(n.startedAt).toISOString(),
            finishedAt: n.finishedAt ? new Date(n.finishedAt).toISOString() : undefined,
          },
        ]),
      ),
    },
    warnings: result.warnings,
    failed: isFailedPhase(result.phase) || result.phase !== 'Succeeded',
  };
}
