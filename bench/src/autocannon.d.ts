// The part of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }
  interface RequestSpec extends RawRequest {
    setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest;
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: RequestSpec[];
    excludeErrorStats?: boolean;
  }
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
    p99_9: number;
  }
  interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    latency: Histogram;
    requests: Histogram;
  }
  interface Instance extends PromiseLike<Result> {
    stop(): void;
  }
  function autocannon(options: Options): Instance;
  export default autocannon;
}
