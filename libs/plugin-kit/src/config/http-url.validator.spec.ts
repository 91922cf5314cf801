import { httpUrlProblem } from './http-url.validator.js';

describe('httpUrlProblem', () => {
  it.each([
    'https://slack.com/api/',
    'http://jenkins:8080',
    'http://127.0.0.1:4010/api/',
    'https://events.eu.pagerduty.com',
    'https://smba.trafficmanager.net/emea/',
    'http://[::1]:8080/',
  ])('accepts %s', (url) => expect(httpUrlProblem(url)).toBeUndefined());

  it.each([
    'slack.com/api/',
    'ftp://files.example.com/',
    'https://',
    'https:// example.com',
    'https://example.com/a b',
    'javascript:alert(1)',
    '',
    42,
    undefined,
  ])('refuses %p', (url) => expect(httpUrlProblem(url)).toBe('must be an http(s) URL'));
});
