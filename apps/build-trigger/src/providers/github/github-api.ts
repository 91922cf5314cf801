/** The parts of the GitHub Actions REST API the plugin reads. */

export interface WorkflowRun {
  id: number;
  name?: string;
  display_title?: string;
  /** requested, queued, pending, waiting, in_progress, completed */
  status: string | null;
  /** null until completed; success, failure, neutral, cancelled, skipped, timed_out, action_required, stale, startup_failure */
  conclusion: string | null;
  html_url: string;
  run_number?: number;
  run_attempt?: number;
  event?: string;
  head_branch?: string | null;
  created_at?: string;
  run_started_at?: string;
  updated_at?: string;
}

export interface WorkflowRunList {
  total_count: number;
  workflow_runs: WorkflowRun[];
}

/** 200 reply of a dispatch with `return_run_details: true`. */
export interface DispatchDetails {
  workflow_run_id: number;
  run_url: string;
  html_url: string;
}

/** `refs/heads/main` → `main` (the runs list filters by branch or tag name). */
export function branchName(ref: string): string {
  return ref.replace(/^refs\/(heads|tags)\//, '');
}
