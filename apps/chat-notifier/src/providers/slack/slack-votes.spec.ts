import { slackEscape, slackUnescape } from './slack-votes.js';

describe('slackUnescape', () => {
  it("gives back what a person typed from Slack's escaped text", () => {
    expect(slackUnescape('risk &gt; gain &amp; QA &lt; 100%')).toBe('risk > gain & QA < 100%');
    // An escaped entity typed as text stays that text.
    expect(slackUnescape('write &amp;lt; for &lt;')).toBe('write &lt; for <');
  });
});

describe('slackEscape', () => {
  it('writes data so Slack shows it as written, and slackUnescape gives it back', () => {
    const comment = '<!channel> & <https://evil|click> &lt;';
    expect(slackEscape(comment)).toBe('&lt;!channel&gt; &amp; &lt;https://evil|click&gt; &amp;lt;');
    expect(slackUnescape(slackEscape(comment))).toBe(comment);
  });
});
