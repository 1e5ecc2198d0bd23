import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { InputError } from '../errors';

import {
  appListChanges,
  enabledAppNames,
  newClientYaml,
  readAppList,
  readParameterDefaults,
  readSchedules,
  withAppList,
  withSingleSchedule,
} from './client-yaml';
import {
  describeCron,
  nextRunOf,
  runsBetween,
  slotInUseText,
  takenSlots,
  TIME_SLOTS,
  weekGrid,
  weeklyCron,
  weeklyDisplayName,
  weeklySlotOf,
} from './schedules';

describe('weekly schedules', () => {
  it('has 48 slots from 12:00 AM to 11:30 PM', () => {
    expect(TIME_SLOTS).toHaveLength(48);
    expect(TIME_SLOTS[0]).toEqual({ hour: 0, minute: 0, label: '12:00 AM', value: '00:00' });
    expect(TIME_SLOTS[1]?.label).toBe('12:30 AM');
    expect(TIME_SLOTS[24]?.label).toBe('12:00 PM');
    expect(TIME_SLOTS[47]).toEqual({ hour: 23, minute: 30, label: '11:30 PM', value: '23:30' });
  });

  it('turns a day and time into the cron and display name, and back', () => {
    expect(weeklyCron({ weekday: 0, hour: 0, minute: 0 })).toBe('0 0 * * 0');
    expect(weeklyDisplayName({ weekday: 0, hour: 0, minute: 0 })).toBe(
      'Weekly 12:00 AM build (Sunday)',
    );
    expect(weeklyCron({ weekday: 6, hour: 23, minute: 30 })).toBe('30 23 * * 6');
    expect(weeklyDisplayName({ weekday: 6, hour: 23, minute: 30 })).toBe(
      'Weekly 11:30 PM build (Saturday)',
    );
    expect(weeklyDisplayName({ weekday: 3, hour: 12, minute: 30 })).toBe(
      'Weekly 12:30 PM build (Wednesday)',
    );
    for (const weekday of [0, 3, 6]) {
      for (const slot of TIME_SLOTS) {
        const cron = weeklyCron({ weekday, hour: slot.hour, minute: slot.minute });
        expect(weeklySlotOf(cron)).toEqual({ weekday, hour: slot.hour, minute: slot.minute });
      }
    }
    expect(weeklySlotOf('0 3 * * 7')).toEqual({ weekday: 0, hour: 3, minute: 0 });
    expect(weeklySlotOf('0 1 * * *')).toBeUndefined();
    expect(weeklySlotOf('0 1 * * 1-5')).toBeUndefined();
    expect(weeklySlotOf('0 1 1 * 1')).toBeUndefined();
    expect(() => weeklyCron({ weekday: 7, hour: 0, minute: 0 })).toThrow(InputError);
    expect(() => weeklyCron({ weekday: 1, hour: 9, minute: 15 })).toThrow(InputError);
    expect(() => weeklyCron({ weekday: 1, hour: 24, minute: 0 })).toThrow(InputError);
  });

  it('disables slots held by other clients on the same day only', () => {
    const entries = [
      { clientCode: 'ABC', schedules: [{ cron: '0 0 * * 0' }] },
      { clientCode: 'CON', schedules: [{ cron: '30 23 * * 0' }, { cron: '0 1 * * *' }] },
      { clientCode: 'FAB', schedules: [{ cron: '30 23 * * 6' }] },
    ];
    const sunday = takenSlots(entries, 0, 'FAB');
    expect([...sunday]).toEqual([
      ['00:00', 'ABC'],
      ['23:30', 'CON'],
    ]);
    // a client's own slot is not taken from it
    expect([...takenSlots(entries, 0, 'ABC')]).toEqual([['23:30', 'CON']]);
    expect([...takenSlots(entries, 6, 'ABC')]).toEqual([['23:30', 'FAB']]);
    expect(takenSlots(entries, 1, 'ABC').size).toBe(0);
    expect(slotInUseText('ABC')).toBe('Time slot in use by - ABC');
    const grid = weekGrid(entries);
    expect(grid[0]?.slots[0]?.clients).toEqual(['ABC']);
    expect(grid[0]?.slots[47]?.clients).toEqual(['CON']);
    expect(grid[6]?.slots[47]?.clients).toEqual(['FAB']);
  });

  it('describes a cron in words and finds the next run in UTC', () => {
    expect(describeCron('30 9 * * 1')).toMatch(/09:30 AM.*Monday.*\(UTC\)/);
    const saturdayNight = new Date('2026-11-28T23:00:00Z');
    expect(nextRunOf('30 23 * * 6', saturdayNight)?.toISOString()).toBe('2026-11-28T23:30:00.000Z');
    // across midnight into Sunday
    expect(nextRunOf('0 0 * * 0', saturdayNight)?.toISOString()).toBe('2026-11-29T00:00:00.000Z');
    expect(nextRunOf('not a cron', saturdayNight)).toBeUndefined();
    expect(
      runsBetween('0 0 * * 0', saturdayNight, new Date('2026-12-14T00:00:00Z')).map((d) =>
        d.toISOString(),
      ),
    ).toEqual(['2026-11-29T00:00:00.000Z', '2026-12-06T00:00:00.000Z', '2026-12-13T00:00:00.000Z']);
  });
});

