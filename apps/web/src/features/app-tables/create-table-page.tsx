import { APP_TABLE_MESSAGES, GENERAL_APPS_TABLE, isClientCode } from '@aegis/domain';
import {
  Button,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, ArrowLeftRegular, TableAddRegular } from '@fluentui/react-icons';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';

import { PageHeader } from '../../components/page-header';
import { RoleGate } from '../../components/role-gate';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';

import { useCopyApps, useCreateTable, useTableRows } from './api/app-tables';
import { AppChecklist } from './components/app-checklist';
import { failureMessage, errorDetails, operationMessage } from './components/result-message';
import { TableLinks } from './components/table-links';
import { TableMessageBar } from './components/table-message-bar';
import { useTableAlert } from './components/use-table-alert';

const CLIENT_CODE_PLACEHOLDER = 'Three capital letters, e.g. ABC';

const useStyles = makeStyles({
  form: { display: 'flex', gap: '12px', alignItems: 'flex-end', flexWrap: 'wrap' },
  // as wide as its placeholder (1ch, the width of '0', is wider than an average letter) plus the
  // input's padding, so the hint is read whole; never wider than the screen
  clientCode: {
    width: `calc(${CLIENT_CODE_PLACEHOLDER.length}ch + 2 * ${tokens.spacingHorizontalM} + 2px)`,
    maxWidth: '100%',
  },
  section: { marginTop: '16px', display: 'flex', flexDirection: 'column', gap: '12px' },
  actions: { display: 'flex', gap: '12px', flexWrap: 'wrap' },
});

/** Create New App Deploy Table (spec 2 §2, §5): '{ClientCode}WorkstationApps' and its apps. */
export function CreateTablePage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const [clientCode, setClientCode] = useState('');
  const [tableName, setTableName] = useState<string>();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const apps = useTableRows(GENERAL_APPS_TABLE);
  const createTable = useCreateTable();
  const copyApps = useCopyApps();
  const code = clientCode.trim();
  const alert = useTableAlert({
    create: () =>
      !code
        ? APP_TABLE_MESSAGES.enterClientCode
        : !isClientCode(code)
          ? APP_TABLE_MESSAGES.clientCodeFormat
          : undefined,
    addApplications: () =>
      selected.size === 0
        ? APP_TABLE_MESSAGES.selectApplication
        : !tableName
          ? APP_TABLE_MESSAGES.noTableToUpdate
          : undefined,
  });

  async function create(event: FormEvent) {
    event.preventDefault();
    if (!alert.passes('create')) return;
    try {
      const result = await createTable.mutateAsync(code);
      setTableName(result.table);
      alert.show({ intent: 'success', text: result.message });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        alert.show({ intent: 'error', text: error.message });
      } else if (error instanceof ApiError) {
        alert.show({ intent: 'error', text: APP_TABLE_MESSAGES.unexpected(error.message) });
      } else {
        alert.show({
          intent: 'error',
          text: APP_TABLE_MESSAGES.errorCreatingTable(errorDetails(error)),
        });
      }
    }
  }

  async function addApplications() {
    if (!alert.passes('addApplications') || !tableName) return;
    try {
      const result = await copyApps.mutateAsync({ table: tableName, rowKeys: [...selected] });
      alert.show(operationMessage(result, APP_TABLE_MESSAGES.errorUpdatingTable));
      if (result.failed.length === 0) setSelected(new Set());
    } catch (error) {
      alert.show(failureMessage(error, APP_TABLE_MESSAGES.errorUpdatingTable));
    }
  }

  return (
    <>
      <PageHeader
        title="Create New App Deploy Table"
        subtitle={`Make a client's table and copy applications from ${GENERAL_APPS_TABLE}`}
        actions={
          <Button
            icon={<ArrowLeftRegular />}
            onClick={() => void navigate(paths.storageTablesList.getHref())}
          >
            Return to Tables
          </Button>
        }
      />
      <TableLinks current={paths.createStorageTable.getHref()} />
      <div className={styles.section}>
        <TableMessageBar message={alert.message} />
        <form className={styles.form} onSubmit={(event) => void create(event)} noValidate>
          <Field label="Client Code">
            <Input
              className={styles.clientCode}
              value={clientCode}
              placeholder={CLIENT_CODE_PLACEHOLDER}
              maxLength={3}
              onChange={(_event, data) => setClientCode(data.value.toUpperCase())}
            />
          </Field>
          <RoleGate needs="Operator">
            <Button
              type="submit"
              appearance="primary"
              icon={<TableAddRegular />}
              disabled={createTable.isPending}
            >
              Create New Client Table
            </Button>
          </RoleGate>
        </form>
        {tableName && (
          <MessageBar intent="info">
            <MessageBarBody>Adding applications to {tableName}</MessageBarBody>
          </MessageBar>
        )}
        {apps.isError && (
          <MessageBar intent="error">
            <MessageBarBody>
              Could not load the applications of {GENERAL_APPS_TABLE}: {apps.error.message}
            </MessageBarBody>
          </MessageBar>
        )}
        <AppChecklist
          label={`Applications in ${GENERAL_APPS_TABLE}`}
          rows={apps.data?.rows ?? []}
          loading={apps.isPending}
          selected={selected}
          onChange={setSelected}
        />
        <div className={styles.actions}>
          <RoleGate needs="Operator">
            <Button
              appearance="primary"
              icon={<AddRegular />}
              onClick={() => void addApplications()}
              disabled={copyApps.isPending}
            >
              Add Applications
            </Button>
          </RoleGate>
        </div>
      </div>
    </>
  );
}
