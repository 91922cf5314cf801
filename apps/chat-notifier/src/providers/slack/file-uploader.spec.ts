import { uploadHostProblem } from './file-uploader.js';

describe('uploadHostProblem: the file goes only to Slack or the configured API host', () => {
  const api = 'https://slack.com';

  it.each(['https://files.slack.com/upload/v1/CwABAAAAXAoAAZ', 'https://slack.com/upload/v1/abc'])(
    'follows %s',
    (url) => {
      expect(uploadHostProblem(url, api)).toBeUndefined();
    },
  );

  it('follows the origin of a configured SLACK_API_URL (a proxy or a stand-in)', () => {
    expect(uploadHostProblem('http://127.0.0.1:4100/upload/v1/x', 'http://127.0.0.1:4100')).toBeUndefined();
  });

  it.each([
    ['http://files.slack.com/upload/v1/x', 'http://files.slack.com'],
    ['https://files.slack.com:8443/upload/v1/x', 'https://files.slack.com:8443'],
    ['https://files.slack.com.evil.example/upload', 'https://files.slack.com.evil.example'],
    ['https://evil.example/upload?token=x', 'https://evil.example'],
    ['http://127.0.0.1:4101/upload/v1/x', 'http://127.0.0.1:4101'],
  ])('refuses %s, naming only its origin', (url, origin) => {
    const problem = uploadHostProblem(url, 'http://127.0.0.1:4100');
    expect(problem).toBe(
      `the upload URL points to ${origin}, which is neither Slack's upload host (files.slack.com) nor the host of SLACK_API_URL; the file was not sent`,
    );
  });

  it('refuses what is not a URL', () => {
    expect(uploadHostProblem('not a url', api)).toBe('the upload URL is not a URL; the file was not sent');
  });
});
