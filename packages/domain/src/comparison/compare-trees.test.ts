import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  buildComparisonRows,
  evaluateCompliance,
  comparePolicy,
  policyPasses,
} from './compare-trees';
import { diffDocuments, arrayMatchKey, leafEqual } from './diff-documents';
import { createPropertyFilter } from './exclusions';
import {
  isComparableFile,
  isExcludedPath,
  normaliseExcludedPath,
  isPrerequisitePath,
  toResourcePath,
} from './paths';

const diff = (a: unknown, b: unknown, excluded: string[] = []) => {
  const out: { path: string; kind: string }[] = [];
  diffDocuments(a, b, { filter: createPropertyFilter(excluded), emitEqual: false }, (path, kind) =>
    out.push({ path, kind }),
  );
  return out;
};

describe('the .json-only rule and excluded folders', () => {
  it('compares only .json files', () => {
    expect(isComparableFile('AzureAD/X/a.json')).toBe(true);
    expect(isComparableFile('AzureAD/X/a.JSON')).toBe(true);
    expect(isComparableFile('AzureAD/X/a.yml')).toBe(false);
  });
  it('excludes Descriptions, Office365, PowerPlatform and SecurityCompliance', () => {
    for (const f of ['Descriptions', 'Office365', 'PowerPlatform', 'SecurityCompliance'])
      expect(isComparableFile(`${f}/X/a.json`)).toBe(false);
  });
  it('normalises resource paths from any root', () => {
    expect(toResourcePath('/Clients/ABC/M365Config/Resources/AzureAD/a.json')).toBe(
      'AzureAD/a.json',
    );
    expect(toResourcePath('M365Config\\Resources\\Intune\\a.json')).toBe('Intune/a.json');
  });
});

describe('excluded paths: leading slash, no trailing slash, lower case, prefix', () => {
  it('normalises', () => {
    expect(normaliseExcludedPath('Planner/')).toBe('/planner');
    expect(normaliseExcludedPath('/Intune/Apps/')).toBe('/intune/apps');
  });
  it('matches by prefix', () => {
    expect(isExcludedPath('Planner/Plans/a.json', ['/planner'])).toBe(true);
    expect(isExcludedPath('Intune/Apps/a.json', ['/intune/apps'])).toBe(true);
    expect(isExcludedPath('Intune/Compliance/a.json', ['/intune/apps'])).toBe(false);
  });
});

describe('excluded properties', () => {
  it('match case-insensitively by exact name', () => {
    expect(diff({ Foo: 1 }, { Foo: 2 }, ['foo'])).toEqual([]);
  });
  it('match by suffix after a dot', () => {
    expect(diff({ a: { b: { c: 1 } } }, { a: { b: { c: 2 } } }, ['b.c'])).toEqual([]);
  });
  it('match with array selectors removed', () => {
    const a = { Values: [{ Name: 'X', Value: '1' }] };
    const b = { Values: [{ Name: 'X', Value: '2' }] };
    expect(diff(a, b, ['Values.Value'])).toEqual([]);
    expect(diff(a, b)).toEqual([{ path: 'Values[Name=X].Value', kind: 'modified' }]);
  });
  it('ignore volatile fields by default (ids, timestamps, odata, regions)', () => {
    const a = {
      id: '1',
      createdDateTime: 'x',
      '@odata.context': 'a',
      'state@odata.type': 'a',
      DefaultMailboxRegion: 'EUR',
      Guid: 'g',
    };
    const b = {
      id: '2',
      createdDateTime: 'y',
      '@odata.context': 'b',
      'state@odata.type': 'b',
      DefaultMailboxRegion: 'NAM',
      Guid: 'h',
    };
    expect(diff(a, b)).toEqual([]);
  });
  it('merges custom exclusions with the defaults', () => {
    expect(diff({ id: 1, x: 1 }, { id: 2, x: 2 }, ['x'])).toEqual([]);
  });
});

describe("'true'/'false' compare case-insensitively as booleans", () => {
  it("'true' vs 'True' vs true", () => {
    expect(leafEqual('true', 'True')).toBe(true);
    expect(leafEqual('False', false)).toBe(true);
    expect(leafEqual('true', false)).toBe(false);
    expect(leafEqual('yes', true)).toBe(false);
  });
});

describe('array item matching', () => {
  it('uses the first unique key', () => {
    expect(arrayMatchKey('x', [{ id: 1, name: 'a' }], [{ id: 2, name: 'a' }])).toBe('id');
    expect(arrayMatchKey('x', [{ id: 1 }, { id: 1 }], [{ id: 1 }])).toBeUndefined();
    expect(
      arrayMatchKey(
        'x',
        [
          { name: 'a', RuleId: 1 },
          { name: 'a', RuleId: 2 },
        ],
        [],
      ),
    ).toBe('RuleId');
  });
  it('uses only targetType, name, displayName or @odata.type for include/exclude targets', () => {
    expect(
      arrayMatchKey(
        'includeTargets',
        [{ id: 'a', targetType: 'group' }],
        [{ id: 'b', targetType: 'group' }],
      ),
    ).toBe('targetType');
  });
  it('falls back to position', () => {
    expect(diff([1, 2], [2, 1]).length).toBe(2);
  });
  it('removed items are medium, added items low', () => {
    const g = comparePolicy(
      { path: 'A/B/p.json', content: { list: [{ Name: 'a' }, { Name: 'b' }] } },
      { path: 'A/B/p.json', content: { list: [{ Name: 'a' }, { Name: 'c' }] } },
    );
    expect(g?.deviations.map((d) => [d.property, d.severity])).toEqual([
      ['list[Name=b]', 'medium'],
      ['list[Name=c]', 'low'],
    ]);
  });
});

