import { describe, expect, it } from 'vitest';

import {
  BASELINE_COMPONENTS,
  DEPLOY_GROUPS,
  DIRECTORY_ACCOUNTS,
  OFFBOARD_COMPONENTS,
  OFFBOARD_GROUPS,
  UNGROUPED_OFFBOARD_COMPONENTS,
} from './catalogue';
import {
  AUTO_PILOT_WARNING,
  DEPLOY_PRESETS,
  OFFBOARD_PRESETS,
  SELECT_COMPONENT_TO_REMOVE,
  SELECT_PIPELINE,
  deployEstimateSeconds,
  deploySelectionWarnings,
  formatDeployDuration,
  formatOffboardDuration,
  offboardBlocker,
  offboardUpperMinutes,
  previewProgress,
  previewSettings,
  shortenPreviewPath,
  toggleDeployComponent,
  totalDeploySeconds,
  totalOffboardMinutes,
  truncatePreviewValue,
} from './selection';

const CATEGORIES = [
  'Microsoft Intune Configuration',
  'Azure AD Configuration',
  'Entra ID Configuration',
  'Exchange Online Configuration',
  'SharePoint Configuration',
  'Tenant Organisational Configuration',
  'Azure Maintenance Configurations',
];

describe('deploy catalogue (spec 2 §3)', () => {
  it('has the spec group counts, each entry in exactly one group', () => {
    expect(DEPLOY_GROUPS.map((g) => [g.label, g.components.length])).toEqual([
      ['Intune', 15],
      ['Exchange Online', 16],
      ['SharePoint', 1],
      ['Entra ID Config', 8],
      ['Entra ID Security', 11],
      ['Teams & Forms', 3],
      ['AD Policies', 1],
      ['Maintenance', 1],
      ['User Accounts', 1],
    ]);
    const grouped = DEPLOY_GROUPS.flatMap((g) => g.components);
    expect(new Set(grouped).size).toBe(grouped.length);
    expect([...grouped].sort()).toEqual(Object.keys(BASELINE_COMPONENTS).sort());
  });

  it('every entry has one repository, a category of the seven, a description and a known type', () => {
    const problems: string[] = [];
    for (const [name, c] of Object.entries(BASELINE_COMPONENTS)) {
      const check = (ok: boolean, what: string) => {
        if (!ok) problems.push(`${name}: ${what}`);
      };
      check(c.repoId === 'M365Config', 'repoId');
      check(CATEGORIES.includes(c.category), 'category');
      check(c.description.length > 10, 'description');
      check(['High', 'Medium', 'Low'].includes(c.impact), 'impact');
      if (c.type === 'function') {
        check(!!c.functionName && !!c.command?.includes(c.functionName), 'function and command');
      } else {
        check(c.paths.length > 0 && c.functionName === undefined, 'paths');
      }
      if (c.type === 'single_file') check(c.paths.length === 1, 'one file');
      for (const p of c.paths) check(p.startsWith('M365Config/Resources/'), p);
      for (const a of c.accounts ?? []) check(a in DIRECTORY_ACCOUNTS, a);
    }
    expect(problems).toEqual([]);
  });

  it('names every component the presets and the time estimates name', () => {
    const named = [
      ...Object.values(DEPLOY_PRESETS).flat(),
      ...['iOS Apps', 'Android Apps', 'Health Scripts', 'Management Scripts', 'Clean-Up'],
      ...['Org Customisation', 'Org Config', 'ATP', 'Service Accounts', 'MEM Groups'],
    ];
    expect(named.filter((n) => !(n in BASELINE_COMPONENTS))).toEqual([]);
  });
});

