import { existsSync } from 'node:fs';
import {
  Secret,
  type EnvClass,
  type EnvSource,
  type SettingsRead,
  type UpstreamFamily,
} from '@app/plugin-kit';
import { IsOptional, IsString } from '@app/plugin-kit/config/env-rules.js';
import {
  BASE_URL,
  readUpstreamSettings,
  requireSettings,
  upstreamUrl,
} from '@app/plugin-kit/config/settings-checks.js';

/** The default connection's variables (so its secret is known to the redactor); named ones are read by `read`. */
export const dataFactoryVariables = (Base: EnvClass) => {
  class DataFactoryVariables extends Base {
    @IsOptional()
    @IsString()
    DATA_FACTORY_SUBSCRIPTION_ID?: string;

    @IsOptional()
    @IsString()
    DATA_FACTORY_RESOURCE_GROUP?: string;

    @IsOptional()
    @IsString()
    DATA_FACTORY_FACTORY?: string;

    @IsOptional()
    @IsString()
    DATA_FACTORY_TENANT_ID?: string;

    @IsOptional()
    @IsString()
    DATA_FACTORY_CLIENT_ID?: string;

    @Secret()
    @IsOptional()
    @IsString()
    DATA_FACTORY_CLIENT_SECRET?: string;

    @IsOptional()
    @IsString()
    DATA_FACTORY_FEDERATED_IDENTITY_FILE?: string;

    @IsOptional()
    @IsString()
    DATA_FACTORY_URL?: string;

    @IsOptional()
    @IsString()
    DATA_FACTORY_AUTHORITY_HOST?: string;

    @IsOptional()
    @IsString()
    DATA_FACTORY_CA_FILE?: string;

    @IsOptional()
    @IsString()
    DATA_FACTORY_CA_PEM?: string;
  }
  return DataFactoryVariables;
};

/** How the connection gets its Microsoft Entra tokens: a client secret, or a federated (workload identity) token. */
export type AzureCredential =
  | { kind: 'clientSecret'; tenantId: string; clientId: string; clientSecret: string }
  | { kind: 'workloadIdentity'; tenantId: string; clientId: string; tokenFile: string };

export interface DataFactoryConnection {
  /** Azure Resource Manager (https://management.azure.com, or the admin's DATA_FACTORY_URL). */
  url: string;
  /** The factory's resource path: `/subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.DataFactory/factories/<name>`. */
  factoryPath: string;
  subscriptionId: string;
  resourceGroup: string;
  factory: string;
  /** The Microsoft Entra authority host (https://login.microsoftonline.com, or a sovereign cloud's). */
  authorityHost: string;
  credential: AzureCredential;
  /**
   * The CA both hosts' certificates chain to (a private endpoint, a TLS-inspecting proxy): a PEM bundle's path, or
   * the PEM itself (an agent pod's sidecar has no volumes of its own to mount a file from).
   */
  ca?: { file: string } | { pem: string };
}

export const DATA_FACTORY_FAMILY: UpstreamFamily = {
  prefix: 'DATA_FACTORY',
  settings: [
    'SUBSCRIPTION_ID',
    'RESOURCE_GROUP',
    'FACTORY',
    'TENANT_ID',
    'CLIENT_ID',
    'CLIENT_SECRET',
    'FEDERATED_IDENTITY_FILE',
    'URL',
    'AUTHORITY_HOST',
    'CA_FILE',
    'CA_PEM',
  ],
};

export const ARM_URL = 'https://management.azure.com';
export const ENTRA_AUTHORITY_HOST = 'https://login.microsoftonline.com';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RESOURCE_GROUP = /^[-\w.()]{0,89}[-\w()]$/u;
const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/;
const FACTORY = /^[A-Za-z0-9](?:[A-Za-z0-9-]{1,61}[A-Za-z0-9])$/;

/**
 * Every connection of the family, checked. The tenant, the client and the federated token file default to what
 * the Azure Workload Identity webhook puts into the pod (AZURE_TENANT_ID, AZURE_CLIENT_ID,
 * AZURE_FEDERATED_TOKEN_FILE, AZURE_AUTHORITY_HOST); a connection's CLIENT_SECRET takes precedence.
 */
