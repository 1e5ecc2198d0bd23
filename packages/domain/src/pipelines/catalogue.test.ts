import { describe, expect, it } from 'vitest';

import { InputError } from '../errors';

import {
  isOnboardingPipelineOf,
  isTenantPipelineFolder,
  appDeployOnboardingLegacyRun,
  appDeployOnboardingRun,
  appListRun,
  backupRun,
  captureRun,
  cataloguedPipelineOf,
  deployComponentsRun,
  FIXED_PIPELINE_IDS,
  fullBaselineDeployRun,
  matchesLocator,
  offboardRun,
  parsePipelineIdOverrides,
  redactRunBody,
  secretValuesOf,
  tenantOnboardingLegacyRun,
  tenantOnboardingRun,
} from './catalogue';
import {
  captureProgressAfterPoll,
  MANUAL_BACKUP_RUN_POLLING,
  OFFBOARD_RUN_POLLING,
  ONBOARDING_RUN_POLLING,
  PIPELINE_CARD_RUN_POLLING,
  pollDelayMs,
  runOutcome,
  shouldPollAgain,
} from './run-status';

describe('pipeline catalogue', () => {
  it('fixes the ids of the specs', () => {
    expect(Object.values(FIXED_PIPELINE_IDS).sort((a, b) => a - b)).toEqual([
      55, 75, 178, 191, 212, 216,
    ]);
  });

  it('finds the Aegis folder pipelines by folder and name, not by id', () => {
    const deploy = fullBaselineDeployRun({ clientCode: 'ABC' });
    expect(deploy.pipeline.id).toBeUndefined();
    expect(
      matchesLocator(deploy.pipeline, {
        id: 999,
        name: 'Deploy Baseline Tenant Configuration',
        folder: '\\Aegis',
      }),
    ).toBe(true);
    expect(
      matchesLocator(deploy.pipeline, {
        id: 999,
        name: 'Deploy Baseline Tenant Configuration',
        folder: '\\Tenants',
      }),
    ).toBe(false);
    expect(offboardRun({ clientCode: 'ABC', components: ['a'] }).pipeline.name).toBe(
      'Remove Baseline Tenant Configuration',
    );
    expect(
      cataloguedPipelineOf({
        id: 1,
        name: 'Remove Baseline Tenant Configuration',
        folder: '\\Aegis',
      }),
    ).toBe('removeBaseline');
    expect(cataloguedPipelineOf({ id: 216, name: 'x', folder: '' })).toBe('capture');
  });

  it('builds every run body on main with no stages skipped', () => {
    for (const run of [
      fullBaselineDeployRun({ clientCode: 'ABC' }),
      backupRun({ clientCode: 'ABC' }),
      appListRun(101, '7zip'),
    ]) {
      expect(run.body.refName).toBe('refs/heads/main');
      expect(run.body.stagesToSkip).toEqual([]);
    }
    // the whole baseline: no Components (ADR 032: ClientCode names the tenant)
    expect(fullBaselineDeployRun({ clientCode: 'ABC' }).body.templateParameters).toEqual({
      ClientCode: 'ABC',
    });
    expect(() => fullBaselineDeployRun({ clientCode: 'abc' })).toThrow(InputError);
  });

  it('sends the backup with ClientCode and ManualRun true (spec 3 §7)', () => {
    const run = backupRun({ clientCode: 'ABC' });
    expect(run.pipeline.id).toBe(212);
    expect(run.body.templateParameters).toEqual({ ClientCode: 'ABC', ManualRun: 'true' });
    expect(() => backupRun({ clientCode: 'abc' })).toThrow(InputError);
  });

  it('JSON-encodes the capture exclusions only when not empty', () => {
    expect(captureRun({ clientCode: 'ABC', excludedPaths: [] }).body.templateParameters).toEqual({
      ClientCode: 'ABC',
      BaselineVersion: '1.0.0',
    });
    const run = captureRun({
      clientCode: 'ABC',
      excludedProperties: ['id', 'createdDateTime'],
      excludedPaths: ['/Office365'],
    });
    expect(run.pipeline.id).toBe(216);
    expect(run.body.templateParameters).toEqual({
      ClientCode: 'ABC',
      ExcludedProperties: '["id","createdDateTime"]',
      ExcludedPaths: '["/Office365"]',
      BaselineVersion: '1.0.0',
    });
  });

  it('sends the AppList as a single item and Components as a JSON array', () => {
    expect(appListRun(101, 'Google Chrome').body.templateParameters).toEqual({
      AppList: '["Google Chrome"]',
    });
    expect(
      deployComponentsRun({ clientCode: 'ABC', components: ['ATP', 'SharePoint'] }).body
        .templateParameters,
    ).toEqual({ ClientCode: 'ABC', Components: '["ATP","SharePoint"]' });
    expect(() => offboardRun({ clientCode: 'ABC', components: [] })).toThrow(/components/);
  });

  it('builds the onboarding bodies of spec 1 §7', () => {
    expect(
      appDeployOnboardingRun({
        clientCode: 'NEW',
        domain: 'new.example',
        clientTenantId: 't',
        enterpriseAppId: 'e',
      }).body.templateParameters,
    ).toEqual({
      ClientCode: 'NEW',
      Domain: 'new.example',
      ClientTenantID: 't',
      EnterpriseAppID: 'e',
    });
    const tenant = tenantOnboardingRun({
      clientCode: 'NEW',
      domain: 'new.example',
      subscriptionForLogin: 'Options IT',
      tenantId: 't',
      enrollInPowerSupport: true,
      region: 'uksouth',
    });
    expect(tenant.pipeline.id).toBe(178);
    expect(tenant.body.templateParameters).toEqual({
      ClientCode: 'NEW',
      Domain: 'new.example',
      subscriptionForLogin: 'Options IT',
      TenantId: 't',
      EnrollInPowerSupport: 'true',
      Region: 'uksouth',
    });
    expect(tenant.body.variables).toBeUndefined();
  });

  it('sends credentials only as secret variables, and redacts them', () => {
    const legacy = tenantOnboardingLegacyRun({
      clientCode: 'NEW',
      domain: 'new.example',
      subscriptionForLogin: 'Options IT',
      username: 'admin@new.example',
      password: 'S3cret!pw',
    });
    expect(legacy.pipeline.id).toBe(75);
    expect(legacy.body.templateParameters).toBeUndefined();
    expect(legacy.body.variables).toEqual({
      ClientCode: { value: 'NEW' },
      Domain: { value: 'new.example' },
      subscriptionForLogin: { value: 'Options IT' },
      TenantAdminUserName: { value: 'admin@new.example', isSecret: true },
      TenantAdminUserPW: { value: 'S3cret!pw', isSecret: true },
    });
    expect(secretValuesOf(legacy.body).sort()).toEqual(['S3cret!pw', 'admin@new.example']);
    const shown = JSON.stringify(redactRunBody(legacy.body));
    expect(shown).not.toContain('S3cret!pw');
    expect(shown).not.toContain('admin@new.example');
    expect(shown).toContain('new.example');

    const old = appDeployOnboardingLegacyRun({
      clientCode: 'NEW',
      domain: 'd',
      username: 'u',
      password: 'p',
    });
    expect(old.pipeline.id).toBe(55);
    expect(old.body.variables?.['TenantAdminUserPW']).toEqual({ value: 'p', isSecret: true });
    expect(() =>
      appDeployOnboardingLegacyRun({ clientCode: 'NEW', domain: 'd', username: 'u', password: '' }),
    ).toThrow(/password/);
  });
});

