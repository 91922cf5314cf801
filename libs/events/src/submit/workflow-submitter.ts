import { Injectable } from '@nestjs/common';
import type { Caller } from '../auth/caller.js';
import { EndpointLogger } from '../logging/endpoint-logger.js';
import type { WorkflowObject } from '../manifests/argo-objects.js';
import { WorkflowRunner } from './workflow-runner.js';
import { WorkflowStore } from './workflow-store.js';
import { WorkflowWriter } from './workflow-writer.js';

/** CREATE, then the emulator's side effects: the YAML file and, with --run, the local agent. */
@Injectable()
export class WorkflowSubmitter {
  constructor(
    private readonly store: WorkflowStore,
    private readonly writer: WorkflowWriter,
    private readonly runner: WorkflowRunner,
    private readonly logger: EndpointLogger,
  ) {}

  /** Throws `failed to create workflow: <API server message>`. */
  async submit(workflow: WorkflowObject, caller: Caller | undefined): Promise<WorkflowObject> {
    let created: WorkflowObject;
    try {
      created = this.store.create(workflow, caller);
    } catch (err) {
      throw new Error(`failed to create workflow: ${(err as Error).message}`, { cause: err });
    }
    const file = await this.writer.write(created);
    this.logger.info(`submitted workflow ${created.metadata.namespace}/${created.metadata.name}`, {
      binding: created.metadata.labels['workflows.argoproj.io/workflow-event-binding'],
      ...(file && { file }),
      ...(created.spec.arguments && { parameters: created.spec.arguments.parameters }),
    });
    this.runner.start(created);
    return created;
  }
}
