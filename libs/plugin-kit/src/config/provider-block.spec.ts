import { PluginConfigError } from '../errors/upstream-error.js';
import { exactlyOneProviderBlock } from './provider-block.js';

const NAMES = ['jenkins', 'github', 'gitlab'] as const;

describe('exactly one provider block', () => {
  it('names the one present (null counts as absent)', () => {
    expect(exactlyOneProviderBlock({ github: {}, gitlab: null, timeout: '1h' }, NAMES)).toBe('github');
  });

  it('refuses none and several, naming the blocks allowed and found', () => {
    expect(() => exactlyOneProviderBlock({}, NAMES)).toThrow(
      new PluginConfigError(
        'body: exactly one provider block is required (jenkins, github, gitlab); got none',
      ),
    );
    expect(() => exactlyOneProviderBlock({ jenkins: {}, gitlab: {} }, NAMES)).toThrow(
      'body: exactly one provider block is required (jenkins, github, gitlab); got jenkins and gitlab',
    );
  });
});