describe('isTenantPipelineFolder', () => {
  it('finds the Tenants folder however the service spells it, and nothing else', () => {
    for (const folder of ['\\Tenants\\ABC', 'Tenants\\ABC', '\\Tenants', '\\tenants\\ABC\\']) {
      expect(isTenantPipelineFolder(folder)).toBe(true);
    }
    for (const folder of [
      '\\ABC',
      '\\Aegis',
      '\\TenantsOld\\ABC',
      '\\ABC\\Tenants',
      '',
      undefined,
    ]) {
      expect(isTenantPipelineFolder(folder)).toBe(false);
    }
  });
});

describe('isOnboardingPipelineOf (spec 2 §5 already onboarded)', () => {
  it('is a pipeline under Tenants whose sub-folder or name contains the code', () => {
    expect(isOnboardingPipelineOf({ folder: '\\Tenants', name: 'TSP - Onboarding' }, 'TSP')).toBe(
      true,
    );
    expect(isOnboardingPipelineOf({ folder: '\\Tenants\\TSP', name: 'Deploy' }, 'TSP')).toBe(true);
    expect(isOnboardingPipelineOf({ folder: 'tenants\\', name: 'TSP' }, 'TSP')).toBe(true);
  });
  it('is nothing outside Tenants, for another code, or for the folder name Tenants itself', () => {
    expect(isOnboardingPipelineOf({ folder: '\\Aegis', name: 'TSP - Onboarding' }, 'TSP')).toBe(
      false,
    );
    expect(isOnboardingPipelineOf({ folder: '\\Tenants', name: 'ABC - Onboarding' }, 'TSP')).toBe(
      false,
    );
    expect(isOnboardingPipelineOf({ folder: '\\Tenants', name: 'x' }, 'ENA')).toBe(false);
    expect(isOnboardingPipelineOf({ folder: undefined, name: 'TSP' }, 'TSP')).toBe(false);
  });
  it("is the client's app-deployment pipeline, which app-deploy onboarding makes (ADR 055)", () => {
    expect(
      isOnboardingPipelineOf({ folder: '\\ADW', name: 'ADW - Workstation App Deployment' }, 'ADW'),
    ).toBe(true);
    expect(
      isOnboardingPipelineOf({ folder: 'adw', name: 'adw - workstation app deployment' }, 'ADW'),
    ).toBe(true);
    // another pipeline in the client's folder, or the app pipeline of another client, is not it
    expect(isOnboardingPipelineOf({ folder: '\\ADW', name: 'ADW - Printer Drivers' }, 'ADW')).toBe(
      false,
    );
    expect(
      isOnboardingPipelineOf({ folder: '\\QRS', name: 'ADW - Workstation App Deployment' }, 'ADW'),
    ).toBe(false);
  });
});

