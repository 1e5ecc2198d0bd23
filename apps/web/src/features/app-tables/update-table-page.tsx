import type { AppTableEntityDto } from '@aegis/contracts';
import {
  APP_FIELDS,
  APP_TABLE_MESSAGES,
  deletablePropertyNames,
  emptyNewAppForm,
  GENERAL_APPS_TABLE,
  isProtectedKey,
  missingRequiredFields,
  nextRowKey,
  type AppField,
  type NewAppForm,
} from '@aegis/domain';
import {
  Button,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Select,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowLeftRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { useNavigate } from 'react-router';

import { PageHeader } from '../../components/page-header';
import { RoleGate } from '../../components/role-gate';
import { paths } from '../../config/paths';

import {
  useAddApp,
  useAddProperty,
  useCopyApps,
  useDeleteApps,
  useDeleteProperty,
  useTableRows,
  useTables,
  useUpdateApp,
} from './api/app-tables';
import { AppChecklist } from './components/app-checklist';
import { AppFields } from './components/app-field';
import { NewAppFormFields } from './components/new-app-form';
import { failureMessage, operationMessage } from './components/result-message';
import { TableLinks } from './components/table-links';
import { TableMessageBar, type TableMessage } from './components/table-message-bar';
import { useTableAlert } from './components/use-table-alert';

/** The update types of spec 2 §2, in its order. */
const UPDATE_TYPES = [
  { value: 'existing', label: 'existing: add apps from the general table' },
  { value: 'new', label: 'new: add a new app' },
  { value: 'newProperty', label: 'newProperty: add a property to every app' },
  { value: 'delete', label: 'delete: delete apps' },
  { value: 'deleteProperty', label: 'deleteProperty: delete a property from every app' },
  { value: 'update', label: 'update: update an app' },
] as const;
type UpdateType = (typeof UPDATE_TYPES)[number]['value'];

const useStyles = makeStyles({
  selectors: { display: 'flex', gap: '16px', flexWrap: 'wrap', alignItems: 'flex-end' },
  selector: { minWidth: '280px' },
  appPicker: { minWidth: '280px', maxWidth: '560px' },
  section: { marginTop: '16px', display: 'flex', flexDirection: 'column', gap: '12px' },
  row: { display: 'flex', gap: '12px', flexWrap: 'wrap', alignItems: 'flex-end' },
  hint: { flexBasis: '100%', color: tokens.colorNeutralForeground3 },
});

/** A row's editable properties as text. */
function editableProperties(row: AppTableEntityDto): Record<string, string> {
  return Object.fromEntries(
    Object.entries(row)
      .filter(([key]) => !isProtectedKey(key) && !key.startsWith('odata.'))
      .map(([key, value]) => [key, value === null || value === undefined ? '' : String(value)]),
  );
}

/** The update form's order: the app fields as in the new-app form, then any other property. */
function editableFieldOrder(values: Record<string, string>): string[] {
  const known: readonly string[] = APP_FIELDS;
  return [
    ...known.filter((field) => field in values),
    ...Object.keys(values).filter((field) => !known.includes(field)),
  ];
}

/** Update Existing App Deploy Table (spec 2 §2, §5, §8). */
export function UpdateTablePage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const tables = useTables();
  const [table, setTable] = useState('');
  const [type, setType] = useState<UpdateType | ''>('');
  // selection and contents, reset when the table or the type changes
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [form, setForm] = useState<NewAppForm>();
  const [propertyName, setPropertyName] = useState('');
  const [propertyValue, setPropertyValue] = useState('');
  const [appKey, setAppKey] = useState('');
  // the selected app's values as edited (undefined: as stored)
  const [edits, setEdits] = useState<Record<string, string>>();

  const general = useTableRows(type === 'existing' ? GENERAL_APPS_TABLE : undefined);
  const rows = useTableRows(table && type && type !== 'existing' ? table : undefined);
  const copyApps = useCopyApps();
  const addApp = useAddApp();
  const addProperty = useAddProperty();
  const deleteApps = useDeleteApps();
  const deleteProperty = useDeleteProperty();
  const updateApp = useUpdateApp();

  function resetContents() {
    setSelected(new Set());
    setForm(undefined);
    setPropertyName('');
    setPropertyValue('');
    setAppKey('');
    setEdits(undefined);
  }

  function chooseTable(next: string) {
    setTable(next);
    setType('');
    alert.clear();
    resetContents();
  }

  function chooseType(next: UpdateType | '') {
    setType(next);
    alert.clear();
    resetContents();
  }

  const tableRows = rows.data?.rows ?? [];
  // the new-app form starts once the table's rows are known, so RowKey is the next one
  const currentForm =
    form ??
    (type === 'new' && !rows.isPending ? emptyNewAppForm(nextRowKey(rows.data?.rows)) : undefined);
  const selectedApp = tableRows.find((row) => `${row.PartitionKey}/${row.RowKey}` === appKey);
  const appValues = edits ?? (selectedApp ? editableProperties(selectedApp) : undefined);
  const alert = useTableAlert({
    existing: () => (selected.size === 0 ? APP_TABLE_MESSAGES.selectApplication : undefined),
    new: () =>
      currentForm && missingRequiredFields(currentForm).length > 0
        ? APP_TABLE_MESSAGES.fillRequired
        : undefined,
    newProperty: () =>
      !propertyName.trim() || !propertyValue.trim() ? APP_TABLE_MESSAGES.fillProperty : undefined,
    delete: () => (selected.size === 0 ? APP_TABLE_MESSAGES.selectApplication : undefined),
    deleteProperty: () =>
      !propertyName
        ? APP_TABLE_MESSAGES.selectProperty
        : isProtectedKey(propertyName)
          ? APP_TABLE_MESSAGES.protectedProperty(propertyName)
          : undefined,
    update: () => (selectedApp ? undefined : APP_TABLE_MESSAGES.selectAppToUpdate),
  });
  // empty required fields are highlighted while the 'fill in' alert stands
  const highlight = new Set<AppField>(
    alert.failing === 'new' && currentForm ? missingRequiredFields(currentForm) : [],
  );

  async function run<T>(
    action: () => Promise<T>,
    onResult: (result: T) => TableMessage,
    errorText: (details: string) => string,
  ) {
    try {
      alert.show(onResult(await action()));
    } catch (error) {
      alert.show(failureMessage(error, errorText));
    }
  }

  async function submitExisting() {
    if (!alert.passes('existing')) return;
    await run(
      () => copyApps.mutateAsync({ table, rowKeys: [...selected] }),
      (result) => {
        if (result.failed.length === 0) setSelected(new Set());
        return operationMessage(result, APP_TABLE_MESSAGES.errorUpdatingTable);
      },
      APP_TABLE_MESSAGES.errorUpdatingTable,
    );
  }

  async function submitNewApp() {
    if (!currentForm || !alert.passes('new')) return;
    const { PartitionKey: _pk, RowKey: _rk, ...app } = currentForm;
    await run(
      () => addApp.mutateAsync({ table, app }),
      (result) => {
        if (result.failed.length === 0) setForm(undefined);
        return operationMessage(result, APP_TABLE_MESSAGES.errorAddingApp);
      },
      APP_TABLE_MESSAGES.errorAddingApp,
    );
  }

  async function submitNewProperty() {
    if (!alert.passes('newProperty')) return;
    const name = propertyName.trim();
    await run(
      () => addProperty.mutateAsync({ table, name, value: propertyValue }),
      (result) => {
        if (result.failed.length === 0) {
          setPropertyName('');
          setPropertyValue('');
        }
        return operationMessage(result, APP_TABLE_MESSAGES.errorAddingProperty);
      },
      APP_TABLE_MESSAGES.errorAddingProperty,
    );
  }

  async function submitDelete() {
    if (!alert.passes('delete')) return;
    const keys = tableRows
      .filter((row) => selected.has(row.RowKey))
      .map((row) => ({ partitionKey: row.PartitionKey, rowKey: row.RowKey }));
    await run(
      () => deleteApps.mutateAsync({ table, keys }),
      (result) => {
        setSelected(new Set());
        return operationMessage(result, APP_TABLE_MESSAGES.errorDeletingEntities);
      },
      APP_TABLE_MESSAGES.errorDeletingEntities,
    );
  }

  async function submitDeleteProperty() {
    if (!alert.passes('deleteProperty')) return;
    await run(
      () => deleteProperty.mutateAsync({ table, name: propertyName }),
      (result) => {
        setPropertyName('');
        return operationMessage(result, APP_TABLE_MESSAGES.errorDeletingProperty);
      },
      APP_TABLE_MESSAGES.errorDeletingProperty,
    );
  }

  async function submitUpdate() {
    if (!alert.passes('update') || !selectedApp || !appValues) return;
    const properties = appValues;
    await run(
      () =>
        updateApp.mutateAsync({
          table,
          keys: { partitionKey: selectedApp.PartitionKey, rowKey: selectedApp.RowKey },
          properties,
          etag: selectedApp.etag,
        }),
      (result) => {
        setEdits(undefined);
        return operationMessage(result, APP_TABLE_MESSAGES.errorUpdatingApp);
      },
      APP_TABLE_MESSAGES.errorUpdatingApp,
    );
  }

  const busy =
    copyApps.isPending ||
    addApp.isPending ||
    addProperty.isPending ||
    deleteApps.isPending ||
    deleteProperty.isPending ||
    updateApp.isPending;

  return (
    <>
      <PageHeader
        title="Update Existing App Deploy Table"
        subtitle="Add, change or delete apps and properties of a client's table"
        actions={
          <Button
            icon={<ArrowLeftRegular />}
            onClick={() => void navigate(paths.storageTablesList.getHref())}
          >
            Return to Tables
          </Button>
        }
      />
      <TableLinks current={paths.updateExistingTable.getHref()} />
      <div className={styles.section}>
        <div className={styles.selectors}>
          <Field label="Table" className={styles.selector}>
            <Select value={table} onChange={(_event, data) => chooseTable(data.value)}>
              <option value="">{tables.isPending ? 'Loading tables…' : 'Select a table'}</option>
              {(tables.data?.tables ?? []).map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Update type" className={styles.selector}>
            <Select
              value={type}
              disabled={!table}
              onChange={(_event, data) => chooseType(data.value as UpdateType | '')}
            >
              <option value="">Select an update type</option>
              {UPDATE_TYPES.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Select>
          </Field>
          {busy && <Spinner size="tiny" label="Saving..." />}
        </div>
        {tables.isError && (
          <MessageBar intent="error">
            <MessageBarBody>Could not load the tables: {tables.error.message}</MessageBarBody>
          </MessageBar>
        )}
        <TableMessageBar message={alert.message} />
        {rows.isError && (
          <MessageBar intent="error">
            <MessageBarBody>
              Could not load {table}: {rows.error.message}
            </MessageBarBody>
          </MessageBar>
        )}
        {!table && <Text>Select a table, then what to change.</Text>}

        {table && type === 'existing' && (
          <>
            <AppChecklist
              label={`Applications in ${GENERAL_APPS_TABLE}`}
              rows={general.data?.rows ?? []}
              loading={general.isPending}
              selected={selected}
              onChange={setSelected}
            />
            <div className={styles.row}>
              <RoleGate needs="Operator">
                <Button appearance="primary" onClick={() => void submitExisting()} disabled={busy}>
                  Add Selected Apps
                </Button>
              </RoleGate>
            </div>
          </>
        )}

        {table && type === 'new' && (
          <>
            {currentForm ? (
              <NewAppFormFields form={currentForm} onChange={setForm} highlight={highlight} />
            ) : (
              <Spinner label="Loading table..." />
            )}
            <div className={styles.row}>
              <RoleGate needs="Operator">
                <Button
                  appearance="primary"
                  onClick={() => void submitNewApp()}
                  disabled={busy || !currentForm}
                >
                  Add New App
                </Button>
              </RoleGate>
            </div>
          </>
        )}

        {table && type === 'newProperty' && (
          <div className={styles.row}>
            <Field label="Property Name">
              <Input
                value={propertyName}
                onChange={(_event, data) => setPropertyName(data.value)}
              />
            </Field>
            <Field label="Property Value">
              <Input
                value={propertyValue}
                onChange={(_event, data) => setPropertyValue(data.value)}
              />
            </Field>
            <RoleGate needs="Operator">
              <Button appearance="primary" onClick={() => void submitNewProperty()} disabled={busy}>
                Add Property
              </Button>
            </RoleGate>
          </div>
        )}

        {table && type === 'delete' && (
          <>
            <AppChecklist
              label={`Applications in ${table}`}
              rows={tableRows}
              loading={rows.isPending}
              selected={selected}
              onChange={setSelected}
            />
            <div className={styles.row}>
              <RoleGate needs="Operator">
                <Button appearance="primary" onClick={() => void submitDelete()} disabled={busy}>
                  Delete Selected Apps
                </Button>
              </RoleGate>
            </div>
          </>
        )}

        {table && type === 'deleteProperty' && (
          <div className={styles.row}>
            <Field label="Property" className={styles.selector}>
              <Select
                value={propertyName}
                aria-describedby="protected-keys-hint"
                onChange={(_event, data) => setPropertyName(data.value)}
              >
                <option value="">
                  {rows.isPending ? 'Loading properties…' : 'Select a property'}
                </option>
                {deletablePropertyNames(tableRows).map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </Select>
            </Field>
            <RoleGate needs="Operator">
              <Button
                appearance="primary"
                onClick={() => void submitDeleteProperty()}
                disabled={busy}
              >
                Delete Property
              </Button>
            </RoleGate>
            <Text id="protected-keys-hint" className={styles.hint}>
              PartitionKey, RowKey, timestamp and etag cannot be deleted.
            </Text>
          </div>
        )}

        {table && type === 'update' && (
          <>
            <Field label="App" className={styles.appPicker}>
              <Select
                value={appKey}
                onChange={(_event, data) => {
                  setAppKey(data.value);
                  setEdits(undefined);
                }}
              >
                <option value="">{rows.isPending ? 'Loading apps…' : 'Select an app'}</option>
                {tableRows.map((row) => (
                  <option key={row.RowKey} value={`${row.PartitionKey}/${row.RowKey}`}>
                    {String(row.AppName ?? row.RowKey)} ({row.RowKey})
                  </option>
                ))}
              </Select>
            </Field>
            {selectedApp && appValues && (
              <AppFields
                partitionKey={selectedApp.PartitionKey}
                rowKey={selectedApp.RowKey}
                fields={editableFieldOrder(appValues)}
                values={appValues}
                onChange={setEdits}
              />
            )}
            <div className={styles.row}>
              <RoleGate needs="Operator">
                <Button appearance="primary" onClick={() => void submitUpdate()} disabled={busy}>
                  Update App
                </Button>
              </RoleGate>
            </div>
          </>
        )}
      </div>
    </>
  );
}
