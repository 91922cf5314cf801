import { keepsCredentials } from './go-http-client.js';

describe("keepsCredentials: Go's rule for Authorization on a redirect", () => {
  it.each([
    ['http://127.0.0.1:4355/a', 'http://127.0.0.1:4356/b', true], // another port, same host name
    ['http://plugin.local/a', 'http://api.plugin.local/b', true], // a subdomain
    ['http://plugin.local/a', 'http://other.local/b', false],
    ['http://api.plugin.local/a', 'http://plugin.local/b', false], // the parent domain
    ['http://127.0.0.1/a', 'http://localhost/b', false],
  ])('%s → %s keeps it: %p', (from, to, kept) => {
    expect(keepsCredentials(new URL(from), new URL(to))).toBe(kept);
  });
});
