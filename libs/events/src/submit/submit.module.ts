import { Module } from '@nestjs/common';
import { ManifestsModule } from '../manifests/manifests.module.js';
import { WorkflowRunner } from './workflow-runner.js';
import { WorkflowStore } from './workflow-store.js';
import { WorkflowSubmitter } from './workflow-submitter.js';
import { WorkflowWriter } from './workflow-writer.js';

/** Workflow creation, its YAML files and the optional local-agent runs. */
@Module({
  imports: [ManifestsModule],
  providers: [WorkflowStore, WorkflowWriter, WorkflowRunner, WorkflowSubmitter],
  exports: [WorkflowStore, WorkflowRunner, WorkflowSubmitter],
})
export class SubmitModule {}
