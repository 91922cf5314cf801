import { missingSettings, urlSetting } from './settings-checks.js';

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
