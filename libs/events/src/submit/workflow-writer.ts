import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { stringify } from 'yaml';
import { EndpointLogger } from '../logging/endpoint-logger.js';
import type { WorkflowObject } from '../manifests/argo-objects.js';
import { ENDPOINT_OPTIONS, type ResolvedOptions } from '../options.js';

/** Writes each submitted Workflow to `<out>/<namespace>/<name>.yaml` (with --out). */
@Injectable()
export class WorkflowWriter {
  constructor(
    @Inject(ENDPOINT_OPTIONS) private readonly options: ResolvedOptions,
    private readonly logger: EndpointLogger,
  ) {}

  async write(workflow: WorkflowObject): Promise<string | undefined> {
    if (!this.options.outDir) return undefined;
    const dir = join(this.options.outDir, workflow.metadata.namespace);
    const file = join(dir, `${workflow.metadata.name}.yaml`);
    try {
      await mkdir(dir, { recursive: true });
      await writeFile(file, stringify(workflow));
      return file;
    } catch (err) {
      this.logger.error(`could not write ${file}: ${(err as Error).message}`);
      return undefined;
    }
  }
}