export function readDataFactory(source: EnvSource): SettingsRead<Map<string, DataFactoryConnection>> {
  return readUpstreamSettings(source, DATA_FACTORY_FAMILY, (c, problems) => {
    const { values: f } = c;
    if (!requireSettings(c, ['SUBSCRIPTION_ID', 'RESOURCE_GROUP', 'FACTORY'], problems)) return undefined;
    const before = problems.length;
    if (!GUID.test(f.SUBSCRIPTION_ID!))
      problems.push(`${c.variable('SUBSCRIPTION_ID')}: must be a subscription id (a GUID)`);
    if (!RESOURCE_GROUP.test(f.RESOURCE_GROUP!))
      problems.push(`${c.variable('RESOURCE_GROUP')}: must be a resource group name`);
    if (!FACTORY.test(f.FACTORY!))
      problems.push(`${c.variable('FACTORY')}: must be a data factory name (3-63 of letters, digits, "-")`);
    const tenantId = f.TENANT_ID ?? source.AZURE_TENANT_ID;
    const clientId = f.CLIENT_ID ?? source.AZURE_CLIENT_ID;
    const tokenFile = f.FEDERATED_IDENTITY_FILE ?? source.AZURE_FEDERATED_TOKEN_FILE;
    if (!tenantId) problems.push(`${c.variable('TENANT_ID')}: must be set (or AZURE_TENANT_ID)`);
    else if (!GUID.test(tenantId)) problems.push(`${c.variable('TENANT_ID')}: must be a tenant id (a GUID)`);
    if (!clientId) problems.push(`${c.variable('CLIENT_ID')}: must be set (or AZURE_CLIENT_ID)`);
    else if (!GUID.test(clientId)) problems.push(`${c.variable('CLIENT_ID')}: must be a client id (a GUID)`);
    if (f.CLIENT_SECRET === undefined && !tokenFile)
      problems.push(
        `${c.variable('CLIENT_SECRET')}: must be set, or a federated token file (${c.variable('FEDERATED_IDENTITY_FILE')} or AZURE_FEDERATED_TOKEN_FILE, workload identity)`,
      );
    if (f.CA_FILE !== undefined && f.CA_PEM !== undefined)
      problems.push(`${c.variable('CA_PEM')}: set it or ${c.variable('CA_FILE')}, not both`);
    else if (f.CA_FILE !== undefined && !existsSync(f.CA_FILE))
      problems.push(`${c.variable('CA_FILE')}: no such file`);
    else if (f.CA_PEM !== undefined && !PEM_CERTIFICATE.test(f.CA_PEM))
      problems.push(
        `${c.variable('CA_PEM')}: must hold a PEM certificate (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)`,
      );
    const given = f.URL ?? ARM_URL;
    const url = upstreamUrl(c, 'URL', given, problems, BASE_URL) ?? given;
    const authority = f.AUTHORITY_HOST ?? source.AZURE_AUTHORITY_HOST ?? ENTRA_AUTHORITY_HOST;
    const authorityHost = upstreamUrl(c, 'AUTHORITY_HOST', authority, problems, BASE_URL) ?? authority;
    if (!authorityHost.startsWith('https://'))
      problems.push(`${c.variable('AUTHORITY_HOST')}: must be an https URL (Microsoft Entra ID)`);
    if (problems.length > before) return undefined;
    const credential: AzureCredential =
      f.CLIENT_SECRET !== undefined
        ? { kind: 'clientSecret', tenantId: tenantId!, clientId: clientId!, clientSecret: f.CLIENT_SECRET }
        : { kind: 'workloadIdentity', tenantId: tenantId!, clientId: clientId!, tokenFile: tokenFile! };
    return {
      url,
      factoryPath: `/subscriptions/${f.SUBSCRIPTION_ID}/resourceGroups/${encodeURIComponent(f.RESOURCE_GROUP!)}/providers/Microsoft.DataFactory/factories/${f.FACTORY}`,
      subscriptionId: f.SUBSCRIPTION_ID!,
      resourceGroup: f.RESOURCE_GROUP!,
      factory: f.FACTORY!,
      authorityHost: authorityHost.replace(/\/+$/, ''),
      credential,
      ...caOf(f.CA_FILE, f.CA_PEM),
    };
  });
}

function caOf(file: string | undefined, pem: string | undefined): Pick<DataFactoryConnection, 'ca'> {
  if (pem !== undefined) return { ca: { pem } };
  return file !== undefined ? { ca: { file } } : {};
}
