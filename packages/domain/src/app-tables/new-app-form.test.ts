import { describe, expect, it } from 'vitest';

import { DEFAULT_EXIT_CODES, DEFAULT_PARTITION_KEY, REQUIRED_APP_FIELDS } from './constants';
import {
  appFieldOptions,
  applyMsiRule,
  emptyNewAppForm,
  invalidSelectFields,
  isFieldDisabled,
  missingRequiredFields,
  newAppEntity,
  setAppField,
  setNewAppField,
} from './new-app-form';
import type { AppField, NewAppForm } from './types';

function filledForm(): NewAppForm {
  let form = emptyNewAppForm('0031');
  const values: Partial<NewAppForm> = {
    AppName: '7-Zip',
    Architecture: 'x64',
    Description: 'File archiver',
    Install: '7z2409-x64.exe /S',
    Publisher: 'Igor Pavlov',
    SoftwareName: '7-Zip 24.09 (x64)',
    InstallFileType: 'exe',
    UninstallFileType: 'exe',
    URI: 'https://www.7-zip.org/a/7z2409-x64.exe',
    DownloadFileType: 'exe',
    Uninstall: '/S',
    UninstallerLocation: 'C:\\Program Files\\7-Zip\\Uninstall.exe',
    Version: '24.09',
    AssignmentScopeAvailable: 'All Users',
    AssignmentScopeRequired: 'None',
    ProjectURL: 'https://www.7-zip.org',
    IconPath: 'https://www.7-zip.org/7ziplogo.png',
    InstallExperience: 'system',
  };
  for (const [field, value] of Object.entries(values)) {
    form = setNewAppField(form, field as AppField, value);
  }
  return form;
}

describe('new app form', () => {
  it('starts with the default exit codes, PartitionKey and the given RowKey', () => {
    const form = emptyNewAppForm('0001');
    expect(form.ExitCode).toBe(DEFAULT_EXIT_CODES);
    expect(DEFAULT_EXIT_CODES).toBe('@(0, 3010, 1605, 1614, 1641)');
    expect(form.PartitionKey).toBe(DEFAULT_PARTITION_KEY);
    expect(DEFAULT_PARTITION_KEY).toBe('appinfo-pk1');
    expect(form.RowKey).toBe('0001');
    expect(form.Status).toBe('Enabled');
  });

  it('lists every empty required field to highlight', () => {
    const missing = missingRequiredFields(emptyNewAppForm('0001'));
    expect(missing).toEqual(REQUIRED_APP_FIELDS.filter((f) => f !== 'ExitCode'));
  });

  it('accepts a filled form and keeps the optional fields optional', () => {
    const form = filledForm();
    expect(missingRequiredFields(form)).toEqual([]);
    expect(form.Channel).toBe('');
    expect(invalidSelectFields(form)).toEqual([]);
  });

  it('treats whitespace as empty', () => {
    const form = setNewAppField(filledForm(), 'Version', '   ');
    expect(missingRequiredFields(form)).toEqual(['Version']);
  });

  it("sets Uninstall to 'autouninstall' and clears and disables the location for msi", () => {
    const form = setNewAppField(filledForm(), 'UninstallFileType', 'msi');
    expect(form.Uninstall).toBe('autouninstall');
    expect(form.UninstallerLocation).toBe('');
    expect(isFieldDisabled(form, 'UninstallerLocation')).toBe(true);
    expect(isFieldDisabled(form, 'Uninstall')).toBe(false);
    expect(missingRequiredFields(form)).toEqual([]);
    // typing in the location while msi keeps it empty
    expect(setNewAppField(form, 'UninstallerLocation', 'C:\\x').UninstallerLocation).toBe('');
  });

  it('keeps Uninstall editable while msi: typing there is not overwritten', () => {
    const msi = setNewAppField(filledForm(), 'UninstallFileType', 'msi');
    const typed = setNewAppField(msi, 'Uninstall', 'autouninstall /norestart');
    expect(typed.Uninstall).toBe('autouninstall /norestart');
    // changing another field leaves the user's Uninstall alone too
    expect(setNewAppField(typed, 'Version', '25.01').Uninstall).toBe('autouninstall /norestart');
    expect(setNewAppField(msi, 'Uninstall', '').Uninstall).toBe('');
  });

  it('applies the msi rule to a form filled in one go', () => {
    const sent = { ...filledForm(), UninstallFileType: 'msi', Uninstall: '' };
    expect(applyMsiRule(sent)).toMatchObject({
      Uninstall: 'autouninstall',
      UninstallerLocation: '',
    });
    expect(applyMsiRule({ ...sent, Uninstall: 'custom' }).Uninstall).toBe('custom');
    const exe = filledForm();
    expect(applyMsiRule(exe)).toBe(exe);
  });

  it('does not require Uninstall or UninstallerLocation for msi even when blank', () => {
    const form = { ...setNewAppField(filledForm(), 'UninstallFileType', 'msi') };
    form.Uninstall = '';
    expect(missingRequiredFields(form)).toEqual([]);
  });

  it("clears 'autouninstall' and re-enables the location when switching back to exe", () => {
    const msi = setNewAppField(filledForm(), 'UninstallFileType', 'msi');
    const exe = setNewAppField(msi, 'UninstallFileType', 'exe');
    expect(exe.Uninstall).toBe('');
    expect(isFieldDisabled(exe, 'UninstallerLocation')).toBe(false);
    expect(missingRequiredFields(exe)).toEqual(['Uninstall', 'UninstallerLocation']);
  });

  it('rejects select values outside the options', () => {
    expect(invalidSelectFields(setNewAppField(filledForm(), 'Architecture', 'arm64'))).toEqual([
      'Architecture',
    ]);
  });

  it('builds the entity with its keys', () => {
    const entity = newAppEntity(filledForm());
    expect(entity.PartitionKey).toBe('appinfo-pk1');
    expect(entity.RowKey).toBe('0031');
    expect(entity.AppName).toBe('7-Zip');
    expect(entity.ExitCode).toBe('@(0, 3010, 1605, 1614, 1641)');
  });

  it('gives both forms the same selects, with the spec values', () => {
    expect(appFieldOptions('Architecture')).toEqual(['x64', 'x86']);
    expect(appFieldOptions('InstallExperience')).toEqual(['system', 'user']);
    expect(appFieldOptions('Status')).toEqual(['Enabled', 'Disabled']);
    expect(appFieldOptions('Version')).toBeUndefined();
    expect(appFieldOptions('toString')).toBeUndefined();
  });

  it("applies the msi rule to an existing row's properties without adding any", () => {
    const row = { AppName: 'Chrome', UninstallFileType: 'exe', UninstallerLocation: 'C:\\u.exe' };
    const msi = setAppField(row, 'UninstallFileType', 'msi');
    expect(msi).toEqual({ AppName: 'Chrome', UninstallFileType: 'msi', UninstallerLocation: '' });
    expect(isFieldDisabled(msi, 'UninstallerLocation')).toBe(true);
    expect(
      setAppField({ UninstallFileType: 'exe', Uninstall: 'u.exe' }, 'UninstallFileType', 'msi'),
    ).toEqual({ UninstallFileType: 'msi', Uninstall: 'autouninstall' });
  });
});
