/**
 * A value of a Secret or settings ConfigMap under its 0.1.0 name, kept for one release: the manifest reads the
 * old object's key into `FORMER_<VARIABLE>` beside `<VARIABLE>` from the renamed object, and the sidecar uses
 * it only when `<VARIABLE>` is unset (and says so once in its log).
 */
export const FORMER_VALUE_PREFIX = 'FORMER_';
