import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { evaluateCompliance } from '../comparison';
import { InputError } from '../errors';

import {
  droppedLayerPolicies,
  effectiveBaseline,
  layerNameProblem,
  missingParametersMessage,
  parameterNameProblem,
  parameterToken,
  parameteriseDocument,
  parametersUsed,
  parseClientLayers,
  parseTenantParameters,
  substituteParameters,
} from '.';

const GROUP_A = '5b0c7c1e-1f4e-4d8e-9a51-0f5a3d1c2b01';
const GROUP_B = 'a7d3e2f0-44c1-4b7e-8f0e-2c9d1b6e7a02';

const caPolicy = {
  displayName: 'Baseline - Require MFA',
  state: 'enabled',
  conditions: {
    users: { includeUsers: ['All'], excludeGroups: [parameterToken('breakGlassGroupId')] },
  },
};

describe('parameter tokens', () => {
  it('reads {{aegis:param:NAME}}', () => {
    expect(parameterToken('breakGlassGroupId')).toBe('{{aegis:param:breakGlassGroupId}}');
    expect(parametersUsed(caPolicy)).toEqual(['breakGlassGroupId']);
  });

  it('names parameters by a letter, then letters, digits and _', () => {
    expect(parameterNameProblem('breakGlassGroupId')).toBeUndefined();
    expect(parameterNameProblem('tenant_domain2')).toBeUndefined();
    expect(parameterNameProblem('2fa')).toBeDefined();
    expect(parameterNameProblem('a-b')).toBeDefined();
    expect(parameterNameProblem('')).toBeDefined();
  });

  it('never finds a token in values tenants hold: GUIDs, OData, Intune variables, ARM expressions', () => {
    const realValues = [
      GROUP_A,
      "startswith(displayName,'SG-')",
      '#microsoft.graph.conditionalAccessPolicy',
      '{{AAD_Device_ID}}',
      '{{UserPrincipalName}}',
      "[parameters('effect')]",
      '{"a":"{b}"}',
      '{{aegis:param:}}',
      '{{ aegis:param:x }}',
    ];
    for (const value of realValues) {
      expect(parametersUsed({ value })).toEqual([]);
      expect(substituteParameters({ value }, { x: 'y' }).content).toEqual({ value });
    }
  });

  it('leaves any document without a token unchanged (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (doc) => {
        const json = JSON.stringify(doc);
        fc.pre(!json.includes('{{aegis:param:'));
        const out = substituteParameters(doc, { a: 'x', b: true });
        expect(out.missing).toEqual([]);
        expect(JSON.stringify(out.content)).toBe(json);
      }),
    );
  });
});

describe('substituteParameters', () => {
  it("puts each tenant's own value where the baseline names the parameter", () => {
    const a = substituteParameters(caPolicy, { breakGlassGroupId: GROUP_A });
    const b = substituteParameters(caPolicy, { breakGlassGroupId: GROUP_B });
    expect(a.missing).toEqual([]);
    expect(a.content).toEqual({
      ...caPolicy,
      conditions: { users: { includeUsers: ['All'], excludeGroups: [GROUP_A] } },
    });
    expect((b.content as typeof caPolicy).conditions.users.excludeGroups).toEqual([GROUP_B]);
  });

  it('keeps the type of a whole-value parameter and the text inside a longer string', () => {
    const doc = {
      enabled: parameterToken('hasP2'),
      retention: parameterToken('days'),
      upn: `breakglass@${parameterToken('domain')}`,
    };
    const out = substituteParameters(doc, {
      hasP2: false,
      days: 30,
      domain: 'abc.onmicrosoft.com',
    });
    expect(out.content).toEqual({
      enabled: false,
      retention: 30,
      upn: 'breakglass@abc.onmicrosoft.com',
    });
  });

  it('names each missing parameter once and leaves its token in place', () => {
    const doc = { a: parameterToken('x'), b: [parameterToken('x'), `id ${parameterToken('y')}`] };
    const out = substituteParameters(doc, { z: '1' });
    expect(out.missing).toEqual(['x', 'y']);
    expect(out.content).toEqual(doc);
  });

  it('never substitutes into property names, nor from inherited properties', () => {
    const key = parameterToken('toString');
    const out = substituteParameters({ [key]: parameterToken('toString') }, {});
    expect(out.content).toEqual({ [key]: key });
    expect(out.missing).toEqual(['toString']);
  });
});

