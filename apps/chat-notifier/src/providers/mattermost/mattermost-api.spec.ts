import { StandInServer } from '@app/local-agent';
import { MattermostApi } from './mattermost-api.js';

describe('MattermostApi: post lists from the server', () => {
  const server = new StandInServer('mattermost').route('GET', '/api/v4/posts/root1/thread', () => ({
    body: {
      order: ['constructor', 'toString', '__proto__', 'p1'],
      posts: { p1: { id: 'p1', message: 'hello' } },
    },
  }));
  beforeAll(() => server.start());
  afterAll(() => server.close());

  it('an id in order that names an Object.prototype property, not a post, is no post', async () => {
    const api = new MattermostApi('default', { url: server.url, token: 'mm-token-0123456789' }, 1000);
    expect(await api.thread('root1')).toEqual([{ id: 'p1', message: 'hello' }]);
  });
});
