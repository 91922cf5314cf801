import type { EnvSource, SettingsRead, UpstreamFamily } from '@app/plugin-kit';
import {
  BASE_URL,
  readUpstreamSettings,
  requireSettings,
  upstreamUrl,
} from '@app/plugin-kit/config/settings-checks.js';
import { readGoogleCredentials, type GoogleCredentials } from './google-credentials.js';

/** A Google Cloud backend's connection: `<PREFIX>_PROJECT`, `_REGION`, `_CREDENTIALS` and `_URL`. */
export interface GoogleProjectConnection {
  url: string;
  project: string;
  region: string;
  credentials: GoogleCredentials;
}

const PROJECT = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$|^[a-z0-9.-]+:[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const REGION = /^[a-z]+-[a-z]+\d+$/;

/** Every connection of a Google backend's family, checked: a project id, a region, credentials, an API URL. */
export function readGoogleProjects(
  source: EnvSource,
  family: UpstreamFamily,
  /** The API's address when `<PREFIX>_URL` is unset (Vertex AI's is regional). */
  defaultUrl: string | ((region: string) => string),
): SettingsRead<Map<string, GoogleProjectConnection>> {
  return readUpstreamSettings(source, family, (c, problems) => {
    const { values: f } = c;
    if (!requireSettings(c, ['PROJECT', 'REGION', 'CREDENTIALS'], problems)) return undefined;
    if (!PROJECT.test(f.PROJECT!)) problems.push(`${c.variable('PROJECT')}: must be a project id`);
    if (!REGION.test(f.REGION!)) problems.push(`${c.variable('REGION')}: must be a region (europe-west1)`);
    const fallback = typeof defaultUrl === 'string' ? defaultUrl : defaultUrl(f.REGION!);
    const given = f.URL ?? fallback;
    const url = upstreamUrl(c, 'URL', given, problems, BASE_URL) ?? given;
    const credentials = readGoogleCredentials(c.variable('CREDENTIALS'), f.CREDENTIALS!, problems);
    if (!credentials) return undefined;
    return { url, project: f.PROJECT!, region: f.REGION!, credentials };
  });
}
