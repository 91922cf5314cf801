import {
  BASE_URL,
  missingSettings,
  pairOrNone,
  readUpstreamSettings,
  requireSettings,
  upstreamUrl,
  urlSetting,
} from './settings-checks.js';

function check(value: string, options?: Parameters<typeof urlSetting>[3]) {
  const problems: string[] = [];
  return { url: urlSetting('X_URL', value, problems, options), problems };
}

describe('urlSetting', () => {
  it('gives an http(s) URL back without its trailing slashes', () => {
    expect(check('https://jenkins.example.com:8443/ci//')).toEqual({
      url: 'https://jenkins.example.com:8443/ci',
      problems: [],
    });
    expect(check('HTTP://livy:8998')).toEqual({ url: 'HTTP://livy:8998', problems: [] });
  });

  it('refuses what is not an absolute http(s) URL with a host, naming the variable, never the value', () => {
    for (const value of ['ftp://livy', 'livy:8998', 'http://', 'http://a b', 'https:/x'])
      expect({ value, ...check(value) }).toEqual({
        value,
        url: undefined,
        problems: ['X_URL: must be an http(s) URL'],
      });
  });

  it('adds the default scheme to a bare host', () => {
    expect(check('adb-1.azuredatabricks.net', { defaultScheme: 'https' }).url).toBe(
      'https://adb-1.azuredatabricks.net',
    );
    expect(check('http://adb', { defaultScheme: 'https' }).url).toBe('http://adb');
  });

  it('refuses credentials and a query or fragment when asked to', () => {
    expect(check('https://user:secret@livy', { noCredentials: true })).toEqual({
      url: undefined,
      problems: ['X_URL: must not carry credentials (use the *_USERNAME/*_PASSWORD/*_TOKEN variables)'],
    });
    expect(check('https://user:secret@livy').url).toBe('https://user:secret@livy');
    expect(check('https://airflow/?a=1', { noQuery: true }).problems).toEqual([
      'X_URL: must not have a query or fragment',
    ]);
    expect(check('https://airflow/#top', { noQuery: true }).problems).toHaveLength(1);
  });

  it('leaves a bad value of a variable the env class checks to the env class', () => {
    expect(check('ftp://jenkins', { checkedByEnvClass: true })).toEqual({ url: undefined, problems: [] });
  });
});

describe('missingSettings', () => {
  it('is nothing when none is set, else the ones not set', () => {
    expect(missingSettings({ URL: undefined, TOKEN: undefined }, ['URL', 'TOKEN'])).toEqual([]);
    expect(
      missingSettings({ URL: 'https://j', USER: undefined, TOKEN: undefined }, ['URL', 'USER', 'TOKEN']),
    ).toEqual(['USER', 'TOKEN']);
    expect(missingSettings({ URL: 'https://j', USER: 'u', TOKEN: 't' }, ['URL', 'USER', 'TOKEN'])).toEqual(
      [],
    );
    expect(missingSettings({ USERNAME: 'argo' }, ['URL'])).toEqual(['URL']);
  });
});

describe('readUpstreamSettings', () => {
  const family = { prefix: 'ALPHA', settings: ['URL', 'USER', 'PASSWORD'] };
  const read = (source: Record<string, string>) =>
    readUpstreamSettings(source, family, (upstream, problems) => {
      if (!requireSettings(upstream, ['URL'], problems)) return undefined;
      pairOrNone(upstream, 'USER', 'PASSWORD', problems);
      return upstreamUrl(upstream, 'URL', upstream.values.URL, problems, {
        ...BASE_URL,
        defaultScheme: 'https',
      });
    });

  it("makes each upstream's settings by name, the default one first, with every upstream's problems", () => {
    expect(
      read({ ALPHA_URL: 'a.example/', ALPHA_PROD_URL: 'https://p.example', ALPHA_PROD_USER: 'u' }),
    ).toEqual({
      settings: new Map([
        ['default', 'https://a.example'],
        ['prod', 'https://p.example'],
      ]),
      problems: ['ALPHA_PROD_PASSWORD: must be set together with ALPHA_PROD_USER'],
      formerNames: [],
    });
  });

  it('leaves out an upstream its reader refuses, naming the variables it lacks and the ones given', () => {
    expect(read({ ALPHA_QA_USER: 'u', ALPHA_QA_PASSWORD: 'p', ALPHA_bad_URL: 'x' })).toEqual({
      settings: new Map(),
      problems: [
        'ALPHA_bad_URL: the name in it must be upper-case letters and digits, words joined by single underscores (ALPHA_OPS_URL)',
        'ALPHA_QA_URL: must be set (ALPHA_QA_USER, ALPHA_QA_PASSWORD are set)',
      ],
      formerNames: [],
    });
  });
});

describe('upstreamUrl', () => {
  const upstream = (name: string) => ({ name, values: {}, variable: (s: string) => `ALPHA_${s}_${name}` });

  it("names the upstream's own variable; a base URL refuses credentials and a query", () => {
    const problems: string[] = [];
    expect(upstreamUrl(upstream('prod'), 'URL', 'https://u:p@a', problems, BASE_URL)).toBeUndefined();
    expect(upstreamUrl(upstream('prod'), 'URL', 'https://a?x=1', problems, BASE_URL)).toBeUndefined();
    expect(upstreamUrl(upstream('prod'), 'URL', undefined, problems)).toBeUndefined();
    expect(problems).toEqual([
      'ALPHA_URL_prod: must not carry credentials (use the *_USERNAME/*_PASSWORD/*_TOKEN variables)',
      'ALPHA_URL_prod: must not have a query or fragment',
    ]);
  });

  it("leaves the default upstream's bad value to the env class when it checks it, and only that one", () => {
    const problems: string[] = [];
    const options = { defaultCheckedByEnvClass: true };
    expect(upstreamUrl(upstream('default'), 'URL', 'ftp://a', problems, options)).toBeUndefined();
    expect(upstreamUrl(upstream('prod'), 'URL', 'ftp://a', problems, options)).toBeUndefined();
    expect(problems).toEqual(['ALPHA_URL_prod: must be an http(s) URL']);
  });
});