describe('off-board catalogue (spec 2 §3)', () => {
  it('has the spec groups, and the other entries belong to none', () => {
    expect(OFFBOARD_GROUPS.map((g) => [g.label, g.components.length])).toEqual([
      ['Intune', 12],
      ['Exchange', 1],
      ['Entra ID Config', 2],
      ['User Account Removal', 1],
    ]);
    expect(OFFBOARD_GROUPS[1]?.components).toEqual(['Remove Transport Rules']);
    expect(OFFBOARD_GROUPS[2]?.components).toEqual([
      'Remove MEM Groups',
      'Remove Required Entra ID Groups',
    ]);
    expect(
      OFFBOARD_GROUPS.flatMap((g) => g.components).filter((n) => !(n in OFFBOARD_COMPONENTS)),
    ).toEqual([]);
    expect(UNGROUPED_OFFBOARD_COMPONENTS).toEqual(
      expect.arrayContaining([
        'Remove Safe Links',
        'Revert Org Configuration to Default',
        'Remove Inbound Connector',
        'Revert Teams to Default',
        'Revert Forms to Default',
        'Remove Azure AD Policy Baseline',
        'Remove Maintenance Configurations',
      ]),
    );
  });

  it('every entry has a description, impact, a range from 1-2 up to 5-7, and something to act on', () => {
    const problems = Object.entries(OFFBOARD_COMPONENTS)
      .filter(
        ([name, c]) =>
          c.description.length <= 10 ||
          !/^[1-5]-[2-7]$/.test(c.estimatedTime) ||
          c.paths.length + (c.accounts?.length ?? 0) === 0 ||
          name.startsWith('Revert') !== (c.action === 'revert'),
      )
      .map(([name]) => name);
    expect(problems).toEqual([]);
  });

  it('removes policies before the named locations and groups they reference', () => {
    const order = Object.keys(OFFBOARD_COMPONENTS);
    const ca = order.indexOf('Remove Conditional Access Policies and Named Locations');
    expect(ca).toBeLessThan(order.indexOf('Remove Required Entra ID Groups'));
    expect(order.indexOf('Remove Device Compliance')).toBeLessThan(
      order.indexOf('Remove MEM Groups'),
    );
  });
});

describe('selection rules (spec 2 §4)', () => {
  it('selecting Conditional Access Policies or Named Locations selects both', () => {
    expect(toggleDeployComponent([], 'Conditional Access Policies', true)).toEqual([
      'Named Locations',
      'Conditional Access Policies',
    ]);
    expect(toggleDeployComponent(['SharePoint'], 'Named Locations', true)).toEqual([
      'SharePoint',
      'Named Locations',
      'Conditional Access Policies',
    ]);
  });

  it('clearing Named Locations clears the policies that need them; clearing the policies keeps the locations', () => {
    const both = ['Named Locations', 'Conditional Access Policies'];
    expect(toggleDeployComponent(both, 'Named Locations', false)).toEqual([]);
    expect(toggleDeployComponent(both, 'Conditional Access Policies', false)).toEqual([
      'Named Locations',
    ]);
  });

  it('warns when Auto Pilot is selected without Device Registration', () => {
    expect(deploySelectionWarnings(['Auto Pilot'])).toEqual([AUTO_PILOT_WARNING]);
    expect(deploySelectionWarnings(['Auto Pilot', 'Device Registration'])).toEqual([]);
    expect(deploySelectionWarnings([])).toEqual([]);
  });

  it('blocks the off-board confirmation without a component, then without a pipeline', () => {
    expect(offboardBlocker({ components: [], pipeline: '' })).toBe(SELECT_COMPONENT_TO_REMOVE);
    expect(offboardBlocker({ components: ['Remove Safe Links'], pipeline: '' })).toBe(
      SELECT_PIPELINE,
    );
    expect(offboardBlocker({ components: ['Remove Safe Links'], pipeline: '240' })).toBeUndefined();
  });
});

describe('presets (spec 2 §9)', () => {
  it('Essential Security, Standard Business (essential plus five), All Components', () => {
    expect([...(DEPLOY_PRESETS['Essential Security'] ?? [])].sort()).toEqual(
      [
        'Anti Phishing',
        'Device Compliance',
        'Managed App',
        'Org Configuration Compliance',
        'Required Entra ID Groups',
      ].sort(),
    );
    const standard = DEPLOY_PRESETS['Standard Business'] ?? [];
    expect(standard).toHaveLength(10);
    expect(standard).toEqual(
      expect.arrayContaining([
        ...(DEPLOY_PRESETS['Essential Security'] ?? []),
        'Auto Pilot',
        'Deploy Intent',
        'SharePoint',
        'MEM Groups',
        'AAD Consent Policy',
      ]),
    );
    expect(DEPLOY_PRESETS['All Components']).toHaveLength(Object.keys(BASELINE_COMPONENTS).length);
  });

  it('Minimal Cleanup, Standard Off-Board, Complete Wipe', () => {
    expect(OFFBOARD_PRESETS['Minimal Cleanup']).toEqual([
      'Remove Conditional Access Policies and Named Locations',
      'Remove Transport Rules',
      'Remove Safe Links',
      'Remove Required Entra ID Groups',
    ]);
    const standard = OFFBOARD_PRESETS['Standard Off-Board'] ?? [];
    expect(standard).toEqual(
      expect.arrayContaining([
        ...(OFFBOARD_GROUPS[0]?.components ?? []),
        'Remove Transport Rules',
        'Remove Safe Links',
        'Remove Inbound Connector',
        'Remove MEM Groups',
        'Remove Required Entra ID Groups',
        'Remove Azure AD Policy Baseline',
      ]),
    );
    expect(standard).not.toContain('Remove User Accounts');
    expect([...(OFFBOARD_PRESETS['Complete Wipe'] ?? [])].sort()).toEqual(
      OFFBOARD_GROUPS.flatMap((g) => g.components).sort(),
    );
  });
});

