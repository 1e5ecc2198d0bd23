import type { AppTableEntityDto } from '@aegis/contracts';
import {
  APP_FIELDS,
  APP_TABLE_MESSAGES,
  emptyNewAppForm,
  isProtectedKey,
  missingRequiredFields,
  nextRowKey,
  type NewAppForm,
} from '@aegis/domain';

/** The update types of spec 2 §2, in its order. */
export const UPDATE_TYPES = [
  { value: 'existing', label: 'existing: add apps from the general table' },
  { value: 'new', label: 'new: add a new app' },
  { value: 'newProperty', label: 'newProperty: add a property to every app' },
  { value: 'delete', label: 'delete: delete apps' },
  { value: 'deleteProperty', label: 'deleteProperty: delete a property from every app' },
  { value: 'update', label: 'update: update an app' },
] as const;
export type UpdateType = (typeof UPDATE_TYPES)[number]['value'];

export const isUpdateType = (value: string): value is UpdateType =>
  UPDATE_TYPES.some((option) => option.value === value);

/** What the technician has entered for the chosen update type; it starts empty with each type. */
export type UpdateContents =
  | { type: '' }
  | { type: 'existing' | 'delete'; selected: ReadonlySet<string> }
  /** undefined: the empty form, numbered once the table's rows are known */
  | { type: 'new'; form: NewAppForm | undefined }
  | { type: 'newProperty'; name: string; value: string }
  | { type: 'deleteProperty'; name: string }
  /** edits undefined: the chosen app's values as stored */
  | { type: 'update'; appKey: string; edits: Record<string, string> | undefined };

export interface UpdateTableState {
  table: string;
  contents: UpdateContents;
}

export type UpdateTableAction =
  | { type: 'chooseTable'; table: string }
  | { type: 'chooseType'; updateType: UpdateType | '' }
  | { type: 'select'; selected: ReadonlySet<string> }
  | { type: 'editForm'; form: NewAppForm }
  | { type: 'editProperty'; name?: string; value?: string }
  | { type: 'chooseApp'; appKey: string }
  | { type: 'editApp'; edits: Record<string, string> }
  /** A request of `updateType` on `table` answered; `complete` when no row failed. */
  | { type: 'answered'; table: string; updateType: UpdateType; complete: boolean };

export const initialUpdateTableState: UpdateTableState = { table: '', contents: { type: '' } };

function emptyContents(type: UpdateType | ''): UpdateContents {
  switch (type) {
    case '':
      return { type };
    case 'existing':
    case 'delete':
      return { type, selected: new Set() };
    case 'new':
      return { type, form: undefined };
    case 'newProperty':
      return { type, name: '', value: '' };
    case 'deleteProperty':
      return { type, name: '' };
    case 'update':
      return { type, appKey: '', edits: undefined };
  }
}

/**
 * What an answered request leaves of the contents: a change that went through in full is not
 * offered again; a delete, a property deletion and an update start over whatever the answer.
 */
function afterAnswer(contents: UpdateContents, complete: boolean): UpdateContents {
  switch (contents.type) {
    case 'existing':
      return complete ? emptyContents('existing') : contents;
    case 'new':
      return complete ? emptyContents('new') : contents;
    case 'newProperty':
      return complete ? emptyContents('newProperty') : contents;
    case 'delete':
      return emptyContents('delete');
    case 'deleteProperty':
      return { ...contents, name: '' };
    case 'update':
      return { ...contents, edits: undefined };
    case '':
      return contents;
  }
}

/**
 * The Update Existing App Deploy Table screen as a state machine: a table, then an update type,
 * then that type's contents. An action that does not fit the current type leaves the state as it
 * is, and an answer to a request made for another table or type no longer touches the contents.
 */
