import { describe, expect, it } from 'vitest';

import {
  clientOfAppTable,
  knownClientLabel,
  knownClients,
  tenantPipelineClient,
  type ClientSightings,
} from './known-clients';

/** The sample data's shapes (issue 27 item 2): ABC captured and onboarded, WWI captured only, WGB
 * onboarded for app deployment only, QRS with only a tenant pipeline, ZZZ with only a table. */
const SAMPLE: ClientSightings = {
  configurationFolders: ['ABC', 'WWI'],
  appYamls: ['ABC', 'WGB'],
  tables: ['ABCWorkstationApps', 'WGBWorkstationApps', 'GENWorkstationApps', 'ZZZWorkstationApps'],
  pipelines: [
    { id: 240, name: 'ABC Tenant Configuration', folder: '\\Tenants\\ABC' },
    { id: 101, name: 'ABC - Workstation App Deployment', folder: '\\ABC' },
    { id: 105, name: 'WGB - Workstation App Deployment', folder: '\\WGB' },
    { id: 191, name: 'QRS Tenant Configuration', folder: '\\tenants\\QRS' },
    { id: 7, name: 'Capture', folder: '\\Aegis' },
  ],
  backupTags: [
    'refs/tags/backup/ABC/ABC_20261120_020000',
    'refs/tags/backup/ABC/ABC_20261121_020000',
    'refs/tags/backup/WWI/not-a-backup',
  ],
};

describe('knownClients', () => {
  const byCode = new Map(knownClients(SAMPLE).map((c) => [c.code, c]));

  it('lists every code seen anywhere, sorted, and no table or folder that names no code', () => {
    expect([...byCode.keys()]).toEqual(['ABC', 'QRS', 'WGB', 'WWI', 'ZZZ']);
  });

  it('calls a code with a tenant or a configuration a client, and nothing else', () => {
    expect([...byCode.values()].filter((c) => c.isClient).map((c) => c.code)).toEqual([
      'ABC',
      'QRS',
      'WWI',
    ]);
  });

  it('says what each code has and lacks', () => {
    expect(byCode.get('ABC')).toEqual({
      code: 'ABC',
      name: 'Client ABC',
      isClient: true,
      onboarded: true,
      configuration: true,
      appDeployment: { yaml: true, table: true },
      backups: 2,
      pipelines: [
        { id: 240, name: 'ABC Tenant Configuration', folder: 'Tenants\\ABC' },
        { id: 101, name: 'ABC - Workstation App Deployment', folder: 'ABC' },
      ],
      lacks: [],
    });
    expect(byCode.get('WGB')?.lacks).toEqual(['tenant', 'configuration', 'backups']);
    expect(byCode.get('QRS')?.lacks).toEqual(['configuration', 'appDeployment', 'backups']);
    // a configuration on main was captured from its tenant; a tag that is no backup is not counted
    expect(byCode.get('WWI')?.lacks).toEqual(['appDeployment', 'backups']);
    expect(byCode.get('ZZZ')?.lacks).toEqual(['tenant', 'configuration', 'backups']);
  });

  it('does not claim a lack it could not read', () => {
    const known = knownClients({
      ...SAMPLE,
      tables: undefined,
      pipelines: undefined,
      backupTags: undefined,
    });
    const wwi = known.find((c) => c.code === 'WWI');
    expect(wwi).toMatchObject({
      appDeployment: { yaml: false, table: null },
      backups: null,
      pipelines: null,
      lacks: [],
    });
    // without the pipelines, onboarding is unknown: a code seen only as a YAML lacks a tenant
    expect(known.find((c) => c.code === 'WGB')?.isClient).toBe(false);
  });
});

describe('the rules it is made of', () => {
  it.each([
    ['\\Tenants\\ABC', 'ABC'],
    ['Tenants\\abc', undefined],
    ['\\TENANTS\\FAB\\', 'FAB'],
    ['\\ABC', undefined],
    ['\\Tenants', undefined],
  ])('the client of the tenant pipeline folder %j is %j', (folder, code) => {
    expect(tenantPipelineClient(folder)).toBe(code);
  });

  it.each([
    ['ABCWorkstationApps', 'ABC'],
    ['GENWorkstationApps', undefined],
    ['ABWorkstationApps', undefined],
    ['ABCApps', undefined],
  ])('the client of the app table %j is %j', (table, code) => {
    expect(clientOfAppTable(table)).toBe(code);
  });

  it('labels a code with the lacks a screen cares about', () => {
    const wgb = { code: 'WGB', name: 'Client WGB', lacks: ['tenant', 'configuration'] as const };
    expect(knownClientLabel({ ...wgb, lacks: [...wgb.lacks] })).toBe(
      'WGB - Client WGB (no tenant onboarded, no configuration on main)',
    );
    expect(knownClientLabel({ ...wgb, lacks: [...wgb.lacks] }, ['configuration'])).toBe(
      'WGB - Client WGB (no configuration on main)',
    );
    expect(knownClientLabel({ code: 'ABC', name: 'Client ABC', lacks: [] })).toBe(
      'ABC - Client ABC',
    );
  });
});
