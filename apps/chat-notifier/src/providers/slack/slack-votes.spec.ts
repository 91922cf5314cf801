import { slackUnescape } from './slack-votes.js';

describe('slackUnescape', () => {
  it("gives back what a person typed from Slack's escaped text", () => {
    expect(slackUnescape('risk &gt; gain &amp; QA &lt; 100%')).toBe('risk > gain & QA < 100%');
    // An escaped entity typed as text stays that text.
    expect(slackUnescape('write &amp;lt; for &lt;')).toBe('write &lt; for <');
  });
});
