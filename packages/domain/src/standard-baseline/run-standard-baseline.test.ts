import { describe, expect, it } from 'vitest';

import { STANDARD_CHECKS, forwardingIsOff } from './catalogue';
import { referenceSampleFiles } from './reference-samples';
import { NO_SECURITY_SETTINGS_MESSAGE, runStandardBaseline } from './run-standard-baseline';
import { STANDARD_CATEGORIES } from './types';

const ids = STANDARD_CHECKS.map((c) => c.id);
const range = (prefix: string, from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix}.${from + i}`);

describe('the standard baseline catalogue', () => {
  it("has 70 real checks, as the label 'CIS Standard Baseline (70 checks)' says", () => {
    expect(STANDARD_CHECKS).toHaveLength(70);
    expect(new Set(ids).size).toBe(70);
  });
  it('contains every id of spec 1 §3', () => {
    for (const id of [
      ...range('MT', 1001, 1016),
      ...range('AD', 2001, 2006),
      ...range('DEV', 1001, 1004),
      ...range('DEF', 1001, 1003),
      ...range('EXC', 1001, 1012),
    ])
      expect(ids).toContain(id);
  });
  it('gives every check a category, rationale and public control reference', () => {
    for (const c of STANDARD_CHECKS) {
      expect(STANDARD_CATEGORIES).toContain(c.category);
      expect(c.rationale.length).toBeGreaterThan(10);
      expect(c.controlReference).toMatch(/Maester|CIS|SCuBA/);
    }
  });
  it('keeps Maester titles and severities', () => {
    const mt1001 = STANDARD_CHECKS.find((c) => c.id === 'MT.1001');
    expect(mt1001?.title).toBe(
      'At least one Conditional Access policy is configured with device compliance.',
    );
    expect(mt1001?.severity).toBe('medium');
  });
});

const run = (files: { path: string; content: unknown }[]) => runStandardBaseline(files);
const result = (files: { path: string; content: unknown }[], id: string) =>
  run(files).results.find((r) => r.id === id);

describe('check rules of spec 1 §5', () => {
  const dr = (quota: number) => [
    { path: 'AzureAD/DeviceRegistrationPolicy/p.json', content: { userDeviceQuota: quota } },
  ];
  it('device quota at most 10', () => {
    expect(result(dr(10), 'DEV.1001')?.pass).toBe(true);
    expect(result(dr(11), 'DEV.1001')?.pass).toBe(false);
  });
  it("an absent setting is reported as 'Missing', never as a pass", () => {
    const r = result([], 'DEV.1001');
    expect(r?.current).toBe('Missing');
    expect(r?.pass).toBe(false);
  });
  it('auto-forwarding off, Off or Internal', () => {
    for (const v of [false, 'off', 'Off', 'Internal']) expect(forwardingIsOff(v)).toBe(true);
    for (const v of [true, 'On', 'Automatic']) expect(forwardingIsOff(v)).toBe(false);
  });
  it('the OWA policy blocks .exe, .js and .vbs', () => {
    const owa = (types: string[]) => [
      { path: 'Exchange/OwaMailboxPolicy/Default.json', content: { BlockedFileTypes: types } },
    ];
    expect(result(owa(['.exe', '.js', '.vbs', '.bat']), 'EXC.1003')?.pass).toBe(true);
    expect(result(owa(['.exe', '.js']), 'EXC.1003')?.pass).toBe(false);
  });
  it('group creation and guest addition off; banned passwords on premises on', () => {
    const files = [
      {
        path: 'AzureAD/DirectorySetting/group.json',
        content: {
          templateId: '62375ab9-6b52-47ed-826b-58e47e0e304b',
          values: [
            { name: 'EnableGroupCreation', value: 'false' },
            { name: 'AllowToAddGuests', value: 'True' },
          ],
        },
      },
      {
        path: 'AzureAD/DirectorySetting/pwd.json',
        content: {
          DisplayName: 'Password Rule Settings',
          Values: [{ Name: 'EnableBannedPasswordCheckOnPremises', Value: 'True' }],
        },
      },
    ];
    expect(result(files, 'AD.2003')?.pass).toBe(true);
    expect(result(files, 'AD.2004')?.pass).toBe(false);
    expect(result(files, 'AD.2002')?.pass).toBe(true);
  });
  it(`says '${NO_SECURITY_SETTINGS_MESSAGE}' when nothing can be evaluated`, () => {
    expect(run([]).message).toBe(NO_SECURITY_SETTINGS_MESSAGE);
    expect(run([]).passed).toBe(0);
  });
  it('reports the standard progress steps', () => {
    const seen: number[] = [];
    runStandardBaseline([], (p) => seen.push(p));
    expect(seen).toEqual([35, 40, 55, 70, 85, 95, 100]);
  });
});

describe('on the real public exports (reference samples)', () => {
  const files = referenceSampleFiles();
  // one tenant: ScubaGear's Sample-Reports export plus the j0eyv Conditional Access baseline
  const r = runStandardBaseline(files.filter((f) => /scubagear-sample|j0eyv/.test(f.path)));
  const byId = (id: string) => r.results.find((x) => x.id === id);
  it('loads the samples', () => {
    expect(files.length).toBeGreaterThan(40);
    expect(r.message).toBeUndefined();
  });
  it('reads PascalCase PowerShell shapes (ScubaGear authorization policy, directory settings)', () => {
    expect(byId('AD.2001')?.current).toBe('Blocked');
    expect(byId('AD.2001')?.pass).toBe(true);
    expect(byId('AD.2003')?.pass).toBe(true); // EnableGroupCreation 'False'
    expect(byId('AD.2004')?.pass).toBe(false); // AllowToAddGuests 'True'
    expect(byId('AD.2006')?.pass).toBe(true); // adminsAndGuestInviters
    expect(byId('EXC.1001')?.pass).toBe(true); // remote domain AutoForwardEnabled false
  });
  it('reads camelCase Graph shapes (Conditional Access exports)', () => {
    expect(byId('MT.1009')?.pass).toBe(true); // CA002 blocks legacy authentication
    expect(byId('MT.1010')?.pass).toBe(true);
    expect(byId('MS.DEFENDER.3.1v1')?.pass).toBe(true);
  });
});

describe('AD.2001 user consent for risky apps', () => {
  const files = referenceSampleFiles().filter((f) => /scubagear-sample/.test(f.path));
  const authorization = files.find((f) => f.path.startsWith('AzureAD/AuthorizationPolicy/'));
  const check = (all: typeof files) =>
    runStandardBaseline(all).results.find((r) => r.id === 'AD.2001');

  it('fails when the authorization policy allows it, even if the directory setting blocks it', () => {
    if (!authorization) throw new Error('the ScubaGear authorization policy sample is missing');
    const allowing = {
      path: authorization.path,
      content: { ...(authorization.content as object), AllowUserConsentForRiskyApps: true },
    };
    const result = check([...files.filter((f) => f !== authorization), allowing]);
    expect(result?.current).toBe('Allowed');
    expect(result?.pass).toBe(false);
    expect(result?.file).toBe(authorization.path);
  });

  it('is Missing, never a pass, when neither control is exported', () => {
    const result = check([]);
    expect(result?.current).toBe('Missing');
    expect(result?.pass).toBe(false);
  });
});
