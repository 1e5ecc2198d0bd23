import type { ClientLayersBody } from '@aegis/contracts';
import {
  Button,
  Dropdown,
  Field,
  makeStyles,
  Option,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownRegular, ArrowUpRegular, DeleteRegular } from '@fluentui/react-icons';
import { useState } from 'react';

import { RoleGate, useRoleGate } from '../../../components/role-gate';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '12px', maxWidth: '720px' },
  list: { margin: 0, paddingLeft: '24px', display: 'flex', flexDirection: 'column', gap: '4px' },
  item: { display: 'flex', alignItems: 'center', gap: '8px', flexWrap: 'wrap' },
  name: { minWidth: '160px' },
  add: { display: 'flex', gap: '8px', alignItems: 'end', flexWrap: 'wrap' },
  meta: { color: tokens.colorNeutralForeground3 },
});

export interface LayersEditorProps {
  /** the client's layers on main, in order */
  layers: readonly string[];
  /** every layer the repository holds */
  available: readonly string[];
  pending: boolean;
  onPropose: (body: ClientLayersBody) => void;
}

/**
 * The client's baseline layers in order (a later layer wins), editable by Administrators: the new
 * order is proposed as a pull request.
 */
export function LayersEditor({ layers, available, pending, onPropose }: LayersEditorProps) {
  const styles = useStyles();
  const { allowed } = useRoleGate('Administrator');
  const [draft, setDraft] = useState<string[]>([...layers]);
  const [adding, setAdding] = useState<string>('');
  const changed = draft.join('\n') !== layers.join('\n');
  const addable = available.filter((l) => !draft.includes(l));

  const move = (i: number, by: -1 | 1) =>
    setDraft((d) => {
      const next = [...d];
      [next[i], next[i + by]] = [next[i + by]!, next[i]!];
      return next;
    });

  return (
    <section className={styles.root} aria-labelledby="layers-heading">
      <Text as="h2" id="layers-heading" size={500} weight="semibold">
        Baseline layers
      </Text>
      <Text className={styles.meta}>
        The company baseline, then these layers in order: a layer&apos;s policy replaces the
        company&apos;s (or an earlier layer&apos;s) at the same path, and a later layer wins.
      </Text>
      {draft.length === 0 ? (
        <Text>No layers: the client gets the company baseline.</Text>
      ) : (
        <ol className={styles.list} aria-label="Layers in order">
          {draft.map((name, i) => (
            <li key={name}>
              <div className={styles.item}>
                <Text className={styles.name} weight="semibold">
                  {name}
                </Text>
                {allowed && (
                  <>
                    <Button
                      size="small"
                      icon={<ArrowUpRegular />}
                      aria-label={`Move ${name} up`}
                      disabled={i === 0}
                      onClick={() => move(i, -1)}
                    />
                    <Button
                      size="small"
                      icon={<ArrowDownRegular />}
                      aria-label={`Move ${name} down`}
                      disabled={i === draft.length - 1}
                      onClick={() => move(i, 1)}
                    />
                    <Button
                      size="small"
                      icon={<DeleteRegular />}
                      aria-label={`Remove ${name}`}
                      onClick={() => setDraft((d) => d.filter((l) => l !== name))}
                    />
                  </>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
      {allowed && addable.length > 0 && (
        <div className={styles.add}>
          <Field label="Layer to add">
            <Dropdown
              placeholder="Choose a layer"
              value={adding}
              selectedOptions={adding ? [adding] : []}
              onOptionSelect={(_, data) => setAdding(data.optionValue ?? '')}
            >
              {addable.map((l) => (
                <Option key={l} value={l}>
                  {l}
                </Option>
              ))}
            </Dropdown>
          </Field>
          <Button
            disabled={!adding}
            onClick={() => {
              setDraft((d) => [...d, adding]);
              setAdding('');
            }}
          >
            Add layer
          </Button>
        </div>
      )}
      <div className={styles.add}>
        <RoleGate needs="Administrator">
          <Button
            appearance="primary"
            disabled={!changed || pending}
            onClick={() => onPropose({ layers: draft })}
          >
            {pending ? 'Proposing...' : 'Propose these layers'}
          </Button>
        </RoleGate>
        {changed && (
          <Button appearance="secondary" onClick={() => setDraft([...layers])}>
            Undo changes
          </Button>
        )}
      </div>
    </section>
  );
}
