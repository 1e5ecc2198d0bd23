import { APP_TABLE_MESSAGES, deletablePropertyNames, GENERAL_APPS_TABLE } from '@aegis/domain';
import {
  Button,
  Field,
  Input,
  makeStyles,
  Select,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import type { ReactNode } from 'react';

import { RoleGate } from '../../../components/role-gate';
import {
  useAddApp,
  useAddProperty,
  useCopyApps,
  useDeleteApps,
  useDeleteProperty,
  useUpdateApp,
} from '../api/app-tables';
import { appKeyOf, editableFieldOrder } from '../hooks/update-table-flow';
import type { UpdateTableFlow } from '../hooks/use-update-table-flow';

import { AppChecklist } from './app-checklist';
import { AppFields } from './app-field';
import { NewAppFormFields } from './new-app-form';

const useStyles = makeStyles({
  selector: { minWidth: '280px' },
  appPicker: { minWidth: '280px', maxWidth: '560px' },
  row: { display: 'flex', gap: '12px', flexWrap: 'wrap', alignItems: 'flex-end' },
  hint: { flexBasis: '100%', color: tokens.colorNeutralForeground3 },
});

interface PanelProps {
  flow: UpdateTableFlow;
}

/** A panel's action button, for Operators. */
function SubmitButton({
  onClick,
  disabled,
  children,
}: {
  onClick: () => void;
  disabled: boolean;
  children: ReactNode;
}) {
  return (
    <RoleGate needs="Operator">
      <Button appearance="primary" onClick={onClick} disabled={disabled}>
        {children}
      </Button>
    </RoleGate>
  );
}

/** existing: copies apps of the general table into the client's table. */
export function ExistingAppsPanel({ flow }: PanelProps) {
  const styles = useStyles();
  const copyApps = useCopyApps();
  const { contents, table } = flow;
  if (contents.type !== 'existing') return null;
  return (
    <>
      <AppChecklist
        label={`Applications in ${GENERAL_APPS_TABLE}`}
        rows={flow.general.data?.rows ?? []}
        loading={flow.general.isPending}
        selected={contents.selected}
        onChange={(selected) => flow.dispatch({ type: 'select', selected })}
      />
      <div className={styles.row}>
        <SubmitButton
          disabled={flow.busy}
          onClick={() =>
            void flow.submit(
              'existing',
              () => copyApps.mutateAsync({ table, rowKeys: [...contents.selected] }),
              APP_TABLE_MESSAGES.errorUpdatingTable,
            )
          }
        >
          Add Selected Apps
        </SubmitButton>
      </div>
    </>
  );
}

/** new: adds one app, RowKey numbered after the table's last. */
export function NewAppPanel({ flow }: PanelProps) {
  const styles = useStyles();
  const addApp = useAddApp();
  const { form, table } = flow;
  return (
    <>
      {form ? (
        <NewAppFormFields
          form={form}
          onChange={(next) => flow.dispatch({ type: 'editForm', form: next })}
          highlight={flow.highlight}
        />
      ) : (
        <Spinner label="Loading table..." />
      )}
      <div className={styles.row}>
        <SubmitButton
          disabled={flow.busy || !form}
          onClick={() => {
            if (!form) return;
            const { PartitionKey: _pk, RowKey: _rk, ...app } = form;
            void flow.submit(
              'new',
              () => addApp.mutateAsync({ table, app }),
              APP_TABLE_MESSAGES.errorAddingApp,
            );
          }}
        >
          Add New App
        </SubmitButton>
      </div>
    </>
  );
}

/** newProperty: adds a property with one value to every app. */
export function NewPropertyPanel({ flow }: PanelProps) {
  const styles = useStyles();
  const addProperty = useAddProperty();
  const { contents, table } = flow;
  if (contents.type !== 'newProperty') return null;
  return (
    <div className={styles.row}>
      <Field label="Property Name">
        <Input
          value={contents.name}
          onChange={(_event, data) => flow.dispatch({ type: 'editProperty', name: data.value })}
        />
      </Field>
      <Field label="Property Value">
        <Input
          value={contents.value}
          onChange={(_event, data) => flow.dispatch({ type: 'editProperty', value: data.value })}
        />
      </Field>
      <SubmitButton
        disabled={flow.busy}
        onClick={() =>
          void flow.submit(
            'newProperty',
            () =>
              addProperty.mutateAsync({ table, name: contents.name.trim(), value: contents.value }),
            APP_TABLE_MESSAGES.errorAddingProperty,
          )
        }
      >
        Add Property
      </SubmitButton>
    </div>
  );
}

/** delete: deletes the chosen apps of the client's table. */
export function DeleteAppsPanel({ flow }: PanelProps) {
  const styles = useStyles();
  const deleteApps = useDeleteApps();
  const { contents, table, tableRows } = flow;
  if (contents.type !== 'delete') return null;
  return (
    <>
      <AppChecklist
        label={`Applications in ${table}`}
        rows={tableRows}
        loading={flow.rows.isPending}
        selected={contents.selected}
        onChange={(selected) => flow.dispatch({ type: 'select', selected })}
      />
      <div className={styles.row}>
        <SubmitButton
          disabled={flow.busy}
          onClick={() => {
            const keys = tableRows
              .filter((row) => contents.selected.has(row.RowKey))
              .map((row) => ({ partitionKey: row.PartitionKey, rowKey: row.RowKey }));
            void flow.submit(
              'delete',
              () => deleteApps.mutateAsync({ table, keys }),
              APP_TABLE_MESSAGES.errorDeletingEntities,
            );
          }}
        >
          Delete Selected Apps
        </SubmitButton>
      </div>
    </>
  );
}

/** deleteProperty: deletes a property from every app; the protected keys are never offered. */
export function DeletePropertyPanel({ flow }: PanelProps) {
  const styles = useStyles();
  const deleteProperty = useDeleteProperty();
  const { contents, table } = flow;
  if (contents.type !== 'deleteProperty') return null;
  return (
    <div className={styles.row}>
      <Field label="Property" className={styles.selector}>
        <Select
          value={contents.name}
          aria-describedby="protected-keys-hint"
          onChange={(_event, data) => flow.dispatch({ type: 'editProperty', name: data.value })}
        >
          <option value="">
            {flow.rows.isPending ? 'Loading properties…' : 'Select a property'}
          </option>
          {deletablePropertyNames(flow.tableRows).map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </Select>
      </Field>
      <SubmitButton
        disabled={flow.busy}
        onClick={() =>
          void flow.submit(
            'deleteProperty',
            () => deleteProperty.mutateAsync({ table, name: contents.name }),
            APP_TABLE_MESSAGES.errorDeletingProperty,
          )
        }
      >
        Delete Property
      </SubmitButton>
      <Text id="protected-keys-hint" className={styles.hint}>
        PartitionKey, RowKey, timestamp and etag cannot be deleted.
      </Text>
    </div>
  );
}

/** update: edits one app with the fields of the new-app form. */
export function UpdateAppPanel({ flow }: PanelProps) {
  const styles = useStyles();
  const updateApp = useUpdateApp();
  const { contents, table, app, appValues } = flow;
  if (contents.type !== 'update') return null;
  return (
    <>
      <Field label="App" className={styles.appPicker}>
        <Select
          value={contents.appKey}
          onChange={(_event, data) => flow.dispatch({ type: 'chooseApp', appKey: data.value })}
        >
          <option value="">{flow.rows.isPending ? 'Loading apps…' : 'Select an app'}</option>
          {flow.tableRows.map((row) => (
            <option key={row.RowKey} value={appKeyOf(row)}>
              {String(row.AppName ?? row.RowKey)} ({row.RowKey})
            </option>
          ))}
        </Select>
      </Field>
      {app && appValues && (
        <AppFields
          partitionKey={app.PartitionKey}
          rowKey={app.RowKey}
          fields={editableFieldOrder(appValues)}
          values={appValues}
          onChange={(edits) => flow.dispatch({ type: 'editApp', edits })}
        />
      )}
      <div className={styles.row}>
        <SubmitButton
          disabled={flow.busy}
          onClick={() =>
            void flow.submit(
              'update',
              app && appValues
                ? () =>
                    updateApp.mutateAsync({
                      table,
                      keys: { partitionKey: app.PartitionKey, rowKey: app.RowKey },
                      properties: appValues,
                      etag: app.etag,
                    })
                : undefined,
              APP_TABLE_MESSAGES.errorUpdatingApp,
            )
          }
        >
          Update App
        </SubmitButton>
      </div>
    </>
  );
}
