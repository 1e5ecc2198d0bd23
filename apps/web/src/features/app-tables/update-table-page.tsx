import {
  Button,
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Select,
  Spinner,
  Text,
} from '@fluentui/react-components';
import { ArrowLeftRegular } from '@fluentui/react-icons';
import { useNavigate } from 'react-router';

import { PageHeader } from '../../components/page-header';
import { paths } from '../../config/paths';

import { useTables } from './api/app-tables';
import { TableLinks } from './components/table-links';
import { TableMessageBar } from './components/table-message-bar';
import {
  DeleteAppsPanel,
  DeletePropertyPanel,
  ExistingAppsPanel,
  NewAppPanel,
  NewPropertyPanel,
  UpdateAppPanel,
} from './components/update-table-panels';
import { isUpdateType, UPDATE_TYPES } from './hooks/update-table-flow';
import { useUpdateTableFlow } from './hooks/use-update-table-flow';

const useStyles = makeStyles({
  selectors: { display: 'flex', gap: '16px', flexWrap: 'wrap', alignItems: 'flex-end' },
  selector: { minWidth: '280px' },
  section: { marginTop: '16px', display: 'flex', flexDirection: 'column', gap: '12px' },
});

/** The panel of each update type; each sends its own request. */
const PANELS = {
  existing: ExistingAppsPanel,
  new: NewAppPanel,
  newProperty: NewPropertyPanel,
  delete: DeleteAppsPanel,
  deleteProperty: DeletePropertyPanel,
  update: UpdateAppPanel,
};

/** Update Existing App Deploy Table (spec 2 §2, §5, §8). */
export function UpdateTablePage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const tables = useTables();
  const flow = useUpdateTableFlow();
  const { table, rows } = flow;
  const type = flow.contents.type;
  const Panel = type ? PANELS[type] : undefined;

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
            <Select value={table} onChange={(_event, data) => flow.chooseTable(data.value)}>
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
              onChange={(_event, data) =>
                flow.chooseType(isUpdateType(data.value) ? data.value : '')
              }
            >
              <option value="">Select an update type</option>
              {UPDATE_TYPES.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Select>
          </Field>
          {flow.busy && <Spinner size="tiny" label="Saving..." />}
        </div>
        {tables.isError && (
          <MessageBar intent="error">
            <MessageBarBody>Could not load the tables: {tables.error.message}</MessageBarBody>
          </MessageBar>
        )}
        <TableMessageBar message={flow.message} />
        {rows.isError && (
          <MessageBar intent="error">
            <MessageBarBody>
              Could not load {table}: {rows.error.message}
            </MessageBarBody>
          </MessageBar>
        )}
        {!table && <Text>Select a table, then what to change.</Text>}

        {table && Panel && <Panel flow={flow} />}
      </div>
    </>
  );
}
