import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isInlineConfig, loadConfig } from './config-file.js';

describe('loadConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string): string => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it('reads the body from JSON or YAML', () => {
    expect(loadConfig(file('a.json', '{"text":"hi","n":1}'), 'slack')).toEqual({ text: 'hi', n: 1 });
    expect(loadConfig(file('a.yaml', 'text: hi\nchannel: "#ci"\n'), 'slack')).toEqual({
      text: 'hi',
      channel: '#ci',
    });
  });

  it('takes the body inline, as JSON or YAML', () => {
    expect(loadConfig('{"text": "hi", "n": 1}', 'slack')).toEqual({ text: 'hi', n: 1 });
    expect(loadConfig('text: hi', 'slack')).toEqual({ text: 'hi' });
    expect(loadConfig('slack:\n  text: hi\n', 'slack')).toEqual({ text: 'hi' });
    expect(loadConfig('{slack: {text: hi}}', 'slack')).toEqual({ text: 'hi' });
  });

  it('reads an existing file even when its name looks like a body; anything else is a file name', () => {
    expect(loadConfig(file('text: hi.json', '{"from":"file"}'), 'k')).toEqual({ from: 'file' });
    expect(isInlineConfig('body.yaml')).toBe(false);
    expect(isInlineConfig('./configs/slack.json')).toBe(false);
    expect(isInlineConfig('[1, 2]')).toBe(true);
  });

  it('unwraps the plugin map {<key>: body}', () => {
    expect(loadConfig(file('b.yaml', 'slack:\n  text: hi\n'), 'slack')).toEqual({ text: 'hi' });
    expect(loadConfig(file('c.yaml', 'other:\n  text: hi\n'), 'slack')).toEqual({ other: { text: 'hi' } });
  });

  it('names the file, or says inline, in one-line errors', () => {
    expect(() => loadConfig(file('bad.json', '{'), 'k')).toThrow(/^--config .*bad\.json: /);
    expect(() => loadConfig(join(dir, 'missing.yaml'), 'k')).toThrow(
      /^--config .*missing\.yaml: no such file$/,
    );
    expect(() => loadConfig(file('empty.yaml', ''), 'k')).toThrow(/empty/);
    expect(() => loadConfig('{"text": ', 'k')).toThrow(/^--config \(inline\): [^\n]+$/);
  });
});
