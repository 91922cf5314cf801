/**
 * A stand-in's scripted approver: what people do to an approval request once it has been read a number of
 * times (react, reply, withdraw, delete, edit), so a test or the demo sees the gate poll a few times before an
 * answer arrives. The stand-in counts a read each time the request itself is fetched (the first call of a read).
 */
export class ApprovalScript {
  private readonly reads = new Map<string, number>();
  private readonly steps: Array<{ after: number; request?: string; action: (request: string) => void }> = [];
  private readonly everyRequest: Array<{ at: number; action: (request: string) => void }> = [];

  /** Once a request (this one, or any) has been read `reads` times, `action` runs with its id, once. */
  after(reads: number, action: (request: string) => void, request?: string): this {
    this.steps.push({ after: reads, request, action });
    return this;
  }

  /** Each request, at its `reads`-th read, gets `action` (the demo's approver answers every request). */
  each(reads: number, action: (request: string) => void): this {
    this.everyRequest.push({ at: reads, action });
    return this;
  }

  /** Counts a read of `request` and runs the steps now due, before the stand-in answers it. */
  read(request: string): void {
    const n = (this.reads.get(request) ?? 0) + 1;
    this.reads.set(request, n);
    for (const step of [...this.steps]) {
      if (n < step.after || (step.request !== undefined && step.request !== request)) continue;
      this.steps.splice(this.steps.indexOf(step), 1);
      step.action(request);
    }
    for (const step of this.everyRequest) if (n === step.at) step.action(request);
  }

  /** How often `request` was read. */
  readsOf(request: string): number {
    return this.reads.get(request) ?? 0;
  }
}
