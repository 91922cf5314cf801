import { JSON_TEXT_LIMITS, JsonTextTooCostlyError, parseJsonText } from './json-text.js';

describe('parseJsonText', () => {
  it('parses what stays within the limits, and throws the SyntaxError of JSON.parse for invalid JSON', () => {
    const within = `[${Array.from({ length: JSON_TEXT_LIMITS.maxValues - 1 }, () => '{}').join(',')}]`;
    expect((parseJsonText(within) as unknown[]).length).toBe(JSON_TEXT_LIMITS.maxValues - 1);
    expect(() => parseJsonText('{oops')).toThrow(SyntaxError);
  });

  it('refuses a dense text before JSON.parse builds it: one value over, or one level too deep', () => {
    const dense = `[${Array.from({ length: JSON_TEXT_LIMITS.maxValues }, () => '{}').join(',')}]`;
    expect(() => parseJsonText(dense)).toThrow(new JsonTextTooCostlyError(JSON_TEXT_LIMITS, 'values'));
    expect(() => parseJsonText(dense)).toThrow(
      "is a JSON string that holds more than 20000 values (the most a field's JSON may build)",
    );
    const deep = '['.repeat(JSON_TEXT_LIMITS.maxDepth + 1) + ']'.repeat(JSON_TEXT_LIMITS.maxDepth + 1);
    expect(() => parseJsonText(deep)).toThrow('is nested deeper than 64 levels');
    const deepest = '['.repeat(JSON_TEXT_LIMITS.maxDepth) + ']'.repeat(JSON_TEXT_LIMITS.maxDepth);
    expect(() => parseJsonText(deepest)).not.toThrow();
  });
});
