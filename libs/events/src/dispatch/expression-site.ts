// The expressions of a binding as Argo's dispatch evaluates them, and the words it wraps their errors in.

/** One expression of a binding: its stage, what Argo calls it in messages, and its text. */
export interface ExpressionSite {
  stage: 'selector' | 'metadata' | 'parameter';
  /** `selector`, `name`, `generateName`, `label "k"`, `annotation "k"` or `parameter p`. */
  what: string;
  source: string;
  /** The parameter's name, for a parameter. */
  parameter?: string;
}

export function parameterSite(name: string, source: string): ExpressionSite {
  return { stage: 'parameter', what: `parameter ${name}`, source, parameter: name };
}

/** Argo's message for an expression that does not compile (`message`: expr's error with its location). */
export function compileFailure(site: ExpressionSite, message: string): string {
  switch (site.stage) {
    case 'selector':
      return `failed to evaluate workflow template expression: ${message}`;
    case 'metadata':
      return `failed to evaluate workflow ${site.what} expression: ${message}`;
    case 'parameter':
      return `failed to compile workflow template parameter ${site.parameter} expression: ${message}`;
  }
}

/** Argo's message for an expression that fails while it runs. */
export function runFailure(site: ExpressionSite, message: string): string {
  switch (site.stage) {
    case 'selector':
      return `failed to evaluate workflow template expression: unable to evaluate expression '${site.source}': ${message}`;
    case 'metadata':
      return `failed to evaluate workflow ${site.what} expression: ${message}`;
    case 'parameter':
      return `failed to evaluate workflow template parameter "${site.parameter}" expression: ${message}`;
  }
}
