import type { BaselineRunResponse, DeployPreviewResponse } from '@aegis/contracts';
import {
  BASELINE_COMPONENTS,
  countOf,
  DEPLOY_GROUPS,
  DEPLOY_PRESETS,
  DEPLOY_RUN_POLLING,
  deploySelectionWarnings,
  formatDeployDuration,
  toggleDeployComponent,
  totalDeploySeconds,
} from '@aegis/domain';
import {
  Button,
  Checkbox,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarBody,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { InfoRegular } from '@fluentui/react-icons';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';

import { useConfirm } from '../../../components/confirm-dialog';
import { ProjectRunStatus } from '../../../components/pipeline-run-status';
import { ResultBar } from '../../../components/result-bar';
import { RoleGate } from '../../../components/role-gate';
import { paths } from '../../../config/paths';
import { useRunLogFindings } from '../../../lib/pipeline-run';
import { previewDeploy, startDeploy } from '../api/baseline-api';

import { ComponentInfoDialog, ConfigInfoDialog } from './component-dialogs';
import { useComponentTabStyles } from './component-tab-styles';
import { PendingApprovalNote } from './pending-approval-note';
import { TenantPipelinePicker, type TenantPipeline } from './tenant-pipeline-picker';

const useStyles = makeStyles({
  itemColumns: { gridTemplateColumns: 'repeat(auto-fill, minmax(230px, 1fr))' },
  item: { display: 'flex', alignItems: 'center' },
  list: { margin: '8px 0', paddingLeft: '20px', maxHeight: '40vh', overflowY: 'auto' },
  summary: {
    display: 'flex',
    gap: '24px',
    flexWrap: 'wrap',
    padding: '8px 12px',
    backgroundColor: tokens.colorNeutralBackground2,
    borderRadius: tokens.borderRadiusMedium,
  },
});

const ACTION_LABEL = { create: 'Create', update: 'Update', unchanged: 'Leave alone' } as const;

/** Spec 2 §2: the Baseline Deployment tab. */
export function BaselineDeploymentTab() {
  const styles = useStyles();
  const layout = useComponentTabStyles();
  const [pipeline, setPipeline] = useState<TenantPipeline | undefined>();
  const [selected, setSelected] = useState<string[]>([]);
  const [infoFor, setInfoFor] = useState<string | undefined>();
  const [configFor, setConfigFor] = useState<string | undefined>();
  const [started, setStarted] = useState<BaselineRunResponse | undefined>();
  const [message, setMessage] = useState<{ intent: 'success' | 'error'; text: string }>();
  const warnings = deploySelectionWarnings(selected);
  const confirm = useConfirm();

  const preview = useMutation({
    mutationFn: (input: { pipelineId: number; components: string[] }) =>
      previewDeploy(input.pipelineId, input.components),
  });
  const deploy = useMutation({
    mutationFn: (input: { pipelineId: number; components: string[] | undefined }) =>
      startDeploy(input.pipelineId, input.components),
    onMutate: () => {
      setMessage(undefined);
    },
    onSuccess: (run) => {
      setStarted(run);
      setMessage({ intent: 'success', text: 'Pipeline triggered successfully!' });
    },
    onError: (error, input) =>
      setMessage({
        intent: 'error',
        text: `${input.components ? 'Error during component deployment' : 'Error during full baseline deployment'}: ${error.message}`,
      }),
  });

  /**
   * A deploy changes a client's live tenant (the full baseline is 57 components, hours of work):
   * it starts only once the technician has seen the tenant, the components and the estimate.
   */
  const requestDeploy = async (target: TenantPipeline, components: string[] | undefined) => {
    const names = components ?? Object.keys(BASELINE_COMPONENTS);
    const tenant = target.folder.split('\\').pop() ?? target.name;
    const confirmed = await confirm({
      title: components ? 'Deploy selected components' : 'Deploy full baseline',
      confirmLabel: 'Deploy',
      body: (
        <>
          <Text block>
            Deploy{' '}
            {components
              ? countOf(names.length, 'component')
              : `all ${names.length} components of the baseline`}{' '}
            to {tenant} ({target.name})? Estimated time:{' '}
            {formatDeployDuration(totalDeploySeconds(names))}.
          </Text>
          <ul className={styles.list} aria-label="Components to deploy">
            {names.map((name) => (
              <li key={name}>{name}</li>
            ))}
          </ul>
          <Text block>
            The tenant is backed up first; what the baseline has and the tenant lacks is created,
            and what differs is updated.
          </Text>
        </>
      ),
    });
    if (confirmed) deploy.mutate({ pipelineId: target.id, components });
  };

  const select = (next: string[]) => {
    setSelected(next);
    preview.reset();
  };

  // after a finished deploy: the backup it took first (the rollback point) and any changes that
  // wait for approval, from the run's log
  const { findings, onFinished } = useRunLogFindings(started);

  const seconds = totalDeploySeconds(selected);
  return (
    <div className={layout.tab}>
      <TenantPipelinePicker
        tab="deploy"
        value={pipeline}
        onChange={(p) => {
          setPipeline(p);
          preview.reset();
        }}
      />
      <div className={layout.row} role="group" aria-label="Presets">
        <Text weight="semibold">Presets:</Text>
        {Object.entries(DEPLOY_PRESETS).map(([name, components]) => (
          <Button key={name} size="small" onClick={() => select([...components])}>
            {name}
          </Button>
        ))}
        <Button size="small" appearance="subtle" onClick={() => select([])}>
          Clear selection
        </Button>
      </div>
      <div className={styles.summary} aria-live="polite">
        <Text>
          <strong>{selected.length}</strong> of {Object.keys(BASELINE_COMPONENTS).length} components
          selected
        </Text>
        <Text>
          Estimated time: <strong>{formatDeployDuration(seconds)}</strong>
        </Text>
      </div>
      {warnings.map((w) => (
        <MessageBar key={w} intent="warning">
          <MessageBarBody>{w}</MessageBarBody>
        </MessageBar>
      ))}
      {DEPLOY_GROUPS.map((group) => {
        const count = group.components.filter((c) => selected.includes(c)).length;
        return (
          <fieldset key={group.label} className={layout.group}>
            <legend className={layout.legend}>
              {group.label} ({count}/{group.components.length})
            </legend>
            <div className={mergeClasses(layout.items, styles.itemColumns)}>
              {group.components.map((name) => (
                <div key={name} className={styles.item}>
                  <Checkbox
                    label={name}
                    checked={selected.includes(name)}
                    onChange={(_e, data) =>
                      select(toggleDeployComponent(selected, name, data.checked === true))
                    }
                  />
                  <Button
                    appearance="transparent"
                    size="small"
                    icon={<InfoRegular />}
                    aria-label={`About ${name}`}
                    title={`About ${name}`}
                    onClick={() => setInfoFor(name)}
                  />
                </div>
              ))}
            </div>
          </fieldset>
        );
      })}
      <div className={layout.row}>
        <RoleGate needs="Administrator">
          <Button
            disabled={!pipeline || selected.length === 0 || preview.isPending}
            onClick={() =>
              pipeline && preview.mutate({ pipelineId: pipeline.id, components: selected })
            }
          >
            Preview Changes
          </Button>
        </RoleGate>
        <RoleGate needs="Administrator">
          <Button
            appearance="primary"
            disabled={!pipeline || selected.length === 0 || deploy.isPending}
            onClick={() => pipeline && void requestDeploy(pipeline, selected)}
          >
            Deploy Selected Components
          </Button>
        </RoleGate>
        <RoleGate needs="Administrator">
          <Button
            disabled={!pipeline || deploy.isPending}
            onClick={() => pipeline && void requestDeploy(pipeline, undefined)}
          >
            Deploy Full Baseline
          </Button>
        </RoleGate>
        {deploy.isPending ? <Spinner size="tiny" label="Starting the pipeline..." /> : null}
      </div>
      {/* the run's outcome right under the buttons that started it, above a long preview */}
      {message ? <ResultBar intent={message.intent}>{message.text}</ResultBar> : null}
      {started ? (
        <ProjectRunStatus
          key={started.id}
          started={started}
          rule={DEPLOY_RUN_POLLING}
          onFinished={onFinished}
        />
      ) : null}
      <PendingApprovalNote summary={findings.pendingApproval} />
      {findings.rollbackTag ? (
        <Text>
          Backup taken before this deploy: <code>{findings.rollbackTag}</code>.{' '}
          <RouterLink to={paths.tenantBackup.getHref()}>Open Tenant Backups</RouterLink> to restore
          it.
        </Text>
      ) : null}
      {!pipeline ? <Text size={200}>Select a pipeline to deploy to.</Text> : null}
      {preview.isPending ? (
        <Spinner size="small" label="Comparing with the last capture..." />
      ) : null}
      {preview.isError ? (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>Preview failed: {preview.error.message}</MessageBarBody>
        </MessageBar>
      ) : null}
      {preview.data ? <DeployPreview preview={preview.data} /> : null}
      <ComponentInfoDialog
        name={infoFor}
        onClose={() => setInfoFor(undefined)}
        onShowConfiguration={(name) => {
          setInfoFor(undefined);
          setConfigFor(name);
        }}
      />
      <ConfigInfoDialog name={configFor} onClose={() => setConfigFor(undefined)} />
    </div>
  );
}

function DeployPreview({ preview }: { preview: DeployPreviewResponse }) {
  const rows = preview.components.flatMap((c) =>
    c.items.length === 0
      ? [
          {
            key: c.name,
            component: c.name,
            object: c.note ?? 'Nothing on main',
            action: '',
            changes: '',
          },
        ]
      : c.items.map((i) => ({
          key: `${c.name}/${i.path}`,
          component: c.name,
          object: i.name,
          action: ACTION_LABEL[i.action],
          changes: i.changes.join(', '),
        })),
  );
  const count = (a: 'create' | 'update' | 'unchanged') =>
    preview.components.reduce((n, c) => n + c.items.filter((i) => i.action === a).length, 0);
  return (
    <section aria-label="Deploy preview">
      <Text weight="semibold">
        Preview for {preview.clientCode} (from its last approved capture): {count('create')} to
        create, {count('update')} to update, {count('unchanged')} left alone
      </Text>
      <Table size="small" aria-label="What the deploy will do">
        <TableHeader>
          <TableRow>
            <TableHeaderCell>Component</TableHeaderCell>
            <TableHeaderCell>Object</TableHeaderCell>
            <TableHeaderCell>Action</TableHeaderCell>
            <TableHeaderCell>Settings that differ</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.key}>
              <TableCell>{r.component}</TableCell>
              <TableCell>{r.object}</TableCell>
              <TableCell>{r.action}</TableCell>
              <TableCell>{r.changes}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}