describe('estimates (spec 2 §9)', () => {
  it('takes the spec figures, 5 minutes for any other component', () => {
    expect(deployEstimateSeconds('Device Compliance')).toBe(30);
    expect(deployEstimateSeconds('Config Policies')).toBe(18 * 60);
    expect(deployEstimateSeconds('Required Entra ID Groups')).toBe(6 * 60);
    expect(deployEstimateSeconds('DKIM')).toBe(300);
    expect(totalDeploySeconds(['Device Compliance', 'Managed App'])).toBe(30 + 720);
    expect(totalDeploySeconds([])).toBe(0);
  });

  it('shows seconds under a minute, else Xm Ys', () => {
    expect(formatDeployDuration(0)).toBe('0 seconds');
    expect(formatDeployDuration(30)).toBe('30 seconds');
    expect(formatDeployDuration(59)).toBe('59 seconds');
    expect(formatDeployDuration(60)).toBe('1m 0s');
    expect(formatDeployDuration(750)).toBe('12m 30s');
    expect(formatDeployDuration(3600)).toBe('60m 0s');
  });

  it('off-board totals sum the upper bounds, 3 without a range, in minutes or hours and minutes', () => {
    expect(offboardUpperMinutes('1-2')).toBe(2);
    expect(offboardUpperMinutes('5-7')).toBe(7);
    expect(offboardUpperMinutes('')).toBe(3);
    expect(offboardUpperMinutes(undefined)).toBe(3);
    expect(offboardUpperMinutes('about five')).toBe(3);
    expect(totalOffboardMinutes(['Remove Transport Rules', 'Remove Safe Links'])).toBe(4);
    expect(totalOffboardMinutes(['Not in the catalogue'])).toBe(3);
    expect(formatOffboardDuration(1)).toBe('1 minute');
    expect(formatOffboardDuration(59)).toBe('59 minutes');
    expect(formatOffboardDuration(60)).toBe('1h');
    expect(formatOffboardDuration(61)).toBe('1h 1m');
    expect(formatOffboardDuration(135)).toBe('2h 15m');
  });
});

describe('configuration preview limits (spec 2 §9)', () => {
  it('truncates values over 50 characters and shortens paths over 60', () => {
    const fifty = 'x'.repeat(50);
    expect(truncatePreviewValue(fifty)).toBe(fifty);
    expect(truncatePreviewValue(`${fifty}y`)).toBe(`${fifty}...`);
    const sixty = 'p'.repeat(60);
    expect(shortenPreviewPath(sixty)).toBe(sixty);
    const long = `M365Config/Resources/Intune/DeviceCompliancePolicy/Baseline - Windows.json`;
    const short = shortenPreviewPath(long);
    expect(short).toHaveLength(60);
    expect(short.startsWith('...')).toBe(true);
    expect(long.endsWith(short.slice(3))).toBe(true);
  });

  it('scales listing to 0–50 % and downloads to 50–100 %', () => {
    expect(previewProgress('listing', 0, 2)).toBe(0);
    expect(previewProgress('listing', 1, 2)).toBe(25);
    expect(previewProgress('listing', 2, 2)).toBe(50);
    expect(previewProgress('downloading', 0, 4)).toBe(50);
    expect(previewProgress('downloading', 3, 4)).toBe(88);
    expect(previewProgress('downloading', 0, 0)).toBe(100);
  });

  it('shows at most 6 settings per file, named from the property, values truncated', () => {
    const config = {
      '@odata.type': '#x',
      id: '1',
      displayName: 'Policy',
      mailTipsAllTipsEnabled: true,
      description: 'd'.repeat(80),
      list: [1, 2],
      nested: { a: 1 },
      nothing: null,
      seventh: 7,
    };
    const rows = previewSettings(config);
    expect(rows).toHaveLength(6);
    expect(rows[0]).toEqual({
      name: 'Display Name',
      value: 'Policy',
      rawProperty: 'displayName',
      description: 'Text',
    });
    expect(rows[1]).toMatchObject({
      name: 'Mail Tips All Tips Enabled',
      value: 'true',
      description: 'Enabled',
    });
    expect(rows[2]?.value).toBe(`${'d'.repeat(50)}...`);
    expect(rows[3]).toMatchObject({ value: '[1,2]', description: 'List of 2 items' });
    expect(rows.map((r) => r.rawProperty)).not.toContain('seventh');
    expect(previewSettings([1, 2])).toEqual([]);
  });
});
