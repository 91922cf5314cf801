/** The body keys that select an upstream, in the order they are documented. */
export const PROVIDER_NAMES = ['databricks', 'airflow', 'dbtCloud', 'livy'] as const;

export type ProviderName = (typeof PROVIDER_NAMES)[number];
