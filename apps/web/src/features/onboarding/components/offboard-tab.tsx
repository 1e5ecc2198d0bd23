import type { BaselineRunResponse } from '@aegis/contracts';
import {
  OFFBOARD_COMPONENTS,
  OFFBOARD_GROUPS,
  OFFBOARD_PRESETS,
  OFFBOARD_RUN_POLLING,
  UNGROUPED_OFFBOARD_COMPONENTS,
  formatOffboardDuration,
  offboardBlocker,
  offboardRunOrder,
  totalOffboardMinutes,
} from '@aegis/domain';
import {
  Button,
  Checkbox,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';

import { useConfirm } from '../../../components/confirm-dialog';
import { ProjectRunStatus } from '../../../components/pipeline-run-status';
import { ResultBar } from '../../../components/result-bar';
import { RoleGate } from '../../../components/role-gate';
import { useRunLogFindings } from '../../../lib/pipeline-run';
import { startOffboard } from '../api/baseline-api';

import { ImpactBadge } from './component-dialogs';
import { useComponentTabStyles } from './component-tab-styles';
import { PendingApprovalNote } from './pending-approval-note';
import { TenantPipelinePicker, type TenantPipeline } from './tenant-pipeline-picker';

const useStyles = makeStyles({
  itemColumns: { gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))' },
  list: { margin: 0, paddingLeft: '20px', display: 'grid', gap: '6px' },
  entry: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'baseline' },
  muted: { color: tokens.colorNeutralForeground2 },
});

const GROUPS = [
  ...OFFBOARD_GROUPS,
  { label: 'Other removals and reverts', components: UNGROUPED_OFFBOARD_COMPONENTS },
];

/** Spec 2 §2, §4, §5: the Off-Board Tenant tab. */
export function OffboardTab() {
  const styles = useStyles();
  const layout = useComponentTabStyles();
  const [pipeline, setPipeline] = useState<TenantPipeline | undefined>();
  const [selected, setSelected] = useState<string[]>([]);
  const [blocker, setBlocker] = useState<string | undefined>();
  const [started, setStarted] = useState<BaselineRunResponse | undefined>();
  const [error, setError] = useState<string | undefined>();
  // changes the finished run left waiting for approval, from its log
  const { findings, onFinished } = useRunLogFindings(started);
  const confirm = useConfirm();

  const offboard = useMutation({
    mutationFn: (input: { pipelineId: number; components: string[] }) =>
      startOffboard(input.pipelineId, input.components),
    onMutate: () => setError(undefined),
    onSuccess: (run) => {
      setStarted(run);
      setSelected([]); // spec 2 §4: clear the selection after execution
    },
    onError: (e) => setError(`Error during off-board process: ${e.message}`),
  });

  const toggle = (name: string, checked: boolean) => {
    setBlocker(undefined);
    setSelected((s) => offboardRunOrder(checked ? [...s, name] : s.filter((n) => n !== name)));
  };
  const total = formatOffboardDuration(totalOffboardMinutes(selected));
  const requestRemoval = async () => {
    const reason = offboardBlocker({
      components: selected,
      pipeline: pipeline ? String(pipeline.id) : '',
    });
    setBlocker(reason);
    if (reason || !pipeline) return;
    const components = selected;
    const confirmed = await confirm({
      title: 'Confirm removal',
      destructive: true,
      confirmLabel: 'Proceed with Removal',
      body: (
        <>
          <Text block>
            Remove {components.length} component{components.length === 1 ? '' : 's'} from{' '}
            {pipeline.folder.split('\\').pop()} ({pipeline.name})? Estimated time: {total}.
          </Text>
          <ul className={styles.list}>
            {components.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
          <Text block weight="semibold">
            This is permanent and cannot be undone.
          </Text>
        </>
      ),
    });
    if (confirmed) offboard.mutate({ pipelineId: pipeline.id, components });
  };

  return (
    <div className={layout.tab}>
      <TenantPipelinePicker
        tab="offboard"
        value={pipeline}
        onChange={(p) => {
          setBlocker(undefined);
          setPipeline(p);
        }}
      />
      <div className={layout.row} role="group" aria-label="Presets">
        <Text weight="semibold">Presets:</Text>
        {Object.entries(OFFBOARD_PRESETS).map(([name, components]) => (
          <Button
            key={name}
            size="small"
            onClick={() => {
              setBlocker(undefined);
              setSelected([...components]);
            }}
          >
            {name}
          </Button>
        ))}
        <Button size="small" appearance="subtle" onClick={() => setSelected([])}>
          Clear selection
        </Button>
      </div>
      {GROUPS.map((group) => (
        <fieldset key={group.label} className={layout.group}>
          <legend className={layout.legend}>
            {group.label} ({group.components.filter((c) => selected.includes(c)).length}/
            {group.components.length})
          </legend>
          <div className={mergeClasses(layout.items, styles.itemColumns)}>
            {group.components.map((name) => (
              <Checkbox
                key={name}
                label={`${name} (${OFFBOARD_COMPONENTS[name]?.estimatedTime ?? '?'} min)`}
                checked={selected.includes(name)}
                onChange={(_e, data) => toggle(name, data.checked === true)}
              />
            ))}
          </div>
        </fieldset>
      ))}
      <section aria-label="Components to remove">
        <Text weight="semibold">
          Components to remove ({selected.length}) · Estimated total: {total}
        </Text>
        {selected.length === 0 ? (
          <Text className={styles.muted} block>
            Nothing selected yet.
          </Text>
        ) : (
          <>
            <MessageBar intent="warning">
              <MessageBarBody>
                <MessageBarTitle>Removal is permanent</MessageBarTitle>
                The selected components will be permanently removed from the tenant. This cannot be
                undone.
              </MessageBarBody>
            </MessageBar>
            <ul className={styles.list}>
              {selected.map((name) => {
                const c = OFFBOARD_COMPONENTS[name];
                return (
                  <li key={name}>
                    <span className={styles.entry}>
                      <Text weight="semibold">{name}</Text>
                      {c ? <ImpactBadge impact={c.impact} /> : null}
                      <Text size={200}>{c?.estimatedTime} min</Text>
                    </span>
                    <Text size={200} block>
                      {c?.description}
                    </Text>
                    {c?.dependencies ? (
                      <Text size={200} block className={styles.muted}>
                        Dependencies: {c.dependencies}
                      </Text>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </>
        )}
      </section>
      {blocker ? <ResultBar intent="error">{blocker}</ResultBar> : null}
      <div className={layout.row}>
        <RoleGate needs="Administrator">
          <Button
            appearance="primary"
            disabled={offboard.isPending}
            onClick={() => void requestRemoval()}
          >
            Remove Selected Components
          </Button>
        </RoleGate>
        {offboard.isPending ? <Spinner size="tiny" label="Starting the pipeline..." /> : null}
      </div>
      {error ? <ResultBar intent="error">{error}</ResultBar> : null}
      {started ? (
        <ProjectRunStatus
          key={started.id}
          started={started}
          rule={OFFBOARD_RUN_POLLING}
          onFinished={onFinished}
        />
      ) : null}
      <PendingApprovalNote summary={findings.pendingApproval} />
    </div>
  );
}
