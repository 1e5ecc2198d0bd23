import { filterTablesByPrefix } from '@aegis/domain';
import {
  Button,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  SearchBox,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular, ArrowLeftRegular, TableRegular } from '@fluentui/react-icons';
import { useState } from 'react';

import { PageHeader } from '../../components/page-header';
import { paths } from '../../config/paths';

import { useTableRows, useTables } from './api/app-tables';
import { AppRowsGrid } from './components/app-rows-grid';
import { TableLinks } from './components/table-links';

const useStyles = makeStyles({
  toolbar: {
    display: 'flex',
    gap: '12px',
    alignItems: 'center',
    flexWrap: 'wrap',
    marginBottom: '16px',
  },
  search: { minWidth: '320px' },
  list: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
    gap: '8px',
  },
  tableButton: { width: '100%', justifyContent: 'flex-start' },
  empty: { padding: '32px', textAlign: 'center', color: tokens.colorNeutralForeground3 },
  heading: { display: 'block', marginBottom: '8px' },
});

/** App Deploy Table Viewer (spec 2 §2): find a table by prefix, then read its rows. */
export function TableViewerPage() {
  const styles = useStyles();
  const tables = useTables();
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<string>();
  const rows = useTableRows(selected);

  const names = filterTablesByPrefix(tables.data?.tables ?? [], search);

  function refresh() {
    void tables.refetch();
    if (selected) void rows.refetch();
  }

  return (
    <>
      <PageHeader
        title="App Deploy Table Viewer"
        subtitle="Per-client application deployment tables in Table storage"
        actions={
          <Button
            icon={tables.isFetching ? <Spinner size="extra-tiny" /> : <ArrowClockwiseRegular />}
            onClick={refresh}
          >
            Refresh Tables
          </Button>
        }
      />
      <div className={styles.toolbar}>
        <TableLinks current={paths.storageTablesList.getHref()} />
      </div>

      {selected ? (
        <section aria-label={`Rows of ${selected}`}>
          <div className={styles.toolbar}>
            <Button icon={<ArrowLeftRegular />} onClick={() => setSelected(undefined)}>
              Back to Table List
            </Button>
            <Text as="h2" size={500} weight="semibold">
              {selected}
            </Text>
            {rows.data && <Text>{rows.data.rows.length} rows</Text>}
          </div>
          {rows.isPending && <Spinner label="Loading rows..." />}
          {rows.isError && (
            <MessageBar intent="error">
              <MessageBarBody>
                Could not load {selected}: {rows.error.message}
              </MessageBarBody>
              <MessageBarActions>
                <Button onClick={() => void rows.refetch()}>Try Again</Button>
              </MessageBarActions>
            </MessageBar>
          )}
          {rows.data && rows.data.rows.length === 0 && (
            <div className={styles.empty} role="status">
              This table has no rows yet.
            </div>
          )}
          {rows.data && rows.data.rows.length > 0 && (
            <AppRowsGrid rows={rows.data.rows} caption={`Rows of ${selected}`} />
          )}
        </section>
      ) : (
        <section aria-label="Tables">
          <div className={styles.toolbar}>
            <SearchBox
              className={styles.search}
              placeholder="Search tables by name (prefix)"
              aria-label="Search tables"
              value={search}
              onChange={(_event, data) => setSearch(data.value)}
            />
            {tables.data && (
              <Text>
                {names.length} of {tables.data.tables.length} tables
              </Text>
            )}
          </div>
          {tables.isPending && <Spinner label="Loading tables..." />}
          {tables.isError && (
            <MessageBar intent="error">
              <MessageBarBody>Could not load the tables: {tables.error.message}</MessageBarBody>
              <MessageBarActions>
                <Button onClick={() => void tables.refetch()}>Try Again</Button>
              </MessageBarActions>
            </MessageBar>
          )}
          {tables.data && names.length === 0 && (
            <div className={styles.empty} role="status">
              {search ? `No tables start with '${search}'.` : 'No tables yet.'}
            </div>
          )}
          {names.length > 0 && (
            <ul className={styles.list} aria-label="Table names">
              {names.map((name) => (
                <li key={name}>
                  <Button
                    className={styles.tableButton}
                    appearance="subtle"
                    icon={<TableRegular />}
                    onClick={() => setSelected(name)}
                  >
                    {name}
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </>
  );
}
