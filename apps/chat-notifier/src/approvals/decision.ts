// A gate's decision: what approval-gate.ts answers once it fell, and concluded-decision.ts reads back.

/** The answer a decider gave: their vote, when (ms since the epoch, 0 when the provider gives no time), why. */
export interface DeciderAnswer {
  user: string;
  vote: 'approve' | 'reject';
  at: number;
  comment?: string;
}

export type DecisionName =
  'approved' | 'rejected' | 'timeout' | 'deleted' | 'tampered' | 'cancelled' | 'creator-unknown';

/** The decision as it is answered on every call after it fell. */
export interface Decision {
  decision: DecisionName;
  succeeded: boolean;
  /** Who decided (user ids); none for a timeout, a deleted or a tampered request. */
  approvers: string[];
  decidedAt: string;
  url: string;
  message: string;
  /** Each decider's answer, in the order of `approvers`: a timeout or a gone request has none. */
  answers?: DeciderAnswer[];
  /** With rules: who approved under each rule, in the rules' order. */
  byRule?: string[][];
  /** The line the request is concluded with ("Approved by <@U…> at …"); none when the request is gone. */
  conclusion?: string;
}
