// Prometheus metrics in the text exposition format (version 0.0.4), without a client library: counters and
// gauges with labels, and histograms with fixed buckets.

type Labels = Record<string, string>;

const escape = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labelText = (labels: Labels) => {
  const entries = Object.entries(labels);
  return entries.length ? `{${entries.map(([k, v]) => `${k}="${escape(v)}"`).join(',')}}` : '';
};
const number = (n: number) => (Number.isFinite(n) ? String(n) : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN');

interface Metric {
  render(): string;
}

export class Counter implements Metric {
  private readonly values = new Map<string, { labels: Labels; value: number }>();

  constructor(
    readonly name: string,
    private readonly help: string,
  ) {}

  inc(labels: Labels = {}, by = 1): void {
    const key = labelText(labels);
    const entry = this.values.get(key) ?? { labels, value: 0 };
    entry.value += by;
    this.values.set(key, entry);
  }

  get(labels: Labels = {}): number {
    return this.values.get(labelText(labels))?.value ?? 0;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.values.values())
      lines.push(`${this.name}${labelText(labels)} ${number(value)}`);
    return lines.join('\n');
  }
}

/** A gauge read when scraped. */
export class Gauge implements Metric {
  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly read: () => number | Array<[Labels, number]>,
  ) {}

  render(): string {
    const value = this.read();
    const series = typeof value === 'number' ? [[{}, value] as [Labels, number]] : value;
    return [
      `# HELP ${this.name} ${this.help}`,
      `# TYPE ${this.name} gauge`,
      ...series.map(([labels, v]) => `${this.name}${labelText(labels)} ${number(v)}`),
    ].join('\n');
  }
}

export class Histogram implements Metric {
  private readonly counts: number[];
  private sum = 0;
  private count = 0;

  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly buckets: readonly number[],
  ) {
    this.counts = buckets.map(() => 0);
  }

  observe(value: number): void {
    this.sum += value;
    this.count++;
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) this.counts[i]!++;
  }

  get observations(): number {
    return this.count;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    this.buckets.forEach((le, i) => lines.push(`${this.name}_bucket{le="${number(le)}"} ${this.counts[i]}`));
    lines.push(`${this.name}_bucket{le="+Inf"} ${this.count}`);
    lines.push(`${this.name}_sum ${number(this.sum)}`, `${this.name}_count ${this.count}`);
    return lines.join('\n');
  }
}

export class Registry {
  private readonly metrics: Metric[] = [];

  add<M extends Metric>(metric: M): M {
    this.metrics.push(metric);
    return metric;
  }

  render(): string {
    return `${this.metrics.map((m) => m.render()).join('\n')}\n`;
  }
}

/** The shared agent's metrics. Gauges are wired by the agent once its parts exist. */
export class AgentMetrics {
  readonly registry = new Registry();
  readonly tasks = this.registry.add(
    new Counter(
      'shared_agent_tasks_total',
      'Task results by phase (each result written, requeued calls included).',
    ),
  );
  readonly taskToPatch = this.registry.add(
    new Histogram(
      'shared_agent_task_to_patch_seconds',
      'From a task first seen in its TaskSet to its result written to the status.',
      [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300],
    ),
  );
  readonly patchErrors = this.registry.add(
    new Counter(
      'shared_agent_patch_errors_total',
      'Failed TaskSet status patches, by whether they are retried.',
    ),
  );
  readonly stopCancels = this.registry.add(
    new Counter(
      'shared_agent_stop_cancels_total',
      'Tasks of stopped workflows whose remote work was cancelled (sent), or had none to cancel (none).',
    ),
  );
  readonly leaseChanges = this.registry.add(
    new Counter('shared_agent_lease_changes_total', 'Shard Leases acquired, released and lost.'),
  );

  gauge(name: string, help: string, read: () => number | Array<[Labels, number]>): void {
    this.registry.add(new Gauge(name, help, read));
  }
}
