// Where stand-ins listen: loopback, unless a test of the real Argo stack needs them reachable from its pods
// (they reach this machine at the stack's HOST_ADDR).
let host = '127.0.0.1';
let certificate: StandInCertificate | undefined;

/** PEM files of a certificate valid for the stand-in host, and of the CA a client trusts it through. */
export interface StandInCertificate {
  keyFile: string;
  certFile: string;
  caFile: string;
}

export function standInHost(): string {
  return host;
}

/**
 * The certificate stand-ins that speak TLS serve on the host `setStandInHost` set; undefined on loopback,
 * where each uses its own test certificate.
 */
export function standInCertificate(): StandInCertificate | undefined {
  return certificate;
}

/**
 * Every stand-in started from now on listens on `address` and puts it into its URL; those that speak TLS
 * serve `tls`, a certificate valid for that address (their own test certificates name only loopback).
 */
export function setStandInHost(address: string, tls?: StandInCertificate): void {
  host = address;
  certificate = tls;
}
