import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { EmptyAsAbsent } from './body-fields.js';

/** A file shared next to the message (Slack's two-step upload). */
export class FileUpload {
  /** The file's text content (a report, a log excerpt, CSV, ...). */
  @IsString()
  @IsNotEmpty({ message: 'must not be empty (Slack refuses empty files)' })
  content!: string;

  /** Name with an extension; Slack picks the preview from it (`report.md`, `results.csv`). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  @Matches(/^[^/\\]+$/, { message: 'must be a file name without a path (report.txt)' })
  filename!: string;

  /** Title shown above the file; defaults to the file name. */
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @MaxLength(255)
  title?: string;
}

/** An optional `file` field of a provider's config. */
export function OptionalFile(): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    ValidateNested(),
    Type(() => FileUpload),
  );
}
