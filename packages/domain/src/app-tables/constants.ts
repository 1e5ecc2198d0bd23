import type { AppField, AppStatus } from './types';

/** Default PartitionKey of every app row (spec 2 §9). */
export const DEFAULT_PARTITION_KEY = 'appinfo-pk1';

/** The general workstation table, the source of apps (spec 2 §3). */
export const GENERAL_APPS_TABLE = 'GENWorkstationApps';

/** Suffix of a client's app table: '{ClientCode}WorkstationApps' (spec 2 §3). */
export const CLIENT_APPS_TABLE_SUFFIX = 'WorkstationApps';

/** The new-app form's default exit codes text (spec 2 §2). */
export const DEFAULT_EXIT_CODES = '@(0, 3010, 1605, 1614, 1641)';

/** Uninstall value forced when the uninstall file type is msi (spec 2 §2). */
export const MSI_UNINSTALL = 'autouninstall';

export const APP_STATUSES: readonly AppStatus[] = ['Enabled', 'Disabled'];

/** Options of the new-app form's selects (spec 2 §5). */
export const APP_SELECT_OPTIONS = {
  Architecture: ['x64', 'x86'],
  DownloadFileType: ['exe', 'msi', 'zip'],
  InstallExperience: ['system', 'user'],
  UninstallFileType: ['exe', 'msi'],
  InstallFileType: ['exe', 'msi'],
  Status: ['Enabled', 'Disabled'],
} as const satisfies Partial<Record<AppField, readonly string[]>>;

export type AppSelectField = keyof typeof APP_SELECT_OPTIONS;

/** Required non-empty fields of the new-app form (spec 2 §5). */
export const REQUIRED_APP_FIELDS: readonly AppField[] = [
  'AppName',
  'Architecture',
  'Description',
  'Install',
  'Publisher',
  'SoftwareName',
  'InstallFileType',
  'UninstallFileType',
  'URI',
  'DownloadFileType',
  'Uninstall',
  'UninstallerLocation',
  'Version',
  'ExitCode',
  'AssignmentScopeAvailable',
  'AssignmentScopeRequired',
  'ProjectURL',
  'IconPath',
  'InstallExperience',
];

/** Optional fields of the new-app form (spec 2 §5). */
export const OPTIONAL_APP_FIELDS: readonly AppField[] = [
  'Channel',
  'CheckSum',
  'CheckSum64',
  'Stream',
  'TableVersion',
];

/** Keys no one may delete from a table's rows (spec 2 §5). */
export const PROTECTED_KEYS = ['PartitionKey', 'RowKey', 'timestamp', 'etag'] as const;

/** Alerts and banners of the table screens, verbatim where the spec quotes them (spec 2 §5, §8). */
export const APP_TABLE_MESSAGES = {
  enterClientCode: 'Please enter a client code.',
  clientCodeFormat: 'Client code must be exactly 3 uppercase letters.',
  selectApplication: 'Please select at least one application.',
  noTableToUpdate: 'No table to update. Please create a table first.',
  fillRequired: 'Please fill in all the required fields.',
  fillProperty: 'Please fill in both property name and value.',
  selectProperty: 'Please select the property name.',
  selectAppToUpdate: 'Please select an app to update.',
  protectedProperty: (name: string) => `The property ${name} cannot be deleted.`,
  unexpected: (message: string) => `Unexpected error: ${message}`,
  errorCreatingTable: (details: string) => `Error creating table: ${details}`,
  errorUpdatingTable: (details: string) => `Error updating table: ${details}`,
  errorDeletingEntities: (details: string) => `Error deleting some entities from table: ${details}`,
  errorAddingApp: (details: string) => `Error adding new app: ${details}`,
  errorAddingProperty: (details: string) => `Error adding new property: ${details}`,
  errorDeletingProperty: (details: string) => `Error deleting property: ${details}`,
  errorUpdatingApp: (details: string) => `Error updating app: ${details}`,
  tableCreated: (table: string) => `Table ${table} created successfully.`,
  tableUpdated: 'Table updated with selected applications.',
  appsDeleted: 'Selected applications deleted.',
  appAdded: 'New app added.',
  propertyAdded: (name: string) => `Property ${name} added to all entities.`,
  propertyDeleted: (name: string) => `Property ${name} deleted from all entities.`,
  appUpdated: 'App updated.',
} as const;
