import { Inject, Injectable } from '@nestjs/common';
import {
  renderResult,
  runWorkflow,
  type WorkflowResult,
  type WorkflowShape,
} from '@app/local-agent/agent/index.js';
import { EndpointLogger } from '../logging/endpoint-logger.js';
import type { WorkflowObject } from '../manifests/argo-objects.js';
import { ManifestStore } from '../manifests/manifest-store.js';
import { ENDPOINT_OPTIONS, type ResolvedOptions } from '../options.js';

export interface WorkflowRun {
  workflow: WorkflowObject;
  result?: WorkflowResult;
  error?: string;
  /** The node tree, as `argo get` prints it. */
  tree?: string;
}

/** With --run: hands each submitted Workflow to the local agent so its plugin steps run. */
@Injectable()
export class WorkflowRunner {
  private readonly finished: WorkflowRun[] = [];
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    @Inject(ENDPOINT_OPTIONS) private readonly options: ResolvedOptions,
    private readonly manifests: ManifestStore,
    private readonly logger: EndpointLogger,
  ) {}

  get enabled(): boolean {
    return this.options.run !== undefined;
  }

  start(workflow: WorkflowObject): void {
    const settings = this.options.run;
    if (!settings) return;
    const plugins = typeof settings.plugins === 'function' ? settings.plugins() : settings.plugins;
    const run: WorkflowRun = { workflow };
    const done = runWorkflow(workflow as unknown as WorkflowShape, {
      plugins,
      templates: this.manifests.allTemplates() as unknown as WorkflowShape[],
      namespace: workflow.metadata.namespace,
      timeScale: settings.timeScale,
    })
      .then((result) => {
        run.result = result;
        run.tree = renderResult(result);
        this.logger.info(`workflow ${workflow.metadata.name} ${result.phase}`, {
          workflow: `${workflow.metadata.namespace}/${workflow.metadata.name}`,
          phase: result.phase,
          tree: run.tree,
        });
        settings.onResult?.(result, workflow);
      })
      .catch((err: unknown) => {
        run.error = (err as Error).message;
        this.logger.error(`workflow ${workflow.metadata.name} could not run: ${run.error}`);
      })
      .finally(() => {
        this.finished.push(run);
        this.inFlight.delete(done);
      });
    this.inFlight.add(done);
  }

  runs(): WorkflowRun[] {
    return [...this.finished];
  }

  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }
}
