import { describe, expect, it } from 'vitest';

import { InputError } from '../errors';

import {
  acceptedDeviationsPath,
  BASELINE_ROOT,
  backupTagName,
  branchRef,
  captureBranchName,
  clientCodeOfPath,
  clientPolicyPath,
  clientResourcesRoot,
  clientYamlPath,
  confinePath,
  pathInsideFolder,
  formatBackupTimestamp,
  matchingConfigPath,
  objectRestoreBranchName,
  parseCaptureBranch,
  parseClientYamlPath,
  refNameProblem,
  repositoryPathProblem,
  restoreBranchName,
  shortBranchName,
} from './repository-layout';

describe('repository layout', () => {
  it('names the resource roots of spec 1 §9', () => {
    expect(BASELINE_ROOT).toBe('/M365Config/Resources');
    expect(clientResourcesRoot('ABC')).toBe('/Clients/ABC/M365Config/Resources');
  });

  it('names the per-client documents and YAML files', () => {
    expect(acceptedDeviationsPath('ABC')).toBe('/Clients/ABC/.accepted-deviations.json');
    expect(matchingConfigPath('ABC')).toBe('/Clients/ABC/.matching-config.json');
    expect(clientYamlPath('FAB')).toBe('/Client_Yaml_Files/FAB-azure-pipelines.yml');
    expect(parseClientYamlPath('Client_Yaml_Files/FAB-azure-pipelines.yml')).toBe('FAB');
    expect(parseClientYamlPath('/Client_Yaml_Files/x/FAB-azure-pipelines.yml')).toBeUndefined();
    expect(parseClientYamlPath('/Other/FAB-azure-pipelines.yml')).toBeUndefined();
  });

  it('reads the client code of a path only for a real client folder', () => {
    expect(clientCodeOfPath('/Clients/ABC/M365Config/Resources/x.json')).toBe('ABC');
    expect(clientCodeOfPath('Clients/ABC')).toBe('ABC');
    expect(clientCodeOfPath('/Clients/abc/x')).toBeUndefined();
    expect(clientCodeOfPath('/M365Config/Resources/x.json')).toBeUndefined();
  });

  it('confines request paths to their folder', () => {
    expect(confinePath('/Clients/ABC', 'M365Config/Resources/a.json')).toBe(
      '/Clients/ABC/M365Config/Resources/a.json',
    );
    expect(confinePath('/Clients/ABC', '/Clients/ABC//x.json')).toBe('/Clients/ABC/x.json');
    expect(() => confinePath('/Clients/ABC', '../FAB/x.json')).toThrow(InputError);
    expect(() => confinePath('/Clients/ABC', '/Clients/ABCD/x.json')).not.toThrow();
    expect(confinePath('/Clients/ABC', '/Clients/ABCD/x.json')).toBe(
      '/Clients/ABC/Clients/ABCD/x.json',
    );
  });

  it('refuses a root-named path outside its folder', () => {
    expect(pathInsideFolder('/M365Config/Resources', 'M365Config/Resources//Intune/')).toBe(
      '/M365Config/Resources/Intune',
    );
    expect(() => pathInsideFolder('/M365Config/Resources', 'Clients/ABC/x.json')).toThrow(
      new InputError('path must be inside /M365Config/Resources', 'path'),
    );
    expect(() => pathInsideFolder('/M365Config/Resources', 'M365Config/Resources/../x')).toThrow(
      InputError,
    );
  });

  it('formats and parses capture branches', () => {
    expect(captureBranchName('ABC', 4711)).toBe('client-ABC-capture-4711');
    expect(parseCaptureBranch('refs/heads/client-ABC-capture-4711')).toEqual({
      clientCode: 'ABC',
      runId: 4711,
    });
    expect(parseCaptureBranch('client-abc-capture-1')).toBeUndefined();
    expect(parseCaptureBranch('client-ABC-capture-')).toBeUndefined();
  });

  it('formats restore branches and refs', () => {
    expect(restoreBranchName('ABC', 'backup/ABC/20250301_101500')).toBe(
      'restore/ABC/backup-ABC-20250301-101500',
    );
    expect(branchRef('main')).toBe('refs/heads/main');
    expect(branchRef('refs/heads/x')).toBe('refs/heads/x');
    expect(shortBranchName('refs/heads/restore/ABC/x')).toBe('restore/ABC/x');
  });

  it('names the branch of a restore of chosen policies beside the whole restore', () => {
    const tag = 'backup/ABC/20250301_101500';
    expect(objectRestoreBranchName('ABC', tag, '3f2a9c')).toBe(
      'restore/ABC/backup-ABC-20250301-101500-objects-3f2a9c',
    );
    expect(objectRestoreBranchName('ABC', tag, '3f2a9c')).not.toBe(restoreBranchName('ABC', tag));
    expect(() => objectRestoreBranchName('ABC', tag, '../x')).toThrow(InputError);
  });

  it("names a client's policy by its resource path, confined to the client's resources", () => {
    expect(clientPolicyPath('ABC', 'Intune/DeviceConfiguration/Kiosk.json')).toBe(
      '/Clients/ABC/M365Config/Resources/Intune/DeviceConfiguration/Kiosk.json',
    );
    expect(() => clientPolicyPath('ABC', '../../XYZ/M365Config/a.json', 'policies')).toThrow(
      expect.objectContaining({ field: 'policies' }),
    );
    expect(() => clientPolicyPath('ABC', '', 'policies')).toThrow(InputError);
  });

  it('formats backup tags that end in yyyymmdd_hhmmss', () => {
    const date = new Date('2025-03-01T10:15:07.123Z');
    expect(formatBackupTimestamp(date)).toBe('20250301_101507');
    expect(backupTagName('ABC', date, false)).toBe('backup/ABC/20250301_101507');
    expect(backupTagName('ABC', date, true)).toBe('backup/ABC/scheduled_20250301_101507');
  });
});

describe('values from requests that must never reach Azure DevOps', () => {
  it.each([
    'Clients/ABC/M365Config/x\u0000.json',
    'Clients/ABC/../XYZ/a.json',
    'Clients/ABC/....//a.json',
    'Clients/ABC/..../a.json',
    'Clients/ABC/./a.json',
    'Clients\\ABC\\a.json',
    'Clients//ABC/a.json',
  ])('refuses the path %j', (path) => {
    expect(repositoryPathProblem(path)).toBeDefined();
  });

  it.each(['Clients/ABC/M365Config/Resources/Intune/Policy/A b.c.json', '/M365Config/Resources'])(
    'accepts the path %j',
    (path) => {
      expect(repositoryPathProblem(path)).toBeUndefined();
    },
  );

  it.each([
    'client-ABC-capture-..',
    'client-ABC-capture-1..2',
    'restore/ABC/x.lock',
    'client-ABC-capture-1.',
    'a//b',
    '.hidden',
    'a b',
    'a~1',
    'a\u0000b',
    'a@{1}',
  ])('refuses the ref name %j', (name) => {
    expect(refNameProblem(name)).toBeDefined();
  });

  it.each([
    'main',
    'client-ABC-capture-1042',
    'backup/ABC/scheduled_20261120_010000',
    'restore/ABC/v1.2',
  ])('accepts the ref name %j', (name) => {
    expect(refNameProblem(name)).toBeUndefined();
  });
});