describe('parseTenantParameters', () => {
  it('reads the parameters file', () => {
    expect(
      parseTenantParameters({ parameters: { breakGlassGroupId: GROUP_A, hasP2: true } }),
    ).toEqual({
      breakGlassGroupId: GROUP_A,
      hasP2: true,
    });
    expect(parseTenantParameters(undefined)).toEqual({});
  });

  it('refuses a bad name or value, naming it', () => {
    expect(() => parseTenantParameters({ parameters: { 'bad name': 'x' } })).toThrow(/bad name/);
    const error = (() => {
      try {
        parseTenantParameters({ parameters: { groupIds: ['x'] } });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe('parameters.groupIds');
  });
});

describe('parameteriseDocument (promotion into the baseline)', () => {
  it("replaces the tenant's values by the names of the parameters it recognises", () => {
    const captured = {
      displayName: 'Require MFA',
      conditions: { users: { excludeGroups: [GROUP_A.toUpperCase()], includeUsers: ['All'] } },
      note: `group ${GROUP_A}`,
    };
    const out = parameteriseDocument(captured, {
      breakGlassGroupId: GROUP_A,
      hasP2: true,
      short: 'On',
    });
    expect(out.recognised).toEqual(['breakGlassGroupId']);
    expect(out.substitutions).toEqual([
      {
        path: 'conditions.users.excludeGroups[0]',
        value: GROUP_A.toUpperCase(),
        name: 'breakGlassGroupId',
      },
    ]);
    expect(out.content).toEqual({
      displayName: 'Require MFA',
      conditions: {
        users: { excludeGroups: [parameterToken('breakGlassGroupId')], includeUsers: ['All'] },
      },
      // only whole values: a GUID inside a sentence is left
      note: `group ${GROUP_A}`,
    });
  });

  it('round-trips: substituting the promoted policy gives the captured one back', () => {
    const captured = { excludeGroups: [GROUP_B], domain: 'xyz.onmicrosoft.com', on: true };
    const parameters = { breakGlassGroupId: GROUP_B, domain: 'xyz.onmicrosoft.com' };
    const promoted = parameteriseDocument(captured, parameters);
    expect(substituteParameters(promoted.content, parameters).content).toEqual(captured);
  });
});

describe('layers', () => {
  it('reads the layers file in order and refuses bad or repeated names', () => {
    expect(parseClientLayers({ layers: ['Healthcare', 'Kiosk devices'] })).toEqual([
      'Healthcare',
      'Kiosk devices',
    ]);
    expect(parseClientLayers(null)).toEqual([]);
    expect(() => parseClientLayers({ layers: ['Healthcare', 'healthcare'] })).toThrow(/twice/);
    expect(() => parseClientLayers({ layers: ['../x'] })).toThrow(InputError);
    expect(layerNameProblem(' Kiosk')).toBeDefined();
    expect(layerNameProblem('K')).toBeUndefined();
  });

  const company = [
    {
      path: 'M365Config/Resources/Intune/DeviceCompliancePolicy/Windows.json',
      content: { passwordMinimumLength: 8, osMinimumVersion: '10.0' },
    },
    { path: 'M365Config/Resources/ConditionalAccess/Policy/Require MFA.json', content: caPolicy },
  ];
  const healthcare = {
    name: 'Healthcare',
    files: [
      {
        path: 'Intune/DeviceCompliancePolicy/windows.json',
        content: { passwordMinimumLength: 14 },
      },
      { path: 'Intune/DeviceConfiguration/Kiosk.json', content: { kioskMode: 'single' } },
    ],
  };
  const kiosk = {
    name: 'Kiosk devices',
    files: [{ path: 'Intune/DeviceConfiguration/Kiosk.json', content: { kioskMode: 'multi' } }],
  };

  it('company, then each layer in order: a layer replaces a policy whole and adds new ones', () => {
    const effective = effectiveBaseline(company, [healthcare, kiosk], {
      breakGlassGroupId: GROUP_A,
    });
    expect(effective.missing).toEqual([]);
    expect(effective.files.map((f) => f.path)).toEqual([
      'Intune/DeviceCompliancePolicy/windows.json',
      'ConditionalAccess/Policy/Require MFA.json',
      'Intune/DeviceConfiguration/Kiosk.json',
    ]);
    const byPath = [...effective.files].sort((a, b) => a.path.localeCompare(b.path));
    expect(byPath.map((f) => [f.path, f.layer, f.content])).toEqual([
      [
        'ConditionalAccess/Policy/Require MFA.json',
        undefined,
        substituteParameters(caPolicy, { breakGlassGroupId: GROUP_A }).content,
      ],
      // whole-policy override: the company's osMinimumVersion does not survive
      ['Intune/DeviceCompliancePolicy/windows.json', 'Healthcare', { passwordMinimumLength: 14 }],
      ['Intune/DeviceConfiguration/Kiosk.json', 'Kiosk devices', { kioskMode: 'multi' }],
    ]);
    expect(byPath[0]?.parameters).toEqual(['breakGlassGroupId']);
  });

  it('the layer order decides which layer wins', () => {
    const effective = effectiveBaseline(company, [kiosk, healthcare], {});
    const kioskFile = effective.files.find((f) => f.path.endsWith('Kiosk.json'));
    expect(kioskFile?.layer).toBe('Healthcare');
    expect(kioskFile?.content).toEqual({ kioskMode: 'single' });
  });

  it('a dropped layer offers only the policies the effective baseline no longer holds', () => {
    // the client had Healthcare and Kiosk devices and now has only Kiosk devices
    const effective = effectiveBaseline(company, [kiosk], {}).files;
    expect(droppedLayerPolicies([healthcare], effective)).toEqual([]);
    // dropping both: Kiosk.json is nobody's now; windows.json is still the company's
    const companyOnly = effectiveBaseline(company, [], {}).files;
    const healthcareWithOwn = {
      ...healthcare,
      files: [
        ...healthcare.files,
        { path: 'Intune/DeviceConfiguration/Badge readers.json', content: {} },
        { path: 'Intune/DeviceConfiguration/notes.txt', content: null },
      ],
    };
    expect(droppedLayerPolicies([healthcareWithOwn, kiosk], companyOnly)).toEqual([
      { layer: 'Healthcare', path: 'Intune/DeviceConfiguration/Badge readers.json' },
      { layer: 'Healthcare', path: 'Intune/DeviceConfiguration/Kiosk.json' },
    ]);
  });

  it('lists missing parameters with the policies using them', () => {
    const effective = effectiveBaseline(company, [], {});
    expect(effective.missing).toEqual([
      { name: 'breakGlassGroupId', paths: ['ConditionalAccess/Policy/Require MFA.json'] },
    ]);
    expect(missingParametersMessage('ABC', effective.missing)).toBe(
      "ABC has no value for parameter 'breakGlassGroupId' (used by ConditionalAccess/Policy/Require MFA.json). Set it on the client's Parameters screen before deploying.",
    );
  });

  it("a client holding its own parameter value is compliant; another tenant's value is not", () => {
    // Group.Unified: only members of the tenant's own group may create Microsoft 365 groups
    const groupUnified = (groupId: string) => ({
      displayName: 'Group.Unified',
      values: [
        { name: 'EnableGroupCreation', value: 'false' },
        { name: 'GroupCreationAllowedGroupId', value: groupId },
      ],
    });
    const path = 'AzureAD/DirectorySetting/Group.Unified.json';
    const baseline = (group: string) =>
      effectiveBaseline(
        [{ path, content: groupUnified(parameterToken('groupCreatorsGroupId')) }],
        [],
        { groupCreatorsGroupId: group },
      ).files;
    const client = (group: string) => [{ path, content: groupUnified(group) }];
    expect(evaluateCompliance(baseline(GROUP_A), client(GROUP_A)).compliancePercentage).toBe(100);
    expect(evaluateCompliance(baseline(GROUP_B), client(GROUP_B)).compliancePercentage).toBe(100);
    const wrong = evaluateCompliance(baseline(GROUP_A), client(GROUP_B));
    expect(wrong.compliancePercentage).toBe(0);
    expect(wrong.deviations[0]?.deviations.map((d) => [d.property, d.baselineValue])).toEqual([
      ['values[name=GroupCreationAllowedGroupId].value', GROUP_A],
    ]);
  });
});
