import type { AppTableEntityDto } from '@aegis/contracts';
import { Button, Checkbox, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  root: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '8px 12px',
  },
  header: { display: 'flex', gap: '12px', alignItems: 'center', marginBottom: '4px' },
  list: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))',
    columnGap: '12px',
    maxHeight: '420px',
    overflowY: 'auto',
  },
  name: { color: tokens.colorNeutralForeground1 },
  meta: { color: tokens.colorNeutralForeground3 },
});

/** A list of apps with a checkbox each, keyed by RowKey. */
export function AppChecklist({
  label,
  rows,
  selected,
  onChange,
  loading,
}: {
  label: string;
  rows: readonly AppTableEntityDto[];
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  loading?: boolean;
}) {
  const styles = useStyles();
  if (loading) return <Spinner label="Loading applications..." />;
  const toggle = (rowKey: string, checked: boolean) => {
    const next = new Set(selected);
    if (checked) next.add(rowKey);
    else next.delete(rowKey);
    onChange(next);
  };
  return (
    <fieldset className={styles.root}>
      <legend>
        <Text weight="semibold">{label}</Text>
      </legend>
      <div className={styles.header}>
        <Text>
          {selected.size} of {rows.length} selected
        </Text>
        <Button
          size="small"
          appearance="subtle"
          onClick={() => onChange(new Set(rows.map((row) => row.RowKey)))}
          disabled={rows.length === 0}
        >
          Select all
        </Button>
        <Button
          size="small"
          appearance="subtle"
          onClick={() => onChange(new Set())}
          disabled={selected.size === 0}
        >
          Clear selection
        </Button>
      </div>
      {rows.length === 0 ? (
        <Text className={styles.meta}>No applications.</Text>
      ) : (
        <ul className={styles.list}>
          {rows.map((row) => (
            <li key={`${row.PartitionKey}/${row.RowKey}`}>
              <Checkbox
                checked={selected.has(row.RowKey)}
                onChange={(_event, data) => toggle(row.RowKey, data.checked === true)}
                label={
                  <>
                    <span className={styles.name}>{String(row.AppName ?? row.RowKey)}</span>{' '}
                    <span className={styles.meta}>
                      {row.Version ? `${String(row.Version)} · ` : ''}
                      {row.RowKey}
                    </span>
                  </>
                }
              />
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
