import type { ExecuteTemplateArgs } from '@app/contract';

export interface ExecuteArgsOptions {
  workflow?: Partial<ExecuteTemplateArgs['workflow']['metadata']>;
  templateName?: string;
  parameters?: Array<{ name: string; value?: string; default?: string }>;
  /** Extra template fields (retryStrategy, timeout, ...). */
  template?: Record<string, unknown>;
}

/** A request body exactly as Argo's agent builds it (inputs/outputs/metadata always present). */
export function executeArgs(
  plugin: Record<string, unknown>,
  options: ExecuteArgsOptions = {},
): ExecuteTemplateArgs {
  return {
    workflow: {
      metadata: {
        name: options.workflow?.name ?? 'wf-abc12',
        namespace: options.workflow?.namespace ?? 'argo',
        uid: options.workflow?.uid ?? '0b7c9a8e-3d1f-4c55-9a0e-2f4b6c1d8e90',
      },
    },
    template: {
      name: options.templateName ?? 'main',
      inputs: options.parameters ? { parameters: options.parameters } : {},
      outputs: {},
      metadata: {},
      plugin,
      ...options.template,
    },
  } as ExecuteTemplateArgs;
}
