import { Transform } from 'class-transformer';

/** `"true"`/`"false"` (what `{{inputs.parameters.x}}` substitution produces) are accepted as booleans. */
export function BooleanLike(): PropertyDecorator {
  return Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value));
}

/** Numbers are accepted as text (`key: 3` → "3"), like Argo's AnyString. */
export function NumberAsText(): PropertyDecorator {
  return Transform(({ value }) =>
    typeof value === 'number' && Number.isFinite(value) ? String(value) : value,
  );
}
