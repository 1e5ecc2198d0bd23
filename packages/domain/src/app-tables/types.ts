/** A value stored in an app deployment table cell (Table storage property types the screens use). */
export type AppTableValue = string | number | boolean | null;

/**
 * One row of an app deployment table (spec 2 §3). The named fields are the ones the screens
 * know; a table may carry more properties (added with 'newProperty'), so the row is open.
 */
export interface AppTableEntity {
  PartitionKey: string;
  RowKey: string;
  timestamp?: string;
  etag?: string;
  [property: string]: AppTableValue | undefined;
}

/** The editable fields of the new-app form, in the spec's order (spec 2 §2). */
export const APP_FIELDS = [
  'AppName',
  'Architecture',
  'Channel',
  'CheckSum',
  'CheckSum64',
  'Description',
  'Install',
  'Publisher',
  'SoftwareName',
  'Stream',
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
  'TableVersion',
  'IconPath',
  'InstallExperience',
  'Status',
] as const;

export type AppField = (typeof APP_FIELDS)[number];

/** The new-app form's values: every field a string, keys fixed by the form. */
export type NewAppForm = Record<AppField, string> & { PartitionKey: string; RowKey: string };

export type AppStatus = 'Enabled' | 'Disabled';

export type SortDirection = 'ascending' | 'descending';
