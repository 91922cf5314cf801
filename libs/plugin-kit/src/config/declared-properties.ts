import { getMetadataStorage } from 'class-validator';
import type { ConfigClass } from '../execution/plugin-handler.js';

// A class's decorators all run when the class is defined, so its declared names never change afterwards; looking
// them up scans every validation rule ever registered, which start-up (the env scoping of a collection) and each
// config validation would otherwise repeat.
const declaredByClass = new WeakMap<ConfigClass, readonly string[]>();

/** Names of the properties a config class declares (for "did you mean" hints); one shared, frozen list per class. */
export function declaredProperties(cls: ConfigClass): readonly string[] {
  let names = declaredByClass.get(cls);
  if (names === undefined) {
    const metas = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
    names = Object.freeze([...new Set(metas.map((m) => m.propertyName))]);
    declaredByClass.set(cls, names);
  }
  return names;
}
