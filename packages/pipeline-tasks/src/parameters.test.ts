import { describe, expect, it } from 'vitest';

import { runCli } from './cli';
import { parseTaskParameters } from './parameters';

describe('task parameters', () => {
  it('reads JSON-encoded lists and comma/line separated ones the same way', () => {
    expect(
      parseTaskParameters('capture', {
        ClientCode: 'ABC',
        ExcludedProperties: '["id","createdDateTime"]',
        ExcludedPaths: '/Office365\n/Planner',
      }),
    ).toEqual({
      ClientCode: 'ABC',
      ExcludedProperties: ['id', 'createdDateTime'],
      ExcludedPaths: ['/Office365', '/Planner'],
      BaselineVersion: '1.0.0',
    });
  });

  it('names the bad field', () => {
    expect(() => parseTaskParameters('backup', { ClientCode: 'abcd' })).toThrow(
      /ClientCode must be exactly 3 uppercase letters/,
    );
    expect(() => parseTaskParameters('onboard', { ClientCode: 'NEW' })).toThrow(
      /Domain is required/,
    );
    expect(() => parseTaskParameters('deploy', { ClientCode: 'ABC', Components: '[1,2]' })).toThrow(
      /Components: must be a JSON array of strings/,
    );
    // an off-board removes either catalogue components or what dropped layers left (ADR 079)
    expect(() =>
      parseTaskParameters('offboard', {
        ClientCode: 'CON',
        Components: '["Remove Transport Rules"]',
        DroppedLayers: '["Healthcare"]',
      }),
    ).toThrow(/Components must be empty with DroppedLayers/);
    expect(
      parseTaskParameters('offboard', { ClientCode: 'CON', DroppedLayers: '["Healthcare"]' }),
    ).toEqual({ ClientCode: 'CON', Components: [], DroppedLayers: ['Healthcare'] });
  });

  it('ManualRun is true only when it says true', () => {
    expect(parseTaskParameters('backup', { ClientCode: 'ABC', ManualRun: 'True' }).ManualRun).toBe(
      true,
    );
    expect(parseTaskParameters('backup', { ClientCode: 'ABC' }).ManualRun).toBe(false);
  });
});

describe('aegis-task command line', () => {
  it('prints usage for an unknown task', async () => {
    const lines: string[] = [];
    expect(await runCli(['explode'], { env: {}, write: (l) => lines.push(l) })).toBe(2);
    expect(lines.join('\n')).toMatch(/Usage: aegis-task <capture\|backup/);
  });

  it('fails with the names of the missing environment variables', async () => {
    const lines: string[] = [];
    const code = await runCli(['capture', '--client', 'ABC'], {
      env: {},
      write: (l) => lines.push(l),
    });
    expect(code).toBe(1);
    expect(lines.join('\n')).toMatch(
      /##vso\[task.logissue type=error\]The pipeline environment is incomplete or invalid: .*SYSTEM_COLLECTIONURI.*SYSTEM_ACCESSTOKEN/,
    );
  });

  it('rejects an unknown flag', async () => {
    const lines: string[] = [];
    expect(
      await runCli(['backup', '--cliente', 'ABC'], { env: {}, write: (l) => lines.push(l) }),
    ).toBe(2);
  });
});
