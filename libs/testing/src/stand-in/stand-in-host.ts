// Where stand-ins listen: loopback, unless a test of the real Argo stack needs them reachable from its pods
// (they reach this machine at the stack's HOST_ADDR).
let host = '127.0.0.1';

export function standInHost(): string {
  return host;
}

/** Every stand-in started from now on listens on `address` and puts it into its URL. */
export function setStandInHost(address: string): void {
  host = address;
}
