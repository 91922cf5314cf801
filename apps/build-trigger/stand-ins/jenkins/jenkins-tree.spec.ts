import { applyTree, filterTree, parseTree } from './jenkins-tree.js';

describe("Jenkins' tree filter", () => {
  const job = {
    _class: 'hudson.model.FreeStyleProject',
    url: 'u',
    name: 'app',
    property: [
      { _class: 'P', parameterDefinitions: [{ _class: 'D', name: 'A', type: 'String' }] },
      { _class: 'Q' },
    ],
    builds: [1, 2, 3].map((n) => ({
      _class: 'B',
      number: n,
      url: `u${n}`,
      result: 'SUCCESS',
      actions: [{ _class: 'C' }, { _class: 'PA', parameters: [{ name: 'A', value: 'x' }] }],
    })),
  };

  it('keeps only the named fields (and _class), sliced by {m,n}', () => {
    expect(
      filterTree(
        job,
        'url,property[parameterDefinitions[name]],builds[number,actions[parameters[name,value]]]{0,2}',
      ),
    ).toEqual({
      _class: 'hudson.model.FreeStyleProject',
      url: 'u',
      property: [{ _class: 'P', parameterDefinitions: [{ _class: 'D', name: 'A' }] }, { _class: 'Q' }],
      builds: [1, 2].map((n) => ({
        _class: 'B',
        number: n,
        actions: [{ _class: 'C' }, { _class: 'PA', parameters: [{ name: 'A', value: 'x' }] }],
      })),
    });
  });

  it('supports {n} and {m,} ranges and leaves the object alone without a tree', () => {
    expect(applyTree(job, parseTree('builds[number]{1}'))).toEqual({
      _class: job._class,
      builds: [{ _class: 'B', number: 2 }],
    });
    expect(applyTree(job, parseTree('builds[number]{1,}'))).toEqual({
      _class: job._class,
      builds: [
        { _class: 'B', number: 2 },
        { _class: 'B', number: 3 },
      ],
    });
    expect(filterTree(job, null)).toBe(job);
  });

  it('selects own fields only: a tree naming constructor or toString selects nothing', () => {
    expect(applyTree({ _class: 'J', name: 'x' }, parseTree('constructor,toString,name'))).toEqual({
      _class: 'J',
      name: 'x',
    });
  });

  it('rejects a malformed tree', () => {
    expect(() => parseTree('builds[number')).toThrow(/missing \]/);
  });
});