describe('compliance model', () => {
  const baseline = [
    {
      path: 'M365Config/Resources/AzureAD/AuthorizationPolicy/a.json',
      content: { displayName: 'A', allowInvitesFrom: 'none' },
    },
    { path: 'M365Config/Resources/AzureAD/Groups/g.json', content: { displayName: 'G' } },
    { path: 'M365Config/Resources/Intune/X/missing.json', content: { displayName: 'M' } },
    { path: 'M365Config/Resources/Intune/X/ok.json', content: { displayName: 'OK', v: 1 } },
    { path: 'M365Config/Resources/Office365/X/ignored.json', content: { a: 1 } },
  ];
  const client = [
    {
      path: 'Clients/ABC/M365Config/Resources/AzureAD/AuthorizationPolicy/a.json',
      content: { displayName: 'A', allowInvitesFrom: 'everyone' },
    },
    {
      path: 'Clients/ABC/M365Config/Resources/Intune/X/ok.json',
      content: { displayName: 'OK', v: 1 },
    },
    { path: 'Clients/ABC/M365Config/Resources/Intune/X/extra.json', content: { displayName: 'E' } },
  ];
  const data = evaluateCompliance(baseline, client);
  it('counts totals, compliant, missing, prerequisites', () => {
    expect(data.totalCount).toBe(4);
    expect(data.compliantCount).toBe(1);
    expect(data.deviationCount).toBe(3);
    expect(data.prerequisiteCount).toBe(1);
    expect(data.missingPoliciesCount).toBe(1);
    expect(data.criticalCount).toBe(1);
    expect(data.lowCount).toBe(1);
    expect(data.compliancePercentage).toBe(33);
  });
  it('missing policies are critical, or prerequisite in prerequisite folders', () => {
    const m = data.deviations.find((d) => d.policyName === 'M');
    expect(m?.changeType).toBe('missing');
    expect(m?.highestSeverity).toBe('critical');
    expect(data.deviations.find((d) => d.policyName === 'G')?.highestSeverity).toBe('prerequisite');
    expect(isPrerequisitePath('AzureMaintenance/MaintenanceConfigurations/x.json')).toBe(true);
    expect(isPrerequisitePath('Groups.json')).toBe(false);
  });
  it('lists client-only policies', () => {
    expect(data.clientOnlyPolicies.map((p) => p.policyName)).toEqual(['E']);
  });
  it('an invalid JSON file yields a zero-deviation entry named Error', () => {
    const d = evaluateCompliance(
      [{ path: 'A/x/p.json', content: { a: 1 } }],
      [{ path: 'A/x/p.json', content: null }],
    );
    expect(d.deviations[0]?.policyName).toBe('Error');
    expect(d.deviations[0]?.deviationCount).toBe(0);
  });
  it('reports real progress up to 100', () => {
    const seen: number[] = [];
    evaluateCompliance(baseline, client, { onProgress: (p) => seen.push(p) });
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(100);
  });
});

describe('comparison rows model', () => {
  it('groups category → policy → rows; a policy passes only when every row is equal', () => {
    const rows = buildComparisonRows(
      [{ path: 'AzureAD/K/p.json', content: { a: 'true', b: 1 } }],
      [{ path: 'AzureAD/K/p.json', content: { a: 'True', b: 2 } }],
    );
    const p = rows.AzureAD?.p ?? [];
    expect(p).toEqual([
      {
        Path: 'a',
        RefValue: 'true',
        DiffValue: 'True',
        Equal: true,
        Description: 'Matches baseline',
      },
      { Path: 'b', RefValue: 1, DiffValue: 2, Equal: false, Description: 'Differs from baseline' },
    ]);
    expect(policyPasses(p)).toBe(false);
  });
  it("shows an absent client value as 'Missing'", () => {
    const rows = buildComparisonRows([{ path: 'A/K/p.json', content: { a: 1 } }], []);
    expect(rows.A?.p?.[0]?.DiffValue).toBe('Missing');
  });
});

describe('properties of the engine', () => {
  it('comparing a document with itself yields no deviation', () => {
    expect(() =>
      fc.assert(
        fc.property(
          fc.jsonValue(),
          (v) => diff(v, JSON.parse(JSON.stringify(v)) as unknown).length === 0,
        ),
      ),
    ).not.toThrow();
  });
  it('arbitrary JSON never throws', () => {
    expect(() =>
      fc.assert(
        fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
          diff(a, b);
          comparePolicy({ path: 'A/B/c.json', content: a }, { path: 'A/B/c.json', content: b });
        }),
      ),
    ).not.toThrow();
  });
  it('reordering a keyed array changes nothing', () => {
    const item = fc.record({ Name: fc.string(), Value: fc.jsonValue() });
    expect(() =>
      fc.assert(
        fc.property(fc.uniqueArray(item, { selector: (i) => i.Name }), (items) => {
          const shuffled = [...items].reverse();
          return diff({ Values: items }, { Values: shuffled }).length === 0;
        }),
      ),
    ).not.toThrow();
  });
  it('adding an excluded property changes nothing', () => {
    expect(() =>
      fc.assert(
        fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue(), (doc, v) => {
          const before = diff(doc, {});
          const after = diff({ ...doc, lastModifiedDateTime: v }, { lastModifiedDateTime: 'x' });
          return JSON.stringify(before) === JSON.stringify(after);
        }),
      ),
    ).not.toThrow();
  });
});