describe('run status rules', () => {
  it('polls onboarding after 3 s, then every 5 s, while inProgress', () => {
    expect(pollDelayMs(ONBOARDING_RUN_POLLING, 0)).toBe(3000);
    expect(pollDelayMs(ONBOARDING_RUN_POLLING, 1)).toBe(5000);
    expect(shouldPollAgain(ONBOARDING_RUN_POLLING, 'inProgress')).toBe(true);
    expect(shouldPollAgain(ONBOARDING_RUN_POLLING, 'completed')).toBe(false);
  });

  it('polls off-board every 10 s while inProgress or notStarted', () => {
    expect(pollDelayMs(OFFBOARD_RUN_POLLING, 3)).toBe(10_000);
    expect(shouldPollAgain(OFFBOARD_RUN_POLLING, 'notStarted')).toBe(true);
    expect(shouldPollAgain(OFFBOARD_RUN_POLLING, 'completed')).toBe(false);
  });

  it('polls the pipeline cards every 2 s until the run completes', () => {
    expect([0, 1, 5].map((i) => pollDelayMs(PIPELINE_CARD_RUN_POLLING, i))).toEqual([
      2000, 2000, 2000,
    ]);
    expect(shouldPollAgain(PIPELINE_CARD_RUN_POLLING, 'notStarted')).toBe(true);
    expect(shouldPollAgain(PIPELINE_CARD_RUN_POLLING, 'completed')).toBe(false);
  });

  it('reads a manual backup run when the backups reload, 5 s after the trigger, then every 5 s', () => {
    expect(pollDelayMs(MANUAL_BACKUP_RUN_POLLING, 0)).toBe(5000);
    expect(pollDelayMs(MANUAL_BACKUP_RUN_POLLING, 1)).toBe(5000);
    expect(shouldPollAgain(MANUAL_BACKUP_RUN_POLLING, 'inProgress')).toBe(true);
    expect(shouldPollAgain(MANUAL_BACKUP_RUN_POLLING, 'completed')).toBe(false);
  });

  it('moves capture progress 20, 30, … capped at 90, then 100 on success', () => {
    let p = 20;
    const seen: number[] = [];
    for (let i = 0; i < 9; i++) {
      p = captureProgressAfterPoll(p, { state: 'inProgress' });
      seen.push(p);
    }
    expect(seen).toEqual([30, 40, 50, 60, 70, 80, 90, 90, 90]);
    expect(captureProgressAfterPoll(90, { state: 'completed', result: 'succeeded' })).toBe(100);
    expect(captureProgressAfterPoll(50, { state: 'completed', result: 'failed' })).toBe(50);
  });

  it('tells success, error and warning apart', () => {
    expect(runOutcome({ state: 'inProgress' })).toBe('running');
    expect(runOutcome({ state: 'completed', result: 'succeeded' })).toBe('success');
    expect(runOutcome({ state: 'completed', result: 'failed' })).toBe('error');
    expect(runOutcome({ state: 'completed', result: 'canceled' })).toBe('warning');
  });
});

describe('AEGIS_PIPELINE_IDS: the organisation’s ids for the fixed pipelines', () => {
  it('reads key=id pairs with the catalogue keys', () => {
    expect(parsePipelineIdOverrides(' capture=1234, backup = 1301 ,')).toEqual({
      capture: 1234,
      backup: 1301,
    });
    expect(parsePipelineIdOverrides('')).toEqual({});
  });

  it('names the entry that is wrong', () => {
    expect(() => parsePipelineIdOverrides('captur=1')).toThrow(
      /'captur=1': 'captur' is not a fixed pipeline \(one of .*capture/,
    );
    expect(() => parsePipelineIdOverrides('capture=0')).toThrow(
      "'capture=0': the id must be a positive whole number",
    );
    expect(() => parsePipelineIdOverrides('backup=12=3')).toThrow(/'backup=12=3'/);
  });
});
