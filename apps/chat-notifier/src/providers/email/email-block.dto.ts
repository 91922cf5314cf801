import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsEmail, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { FileUpload, OptionalFile } from '../../shared/file-upload.dto.js';
import { MessageContent } from '../../shared/message-content.dto.js';
import { EmptyAsAbsent, AdminChoice } from '../../shared/body-fields.js';

/** Addresses as a list or a comma/space/semicolon separated string (what a parameter gives). */
const Addresses = (): PropertyDecorator =>
  Transform(({ value }) => {
    if (value === '' || value === null) return undefined;
    return typeof value === 'string' ? value.split(/[\s,;]+/).filter((v) => v !== '') : value;
  });

/** A Message-ID as the plugin writes it: `<…@…>` (the `id` output of an earlier step). */
export const MESSAGE_ID = /^<[^<>\s@]+@[^<>\s@]+>$/;

/**
 * `notify: {email: {...}}`: one mail, HTML and text from the same content, through the admin's SMTP relay.
 * `thread` makes it a reply in a mail thread (In-Reply-To / References).
 */
export class EmailConfig extends MessageContent {
  @Addresses()
  @ArrayMaxSize(50)
  @IsEmail({}, { each: true, message: 'must be e-mail addresses such as oncall@example.com (each)' })
  to!: string[];

  @Addresses()
  @IsOptional()
  @ArrayMaxSize(50)
  @IsEmail({}, { each: true, message: 'must be e-mail addresses (each)' })
  cc?: string[];

  /** Default: the title, else `[Argo] <status> <workflow>`. */
  @EmptyAsAbsent()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  subject?: string;

  /** Reply to this mail (the `thread` or `id` output of an earlier step). */
  @EmptyAsAbsent()
  @IsOptional()
  @Matches(MESSAGE_ID, {
    message: 'must be a Message-ID such as <argo-…@example.com> (the id output of an earlier step)',
  })
  thread?: string;

  /** A text file attached to the mail. */
  @OptionalFile()
  file?: FileUpload;

  /** A relay configured by the admin (SMTP_<NAME>_URL + SMTP_<NAME>_FROM); the default one when absent. */
  @AdminChoice('server', 'ops')
  server?: string;
}
