import {
  APP_SELECT_OPTIONS,
  DEFAULT_EXIT_CODES,
  DEFAULT_PARTITION_KEY,
  MSI_UNINSTALL,
  REQUIRED_APP_FIELDS,
} from './constants';
import type { AppSelectField } from './constants';
import { APP_FIELDS } from './types';
import type { AppField, AppTableEntity, NewAppForm } from './types';

/** An empty new-app form with the defaults of spec 2 §2 and the table's next RowKey. */
export function emptyNewAppForm(rowKey: string): NewAppForm {
  const form = Object.fromEntries(APP_FIELDS.map((field) => [field, ''])) as Record<
    AppField,
    string
  >;
  return {
    ...form,
    ExitCode: DEFAULT_EXIT_CODES,
    Status: APP_SELECT_OPTIONS.Status[0],
    PartitionKey: DEFAULT_PARTITION_KEY,
    RowKey: rowKey,
  };
}

/**
 * An app's values as a form edits them: the new-app form's, or the properties of an existing
 * row in the update form (which may lack some fields and carry others).
 */
export type AppValues = Readonly<Record<string, string | undefined>>;

function isMsiUninstall(form: AppValues): boolean {
  return (form.UninstallFileType ?? '').trim().toLowerCase() === 'msi';
}

/**
 * The allowed values of a field shown as a select (spec 2 §5), or undefined for a free-text
 * field. The new-app and update forms both ask this, so they offer the same fields.
 */
export function appFieldOptions(field: string): readonly string[] | undefined {
  return Object.hasOwn(APP_SELECT_OPTIONS, field)
    ? APP_SELECT_OPTIONS[field as AppSelectField]
    : undefined;
}

/** Whether a field is disabled in the form: the uninstaller location when uninstall is msi. */
export function isFieldDisabled(form: AppValues, field: string): boolean {
  return field === 'UninstallerLocation' && isMsiUninstall(form);
}

/**
 * Sets one field of the form and applies the msi rule (spec 2 §2): choosing msi as the uninstall
 * file type sets Uninstall to 'autouninstall'; while msi, the uninstaller location stays cleared
 * (the field is disabled) but Uninstall remains editable. Leaving msi drops 'autouninstall'.
 * The rule sets Uninstall and UninstallerLocation only where the values have them, so an existing
 * row is not given properties it lacks.
 */
export function setAppField<T extends AppValues>(form: T, field: string, value: string): T {
  const next: Record<string, string | undefined> = { ...form, [field]: value };
  const wasMsi = isMsiUninstall(form);
  const has = (name: string) => name in form;
  if (isMsiUninstall(next)) {
    if (has('UninstallerLocation')) next.UninstallerLocation = '';
    if (field === 'UninstallFileType' && !wasMsi && has('Uninstall'))
      next.Uninstall = MSI_UNINSTALL;
  } else if (field === 'UninstallFileType' && wasMsi && form.Uninstall === MSI_UNINSTALL) {
    next.Uninstall = '';
  }
  return next as T;
}

/** `setAppField` for the new-app form. */
export function setNewAppField(form: NewAppForm, field: AppField, value: string): NewAppForm {
  return setAppField(form, field, value);
}

/**
 * The msi rule for a form filled in one go (a request to the server): with an msi uninstall
 * file type the uninstaller location is cleared and a blank Uninstall becomes 'autouninstall'.
 */
export function applyMsiRule(form: NewAppForm): NewAppForm {
  if (!isMsiUninstall(form)) return form;
  return {
    ...form,
    Uninstall: form.Uninstall.trim() === '' ? MSI_UNINSTALL : form.Uninstall,
    UninstallerLocation: '',
  };
}

/** The fields required for this form: Uninstall and UninstallerLocation not when msi. */
export function requiredFields(form: Pick<NewAppForm, 'UninstallFileType'>): AppField[] {
  return REQUIRED_APP_FIELDS.filter(
    (field) =>
      !(isMsiUninstall(form) && (field === 'Uninstall' || field === 'UninstallerLocation')),
  );
}

/** The required fields left empty (to highlight); an empty list means the form is valid. */
export function missingRequiredFields(form: NewAppForm): AppField[] {
  return requiredFields(form).filter((field) => form[field].trim() === '');
}

/** Select values outside the spec's options, e.g. Architecture 'arm'. */
export function invalidSelectFields(form: NewAppForm): AppField[] {
  return (Object.keys(APP_SELECT_OPTIONS) as (keyof typeof APP_SELECT_OPTIONS)[]).filter(
    (field) =>
      form[field] !== '' && !(APP_SELECT_OPTIONS[field] as readonly string[]).includes(form[field]),
  );
}

/** The entity to store for a valid form: PartitionKey and RowKey as given, optional blanks kept. */
export function newAppEntity(form: NewAppForm): AppTableEntity {
  const entity: AppTableEntity = {
    PartitionKey: form.PartitionKey || DEFAULT_PARTITION_KEY,
    RowKey: form.RowKey,
  };
  for (const field of APP_FIELDS) entity[field] = form[field];
  return entity;
}
