import type { MethodHandler } from '../method-call.js';
import { requireScopes, visibleChannel } from '../method-call.js';
import { SlackFailure } from '../slack-args.js';
import { slackId, type Message, type SharedFile } from '../slack-state.js';
import { appendMessage, threadRoot } from './chat.js';

/** Step 1 of the upload: reserve a file ID and a pre-signed upload URL (pointing back to the stand-in). */
export const filesGetUploadUrlExternal: MethodHandler = (call) => {
  requireScopes(call, 'files:write');
  const filename = call.args.string('filename');
  const length = call.args.int('length', NaN);
  if (!filename || !Number.isFinite(length)) throw new SlackFailure('invalid_arguments');
  if (length === 0) throw new SlackFailure('missing_argument');
  const fileId = slackId('F');
  const uploadId = slackId('u').toLowerCase();
  call.uploads.set(uploadId, { fileId, filename, length, bot: call.bot, completions: 0 });
  return { upload_url: `${call.baseUrl}/upload/v1/${uploadId}`, file_id: fileId };
};

/** Step 3: share the uploaded files into a channel (or a thread), as one message by the bot. */
export const filesCompleteUploadExternal: MethodHandler = (call) => {
  requireScopes(call, 'files:write');
  const files = call.args.json('files', 'invalid_arguments');
  if (!Array.isArray(files) || files.length === 0) throw new SlackFailure('invalid_arguments');
  const channel = call.args.has('channel_id') ? visibleChannel(call, 'channel_id') : undefined;
  if (channel?.isArchived) throw new SlackFailure('is_archived');
  if (channel && !channel.members.has(call.bot.userId)) throw new SlackFailure('not_in_channel');
  const root = channel ? threadRoot(channel, call.args.string('thread_ts')) : undefined;
  const uploads = files.map((entry: unknown) => {
    const { id, title } = (entry ?? {}) as { id?: unknown; title?: unknown };
    const upload = [...call.uploads.values()].find((u) => u.fileId === id && u.bot === call.bot);
    // A file whose bytes never reached the upload URL cannot be completed.
    if (!upload || upload.content === undefined) throw new SlackFailure('file_not_found');
    return { upload, title: typeof title === 'string' && title ? title : upload.filename };
  });
  const shared: SharedFile[] = uploads.map(({ upload, title }) => {
    upload.completions++;
    return { id: upload.fileId, name: upload.filename, title, size: Buffer.byteLength(upload.content ?? '') };
  });
  if (channel) {
    const message: Message = {
      type: 'message',
      ts: call.team.nextTs(),
      user: call.bot.userId,
      text: call.args.string('initial_comment') ?? '',
      files: shared,
      upload: true,
      origin: 'files.completeUploadExternal',
      edits: 0,
    };
    appendMessage(channel, message, root);
  }
  // Slack shares asynchronously, so `shares` is usually missing right after completion; the stand-in never sends it.
  return { files: shared.map((f) => ({ id: f.id, name: f.name, title: f.title, size: f.size })) };
};
