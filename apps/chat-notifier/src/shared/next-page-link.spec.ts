import { describe, expect, it } from '@jest/globals';
import { nextPageLink } from './next-page-link.js';

const base = 'https://acme.service-now.com';

describe('nextPageLink', () => {
  it('gives the path and query of rel="next" among the other links', () => {
    const link = `<${base}/api/now/table/x?sysparm_offset=0>;rel="first",<${base}/api/now/table/x?sysparm_offset=100>; rel="next"`;
    expect(nextPageLink('servicenow', '/api/now/table/x', base, link)).toBe(
      '/api/now/table/x?sysparm_offset=100',
    );
  });

  it('ends the list where there is no next link or no header', () => {
    expect(nextPageLink('github', '/repos', base, `<${base}/repos?page=1>; rel="prev"`)).toBeUndefined();
    expect(nextPageLink('github', '/repos', base, undefined)).toBeUndefined();
  });

  it('refuses a next link to another host, which would carry the credential there', () => {
    expect(() =>
      nextPageLink(
        'servicenow',
        '/api/now/table/x',
        base,
        '<https://acme.service-now.com.evil.example/x>; rel="next"',
      ),
    ).toThrow("servicenow: GET /api/now/table/x: the next page's link leaves https://acme.service-now.com");
  });
});
