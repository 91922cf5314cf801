import { IsOptional, Matches } from 'class-validator';
import { IsPlainObject } from '../../dto/validators.js';

/** `dataFactory:` — a run of an Azure Data Factory pipeline. */
export class DataFactoryBlock {
  /** The pipeline's name in the connection's factory. */
  @Matches(/^[A-Za-z0-9_][^.+?/<>*%&:\\]{0,259}$/, {
    message:
      'pipeline must be a Data Factory pipeline name: at most 260 characters, none of . + ? / < > * % & : \\',
  })
  pipeline!: string;

  /**
   * The run's parameters as `createRun` takes them (name → value), passed as written; the plugin adds the
   * parameter `argoExecutionKey`, which the pipeline must declare (a String parameter).
   */
  @IsOptional()
  @IsPlainObject()
  parameters?: Record<string, unknown>;
}