const CLIENT_YAML = [
  '# App deployment pipeline for ABC (managed by Aegis)',
  'trigger: none',
  'schedules:',
  '- cron: "0 2 * * 1"',
  '  displayName: Weekly 2:00 AM build (Monday)',
  '  branches:',
  '    include:',
  '    - main',
  '    - release/*',
  '  always: false',
  '- cron: "0 3 * * 2"',
  '  displayName: second',
  '  branches:',
  '    include:',
  '    - main',
  'parameters:',
  '- name: AppList',
  '  type: object',
  '  default: []',
  'pool:',
  '  vmImage: windows-latest # the hosted image',
  'steps:',
  '- pwsh: ./deploy.ps1',
  '',
].join('\n');

describe('client pipeline YAML', () => {
  it('writes a new client YAML the app list and schedule screens read and rewrite', () => {
    const yaml = newClientYaml('TSP');
    const doc = parse(yaml) as {
      parameters: { name: string; type: string; default: unknown }[];
      variables: Record<string, string>;
    };
    expect(doc.parameters).toEqual([{ name: 'AppList', type: 'object', default: [] }]);
    expect(doc.variables).toEqual({ ClientCode: 'TSP', AppTable: 'TSPWorkstationApps' });
    expect(readAppList(yaml)).toEqual([]);
    expect(readSchedules(yaml)).toEqual([]);
    const withApps = withAppList(yaml, ['7-Zip', 'Google Chrome']);
    expect(readAppList(withApps)).toEqual(['7-Zip', 'Google Chrome']);
    expect((parse(withApps) as typeof doc).parameters[0]?.type).toBe('object');
    const scheduled = newClientYaml('TSP', {
      cron: '0 2 * * 0',
      displayName: 'Weekly 2:00 AM build (Sunday)',
    });
    expect(readSchedules(scheduled)).toEqual([
      {
        cron: '0 2 * * 0',
        displayName: 'Weekly 2:00 AM build (Sunday)',
        branches: { include: ['main'], exclude: [] },
        always: true,
      },
    ]);
    expect(readParameterDefaults(scheduled)).toEqual({ AppList: '[]' });
  });

  it('reads the schedules as Azure Pipelines does', () => {
    expect(readSchedules(CLIENT_YAML)).toEqual([
      {
        cron: '0 2 * * 1',
        displayName: 'Weekly 2:00 AM build (Monday)',
        branches: { include: ['main', 'release/*'], exclude: [] },
        always: false,
      },
      {
        cron: '0 3 * * 2',
        displayName: 'second',
        branches: { include: ['main'], exclude: [] },
        always: false,
      },
    ]);
    expect(readSchedules('trigger: none\n')).toEqual([]);
  });

  it('rewrites schedules with a single entry, keeping branches, always and comments', () => {
    const next = withSingleSchedule(CLIENT_YAML, {
      cron: '30 23 * * 6',
      displayName: 'Weekly 11:30 PM build (Saturday)',
    });
    expect(readSchedules(next)).toEqual([
      {
        cron: '30 23 * * 6',
        displayName: 'Weekly 11:30 PM build (Saturday)',
        branches: { include: ['main', 'release/*'], exclude: [] },
        always: false,
      },
    ]);
    // every line outside schedules: is untouched, in the file's own compact style
    const after = (text: string) => text.slice(text.indexOf('parameters:'));
    expect(after(next)).toBe(after(CLIENT_YAML));
    expect(next.slice(0, next.indexOf('schedules:'))).toBe(
      CLIENT_YAML.slice(0, CLIENT_YAML.indexOf('schedules:')),
    );
    expect(next).toContain('- cron: "30 23 * * 6"');

    const fresh = withSingleSchedule('# x\ntrigger: none\nsteps:\n- pwsh: echo hi\n', {
      cron: '0 0 * * 0',
      displayName: 'Weekly 12:00 AM build (Sunday)',
    });
    expect(readSchedules(fresh)).toEqual([
      {
        cron: '0 0 * * 0',
        displayName: 'Weekly 12:00 AM build (Sunday)',
        branches: { include: ['main'], exclude: [] },
        always: true,
      },
    ]);
    expect(fresh.indexOf('trigger')).toBeLessThan(fresh.indexOf('schedules'));
    expect(fresh.indexOf('schedules')).toBeLessThan(fresh.indexOf('steps'));
  });

  it('regenerates the app list from the enabled rows and tells what changed', () => {
    const rows = [
      { AppName: '7-Zip', Status: 'Enabled' },
      { AppName: 'VLC', Status: 'Disabled' },
      { AppName: 'Slack', Status: 'Enabled' },
      { AppName: '7-Zip', Status: 'Enabled' },
      { AppName: ' ', Status: 'Enabled' },
    ];
    const apps = enabledAppNames(rows);
    expect(apps).toEqual(['7-Zip', 'Slack']);
    const next = withAppList(CLIENT_YAML, apps);
    expect(readAppList(next)).toEqual(['7-Zip', 'Slack']);
    expect(readSchedules(next)).toEqual(readSchedules(CLIENT_YAML));
    expect(withAppList(CLIENT_YAML, [])).toBe(CLIENT_YAML);
    expect(appListChanges(['7-Zip', 'VLC'], apps)).toEqual({
      added: ['Slack'],
      removed: ['VLC'],
      unchanged: ['7-Zip'],
    });
    const without = withAppList('trigger: none\nsteps: []\n', ['A']);
    expect(readAppList(without)).toEqual(['A']);
  });

  // issue 26: the app list reaches the deploy script as data, never spliced into its command line
  const SPLICED_EXPRESSION = /\$\{\{[^}]*AppList[^}]*\}\}/;
  type DeployStep = { inputs: { arguments: string }; env?: Record<string, string> };
  const deployStep = (yaml: string) =>
    (parse(yaml) as { stages: { jobs: { steps: DeployStep[] }[] }[] }).stages[0]!.jobs[0]!
      .steps[0]!;

  it('hands the app list to the deploy script through its environment', () => {
    const step = deployStep(withAppList(newClientYaml('TSP'), ['7-Zip']));
    expect(step.inputs.arguments).toBe('-ClientCode TSP -AppList $env:APP_LIST');
    expect(step.inputs.arguments).not.toMatch(SPLICED_EXPRESSION);
    expect(step.env).toEqual({ APP_LIST: '${{ convertToJson(parameters.AppList) }}' });
  });

  it('moves an app list spliced into the arguments (older YAML) into the environment', () => {
    const legacy = newClientYaml('TSP').replace(
      '-AppList $env:APP_LIST',
      "-AppList '${{ convertToJson(parameters.AppList) }}'",
    );
    const withoutEnv = legacy.replace(/ {6}env:\n.*\n/, '');
    expect(deployStep(withoutEnv).inputs.arguments).toMatch(SPLICED_EXPRESSION);
    const next = withAppList(withoutEnv, ['Slack']);
    expect(deployStep(next)).toEqual(deployStep(newClientYaml('TSP')));
    expect(readAppList(next)).toEqual(['Slack']);
  });

  it('refuses to write an app name outside the rule, naming the field', () => {
    const injection = "Probe'; Start-Process calc; '";
    expect(() => withAppList(newClientYaml('TSP'), ['7-Zip', injection])).toThrow(
      expect.objectContaining({ name: 'InputError', field: 'AppName' }),
    );
  });

  it('refuses YAML that is not valid', () => {
    expect(() => readSchedules('a: [unclosed')).toThrow(InputError);
    expect(() => withAppList('- just\n- a list\n', [])).toThrow(InputError);
  });
});
