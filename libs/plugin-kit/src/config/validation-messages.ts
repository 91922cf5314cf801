/** What a check found at one path: class-validator's ValidationError, or the env rules' EnvProblem. */
export interface ProblemTree {
  property: string;
  constraints?: Record<string, string>;
  children?: ProblemTree[];
}

/** Flattens class-validator errors into `path: problem` strings (`file.filename: must be a string`). */
export function describeValidationErrors(
  errors: ProblemTree[],
  knownFields?: (path: string) => readonly string[],
): string[] {
  const out: string[] = [];
  const walk = (list: ProblemTree[], prefix: string): void => {
    for (const error of list) {
      const path = prefix
        ? /^\d+$/.test(error.property)
          ? `${prefix}[${error.property}]`
          : `${prefix}.${error.property}`
        : error.property;
      for (const [constraint, message] of Object.entries(error.constraints ?? {})) {
        out.push(`${path}: ${problemText(constraint, message, error.property, path, knownFields)}`);
      }
      if (error.children?.length) walk(error.children, path);
    }
  };
  walk(errors, '');
  return out;
}

function problemText(
  constraint: string,
  message: string,
  property: string,
  path: string,
  knownFields?: (path: string) => readonly string[],
): string {
  if (constraint === 'whitelistValidation') {
    const parent = path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '';
    const suggestion = closest(property, knownFields?.(parent) ?? []);
    return suggestion ? `unknown field (did you mean "${suggestion}"?)` : 'unknown field';
  }
  // class-validator messages start with the property name ("channel must be a string").
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}

/** The known field within edit distance 2 of `name`, if any. */
function closest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length];
}