export function updateTableReducer(
  state: UpdateTableState,
  action: UpdateTableAction,
): UpdateTableState {
  const { contents } = state;
  const withContents = (next: UpdateContents) => ({ ...state, contents: next });
  switch (action.type) {
    case 'chooseTable':
      return { table: action.table, contents: emptyContents('') };
    case 'chooseType':
      return state.table ? withContents(emptyContents(action.updateType)) : state;
    case 'select':
      return contents.type === 'existing' || contents.type === 'delete'
        ? withContents({ ...contents, selected: action.selected })
        : state;
    case 'editForm':
      return contents.type === 'new' ? withContents({ ...contents, form: action.form }) : state;
    case 'editProperty':
      if (contents.type === 'newProperty')
        return withContents({
          ...contents,
          name: action.name ?? contents.name,
          value: action.value ?? contents.value,
        });
      if (contents.type === 'deleteProperty' && action.name !== undefined)
        return withContents({ ...contents, name: action.name });
      return state;
    case 'chooseApp':
      return contents.type === 'update'
        ? withContents({ type: 'update', appKey: action.appKey, edits: undefined })
        : state;
    case 'editApp':
      return contents.type === 'update'
        ? withContents({ ...contents, edits: action.edits })
        : state;
    case 'answered': {
      if (action.table !== state.table || action.updateType !== contents.type) return state;
      const next = afterAnswer(contents, action.complete);
      return next === contents ? state : withContents(next);
    }
  }
}

/** A row's editable properties as text. */
export function editableProperties(row: AppTableEntityDto): Record<string, string> {
  return Object.fromEntries(
    Object.entries(row)
      .filter(([key]) => !isProtectedKey(key) && !key.startsWith('odata.'))
      .map(([key, value]) => [key, value === null || value === undefined ? '' : String(value)]),
  );
}

/** The update form's order: the app fields as in the new-app form, then any other property. */
export function editableFieldOrder(values: Record<string, string>): string[] {
  const known: readonly string[] = APP_FIELDS;
  return [
    ...known.filter((field) => field in values),
    ...Object.keys(values).filter((field) => !known.includes(field)),
  ];
}

export const appKeyOf = (row: AppTableEntityDto) => `${row.PartitionKey}/${row.RowKey}`;

/** The new-app form as shown: the empty one starts once the rows are known, so RowKey is next. */
export function shownNewAppForm(
  contents: UpdateContents,
  rows: readonly AppTableEntityDto[] | undefined,
  rowsPending: boolean,
): NewAppForm | undefined {
  if (contents.type !== 'new') return undefined;
  return contents.form ?? (rowsPending ? undefined : emptyNewAppForm(nextRowKey(rows)));
}

/** The app chosen for an update, among the table's rows. */
export function chosenApp(contents: UpdateContents, rows: readonly AppTableEntityDto[]) {
  return contents.type === 'update'
    ? rows.find((row) => appKeyOf(row) === contents.appKey)
    : undefined;
}

/** Why the request of the current type cannot be sent (spec 2 §8's alerts), if it cannot. */
export function updateProblem(
  contents: UpdateContents,
  shown: { form: NewAppForm | undefined; app: AppTableEntityDto | undefined },
): string | undefined {
  switch (contents.type) {
    case 'existing':
    case 'delete':
      return contents.selected.size === 0 ? APP_TABLE_MESSAGES.selectApplication : undefined;
    case 'new':
      return shown.form && missingRequiredFields(shown.form).length > 0
        ? APP_TABLE_MESSAGES.fillRequired
        : undefined;
    case 'newProperty':
      return !contents.name.trim() || !contents.value.trim()
        ? APP_TABLE_MESSAGES.fillProperty
        : undefined;
    case 'deleteProperty':
      if (!contents.name) return APP_TABLE_MESSAGES.selectProperty;
      return isProtectedKey(contents.name)
        ? APP_TABLE_MESSAGES.protectedProperty(contents.name)
        : undefined;
    case 'update':
      return shown.app ? undefined : APP_TABLE_MESSAGES.selectAppToUpdate;
    case '':
      return undefined;
  }
}
