import { Checkbox, Input, makeStyles, Text, tokens } from '@fluentui/react-components';
import { useId, useMemo, useState } from 'react';

const RESOURCES_PREFIX = 'M365Config/Resources/';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '8px', marginBottom: '12px' },
  list: {
    maxHeight: '30vh',
    overflowY: 'auto',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '4px 8px',
    display: 'flex',
    flexDirection: 'column',
  },
  path: { wordBreak: 'break-all' },
});

/** The policies of a backup: its content's files under the resources root, as resource paths. */
export function backupPolicies(content: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(content)
    .filter((key) => key.startsWith(RESOURCES_PREFIX) && key.endsWith('.json'))
    .map((key) => key.slice(RESOURCES_PREFIX.length))
    .sort((a, b) => a.localeCompare(b));
}

/** Choosing policies of a backup to restore on their own (issue 30 §4). */
export function BackupPolicyPicker({
  policies,
  selected,
  onChange,
}: {
  policies: readonly string[];
  selected: ReadonlySet<string>;
  onChange: (selected: ReadonlySet<string>) => void;
}) {
  const styles = useStyles();
  const labelId = useId();
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return needle ? policies.filter((p) => p.toLowerCase().includes(needle)) : policies;
  }, [policies, filter]);
  const toggle = (policy: string, checked: boolean) => {
    const next = new Set(selected);
    if (checked) next.add(policy);
    else next.delete(policy);
    onChange(next);
  };

  return (
    <div className={styles.root}>
      <Text weight="semibold" id={labelId}>
        Policies ({selected.size} of {policies.length} selected)
      </Text>
      <Input
        aria-label="Filter policies"
        placeholder="Filter policies"
        value={filter}
        onChange={(_e, data) => setFilter(data.value)}
      />
      <div className={styles.list} role="group" aria-labelledby={labelId}>
        {shown.length === 0 ? (
          <Text>
            {policies.length === 0
              ? 'This backup holds no policies.'
              : 'No policy matches the filter.'}
          </Text>
        ) : (
          shown.map((policy) => (
            <Checkbox
              key={policy}
              checked={selected.has(policy)}
              onChange={(_e, data) => toggle(policy, data.checked === true)}
              label={<span className={styles.path}>{policy}</span>}
            />
          ))
        )}
      </div>
    </div>
  );
}
