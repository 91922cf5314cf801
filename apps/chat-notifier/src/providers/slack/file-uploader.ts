import { Injectable } from '@nestjs/common';
import { UpstreamError, type PluginLogger } from '@app/plugin-kit';
import type { FileUpload } from '../../shared/file-upload.dto.js';
import type { CallBudget } from './call-budget.js';
import { slackCall } from './slack-call.js';
import type { WorkspaceClient } from './slack-client.factory.js';

/**
 * Slack's two-step upload, as the client's filesUploadV2 does it, but split so the plugin controls the order:
 * `upload` reserves a file (files.getUploadURLExternal) and sends the bytes to the URL Slack returns (the
 * file exists but nobody sees it yet); `share` (files.completeUploadExternal) posts it into the channel or
 * thread. The file ID is written into the message's metadata between the two, so a restart can tell
 * whether the share already happened.
 */
/** Where Slack's files.getUploadURLExternal hands out upload URLs (https://files.slack.com/upload/v1/…). */
export const SLACK_UPLOAD_HOSTS = ['files.slack.com'];

/**
 * Why an upload URL is not followed, or undefined when it is fine: the file's bytes go only to Slack's upload
 * host over https, or to the origin of the configured SLACK_API_URL (a proxy in front of Slack, a stand-in).
 */
export function uploadHostProblem(uploadUrl: string, apiOrigin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uploadUrl);
  } catch {
    return 'the upload URL is not a URL; the file was not sent';
  }
  if (url.origin === apiOrigin) return undefined;
  if (url.protocol === 'https:' && SLACK_UPLOAD_HOSTS.includes(url.hostname) && url.port === '')
    return undefined;
  return `the upload URL points to ${url.protocol}//${url.host}, which is neither Slack's upload host (${SLACK_UPLOAD_HOSTS.join(', ')}) nor the host of SLACK_API_URL; the file was not sent`;
}

@Injectable()
export class FileUploader {
  async upload(
    client: WorkspaceClient,
    file: FileUpload,
    budget: CallBudget,
    logger: PluginLogger,
  ): Promise<string> {
    const bytes = Buffer.from(file.content, 'utf8');
    const site = { method: 'files.getUploadURLExternal', workspace: client.workspace };
    const reserved = await slackCall(site, budget, logger, () =>
      client.writes.files.getUploadURLExternal({ filename: file.filename, length: bytes.length }),
    );
    if (!reserved.upload_url || !reserved.file_id)
      throw UpstreamError.transient('slack: files.getUploadURLExternal returned no upload URL');
    const refused = uploadHostProblem(reserved.upload_url, client.apiOrigin);
    if (refused) throw UpstreamError.permanent(`slack: files.getUploadURLExternal: ${refused}`);
    // Multipart with the bytes in one part, the way @slack/web-api sends them.
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), file.filename);
    let status: number;
    try {
      const res = await client.fetch(reserved.upload_url, {
        method: 'POST',
        body: form,
        redirect: 'error',
        signal: AbortSignal.timeout(client.timeoutMs),
      });
      status = res.status;
      await res.text();
    } catch (err) {
      const reason =
        (err as Error).name === 'TimeoutError'
          ? 'timed out'
          : ((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message);
      throw UpstreamError.transient(`slack: upload of ${file.filename} failed (${reason})`, { cause: err });
    }
    if (status !== 200) {
      // An expired or refused upload URL: a new attempt reserves a new one.
      throw UpstreamError.transient(`slack: upload of ${file.filename} → HTTP ${status}`, { status });
    }
    logger.debug({ fileId: reserved.file_id, bytes: bytes.length }, 'file uploaded, not shared yet');
    return reserved.file_id;
  }

  async share(
    client: WorkspaceClient,
    fileId: string,
    file: FileUpload,
    destination: { channel: string; label: string; threadTs?: string },
    budget: CallBudget,
    logger: PluginLogger,
  ): Promise<void> {
    const site = {
      method: 'files.completeUploadExternal',
      workspace: client.workspace,
      channel: destination.label,
      ts: destination.threadTs,
    };
    await slackCall(site, budget, logger, () =>
      client.writes.files.completeUploadExternal({
        files: [{ id: fileId, title: file.title ?? file.filename }],
        channel_id: destination.channel,
        ...(destination.threadTs && { thread_ts: destination.threadTs }),
      }),
    );
  }
}
