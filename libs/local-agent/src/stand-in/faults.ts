import { seededRandom } from './seeded-random.js';
import type { HostileReply } from './hostile-replies.js';
import type { StandInRequest } from './stand-in-request.js';

/** What a stand-in does instead of answering normally. */
export type Fault =
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | {
      kind: 'rate-limit';
      retryAfterSeconds: number;
      status?: number;
      body?: unknown;
      headers?: Record<string, string>;
    }
  | { kind: 'reset' } // destroy the connection without a reply
  | { kind: 'hang' } // never answer (the client's timeout must fire)
  | { kind: 'delay'; ms: number } // answer normally, but late
  | HostileReply; // echo the credentials, a huge body, a trickle, a redirect elsewhere

export interface ScriptedFault {
  fault: Fault;
  /** How many matching requests get this fault (default 1). */
  times?: number;
  /** Which requests it applies to (default: all). */
  match?: (req: StandInRequest) => boolean;
}

export interface RandomFaults {
  seed: number;
  /** Probability (0..1) that a matching request gets a fault. */
  rate: number;
  /** Faults to draw from, uniformly. */
  faults: Fault[];
  match?: (req: StandInRequest) => boolean;
}

/** Decides, per request, whether a fault is injected: scripted faults first, then seeded random ones. */
export class FaultPlan {
  private readonly scripted: Array<
    Required<Pick<ScriptedFault, 'fault'>> & ScriptedFault & { left: number }
  > = [];
  private random?: RandomFaults & { next: () => number };
  injected = 0;

  /** Queue `fault` for the next `times` matching requests. */
  add(fault: Fault, options: Omit<ScriptedFault, 'fault'> = {}): this {
    this.scripted.push({ fault, ...options, left: options.times ?? 1 });
    return this;
  }

  /** Inject faults at random (repeatably, from the seed). */
  randomly(plan: RandomFaults): this {
    this.random = { ...plan, next: seededRandom(plan.seed) };
    return this;
  }

  clear(): void {
    this.scripted.length = 0;
    this.random = undefined;
  }

  take(req: StandInRequest): Fault | undefined {
    const index = this.scripted.findIndex((s) => s.left > 0 && (!s.match || s.match(req)));
    if (index >= 0) {
      const entry = this.scripted[index];
      entry.left--;
      if (entry.left === 0) this.scripted.splice(index, 1);
      this.injected++;
      return entry.fault;
    }
    const random = this.random;
    if (random && (!random.match || random.match(req)) && random.next() < random.rate) {
      this.injected++;
      return random.faults[Math.floor(random.next() * random.faults.length)];
    }
    return undefined;
  }
}
