import type { ClientDriftDto, DriftedObjectDto } from '@aegis/contracts';
import {
  formatCaptureDate,
  hasPublicApi,
  isClientCode,
  selectorRelativeDate,
  workloadFor,
} from '@aegis/domain';
import {
  Badge,
  Button,
  Checkbox,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
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
import { ArrowClockwiseRegular, ArrowUndoRegular, PlayRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';

import { useConfirm } from '../../components/confirm-dialog';
import { PageHeader } from '../../components/page-header';
import { ResultBar } from '../../components/result-bar';
import { RoleGate } from '../../components/role-gate';
import { RunLogButton } from '../../components/run-log-dialog';
import { paths } from '../../config/paths';

import { useClientDrift } from './api/drift-api';
import { useDriftRuns, type RunPhase } from './use-drift-runs';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '16px' },
  facts: { display: 'flex', gap: '24px', flexWrap: 'wrap', alignItems: 'center' },
  meta: { color: tokens.colorNeutralForeground3 },
  changes: { margin: 0, paddingLeft: '16px' },
  value: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
  links: { display: 'flex', gap: '16px', flexWrap: 'wrap' },
  // an actor's address is one long word: it wraps rather than leave its cell at 1024 px
  who: { overflowWrap: 'anywhere' },
  revertActions: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center' },
  choose: { width: '44px' },
});

const CHANGE_LABELS: Record<DriftedObjectDto['change'], string> = {
  added: 'Added in the tenant',
  removed: 'Removed from the tenant',
  changed: 'Changed',
};

/** What a revert does to an object, by how it drifted. */
const REVERT_EFFECTS: Record<DriftedObjectDto['change'], string> = {
  added: 'removed from the tenant (the approved configuration does not have it)',
  removed: 'created again as approved',
  changed: 'set back to the approved values',
};

const NO_API_TEXT =
  'Microsoft publishes no API for it: change it in the admin centre, or accept it through a capture review.';

/** Whether a revert can put the object back: its workload has a public API to write it with. */
function canRevert(object: DriftedObjectDto): boolean {
  const [category = '', kind = ''] = object.workload.split('/');
  const workload = workloadFor(category, kind);
  return workload !== undefined && hasPublicApi(workload);
}

const objectsText = (count: number) => (count === 1 ? '1 object' : `${count} objects`);

function RevertConfirmBody({
  client,
  objects,
}: {
  client: string;
  objects: readonly DriftedObjectDto[];
}) {
  const styles = useStyles();
  return (
    <>
      <Text block>
        {`Put back ${objectsText(objects.length)} in ${client}'s tenant as the approved configuration on main has them? Aegis backs the tenant up first, as every deploy does.`}
      </Text>
      <ul className={styles.changes}>
        {objects.map((o) => (
          <li key={o.path}>
            <Text weight="semibold">{o.name}</Text>
            {` (${o.workload}): ${REVERT_EFFECTS[o.change]}`}
          </li>
        ))}
      </ul>
    </>
  );
}

const RUN_INTENTS = {
  running: 'info',
  succeeded: 'success',
  failed: 'error',
  unknown: 'warning',
} as const satisfies Record<RunPhase, string>;

function revertText(client: string, count: number, id: number, phase: RunPhase): string {
  const what = `${objectsText(count)} of ${client}`;
  switch (phase) {
    case 'running':
      return `Reverting ${what} to the approved configuration (run ${id})...`;
    case 'succeeded':
      return `Reverted ${what} to the approved configuration (run ${id}).`;
    case 'failed':
      return `The revert of ${what} did not succeed (run ${id}). Its log says what was put back.`;
    case 'unknown':
      return `The state of the revert (run ${id}) could not be read. Its log says how far it got.`;
  }
}

function checkText(id: number, phase: RunPhase): string {
  switch (phase) {
    case 'running':
      return `Drift check started (run ${id}). The drift below is reloaded when it has finished.`;
    case 'succeeded':
      return `Drift check finished (run ${id}): the drift below is its result.`;
    case 'failed':
      return `The drift check did not succeed (run ${id}). Its log says why.`;
    case 'unknown':
      return `The state of the drift check (run ${id}) could not be read. Refresh when it has finished.`;
  }
}

const shown = (value: unknown) => (value === undefined ? '(none)' : JSON.stringify(value));

function Who({ object }: { object: DriftedObjectDto }) {
  const styles = useStyles();
  const a = object.attribution;
  if (a?.status === 'attributed') {
    return (
      <Text className={styles.who}>
        {a.actor}
        <br />
        <span className={styles.meta}>{`${formatCaptureDate(a.time)} · ${a.operation}`}</span>
      </Text>
    );
  }
  return <Text>{`Unknown: ${a?.reason ?? 'the audit log was not read'}`}</Text>;
}

interface Revert {
  readonly chosen: ReadonlySet<string>;
  readonly setChosen: (chosen: ReadonlySet<string>) => void;
  /** asks for confirmation, then reverts these objects */
  readonly start: (objects: readonly DriftedObjectDto[]) => void;
  readonly busy: boolean;
}

function DriftResult({ drift, revert }: { drift: ClientDriftDto; revert: Revert }) {
  const styles = useStyles();
  const { check, settings } = drift;
  const schedule = settings.enabled
    ? `Checked every ${settings.quickIntervalInMinutes} minutes, fully every ${settings.fullIntervalInMinutes / 60} hours${drift.defaultSettings ? ' (defaults)' : ''}.`
    : 'Scheduled checks are off for this client.';
  if (!check) {
    return (
      <MessageBar intent="info">
        <MessageBarBody>{`Not checked yet. ${schedule}`}</MessageBarBody>
      </MessageBar>
    );
  }
  const now = new Date();
  return (
    <>
      <div className={styles.facts}>
        {check.status === 'drifted' ? (
          <Badge appearance="filled" color="danger">
            {`Drifted: ${check.driftedCount}`}
          </Badge>
        ) : (
          <Badge appearance="tint" color="success">
            In sync
          </Badge>
        )}
        <Text>{`Last ${check.kind} check ${selectorRelativeDate(check.checkedAt, now)} (${formatCaptureDate(check.checkedAt)})`}</Text>
        {check.driftSince && <Text>{`Drifted since ${formatCaptureDate(check.driftSince)}`}</Text>}
        {check.status === 'inSync' && check.resolvedAt && (
          <Text>{`Back in sync since ${formatCaptureDate(check.resolvedAt)}`}</Text>
        )}
        <Text className={styles.meta}>{schedule}</Text>
      </div>
      {check.notRead.length > 0 && (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Partial check: some workloads were not read</MessageBarTitle>
            Their policies are not drift and not known to be in sync.
            <ul className={styles.changes}>
              {check.notRead.map((w) => (
                <li key={w.workload}>{`${w.workload}: ${w.text}`}</li>
              ))}
            </ul>
          </MessageBarBody>
        </MessageBar>
      )}
      {check.objects.length === 0 ? (
        <Text>Everything that was read matches the approved configuration on main.</Text>
      ) : (
        <DriftTable objects={check.objects} revert={revert} />
      )}
    </>
  );
}

function DriftTable({ objects, revert }: { objects: readonly DriftedObjectDto[]; revert: Revert }) {
  const styles = useStyles();
  const revertable = objects.filter(canRevert);
  // what was chosen and is still drifted (a reload may have resolved some)
  const chosen = revertable.filter((o) => revert.chosen.has(o.path));
  const all = chosen.length === revertable.length && revertable.length > 0;
  return (
    <>
      <div className={styles.revertActions} role="group" aria-label="Revert">
        <RoleGate needs="Approver">
          <Button
            icon={<ArrowUndoRegular />}
            disabled={revert.busy || chosen.length === 0}
            onClick={() => revert.start(chosen)}
          >
            {`Revert chosen (${chosen.length})`}
          </Button>
        </RoleGate>
        <RoleGate needs="Approver">
          <Button
            icon={<ArrowUndoRegular />}
            disabled={revert.busy || revertable.length === 0}
            onClick={() => revert.start(revertable)}
          >
            Revert all
          </Button>
        </RoleGate>
        <Text className={styles.meta}>
          Puts the objects back in the tenant as the approved configuration on main has them.
        </Text>
      </div>
      <Table aria-label="Drifted objects">
        <TableHeader>
          <TableRow>
            <TableHeaderCell className={styles.choose}>
              <Checkbox
                aria-label="Choose every object that can be reverted"
                checked={all ? true : chosen.length > 0 ? 'mixed' : false}
                disabled={revertable.length === 0}
                onChange={() => revert.setChosen(new Set(all ? [] : revertable.map((o) => o.path)))}
              />
            </TableHeaderCell>
            <TableHeaderCell>Object</TableHeaderCell>
            <TableHeaderCell>Change</TableHeaderCell>
            <TableHeaderCell>Properties (approved → tenant)</TableHeaderCell>
            <TableHeaderCell>Who and when</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {objects.map((o) => (
            <TableRow key={o.path}>
              <TableCell>
                <Checkbox
                  aria-label={`Choose ${o.name}`}
                  checked={revert.chosen.has(o.path)}
                  disabled={!canRevert(o)}
                  onChange={(_, data) => {
                    const next = new Set(revert.chosen);
                    if (data.checked === true) next.add(o.path);
                    else next.delete(o.path);
                    revert.setChosen(next);
                  }}
                />
              </TableCell>
              <TableCell>
                <Text weight="semibold">{o.name}</Text>
                <br />
                <span className={styles.meta}>{o.workload}</span>
                {!canRevert(o) && (
                  <>
                    <br />
                    <span className={styles.meta}>{`Not reverted by Aegis: ${NO_API_TEXT}`}</span>
                  </>
                )}
              </TableCell>
              <TableCell>{CHANGE_LABELS[o.change]}</TableCell>
              <TableCell>
                {o.properties.length === 0 ? (
                  '—'
                ) : (
                  <ul className={styles.changes}>
                    {o.properties.map((p) => (
                      <li key={p.property}>
                        {`${p.property}: `}
                        <span className={styles.value}>
                          {`${shown(p.oldValue)} → ${shown(p.newValue)}`}
                        </span>
                      </li>
                    ))}
                  </ul>
                )}
              </TableCell>
              <TableCell>
                <Who object={o} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}

/** /fleet/:clientCode/drift (issue 28 §5): what drifted in a client's tenant, who changed it, and what to do. */
export function DriftPage() {
  const styles = useStyles();
  const client = (useParams().clientCode ?? '').toUpperCase();
  const valid = isClientCode(client);
  const drift = useClientDrift(client, valid);
  const runs = useDriftRuns(client, () => void drift.refetch());
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const confirm = useConfirm();

  const startRevert = async (objects: readonly DriftedObjectDto[]) => {
    const confirmed = await confirm({
      title: 'Revert drift',
      body: <RevertConfirmBody client={client} objects={objects} />,
      confirmLabel: 'Revert',
      destructive: true,
    });
    if (!confirmed) return;
    try {
      await runs.startRevert(objects.map((o) => o.path));
      setChosen(new Set());
    } catch {
      // shown from runs.revertError
    }
  };
  if (!valid) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>{`'${client}' is not a client code (three capital letters).`}</MessageBarBody>
      </MessageBar>
    );
  }
  return (
    <div className={styles.root}>
      <PageHeader
        title={`Drift of ${client}`}
        subtitle="What changed in the client's tenant since its configuration on main was approved."
        actions={
          <>
            <Button
              icon={<ArrowClockwiseRegular />}
              onClick={() => void drift.refetch()}
              disabled={drift.isFetching}
            >
              Refresh
            </Button>
            <Button
              appearance="primary"
              icon={<PlayRegular />}
              onClick={() => void runs.startCheck().catch(() => undefined)}
              disabled={runs.checking}
            >
              Check now
            </Button>
          </>
        }
      />
      {runs.revert && (
        <ResultBar
          intent={RUN_INTENTS[runs.revert.phase]}
          actions={<RunLogButton run={runs.revert} />}
        >
          {revertText(client, runs.revert.count, runs.revert.id, runs.revert.phase)}
        </ResultBar>
      )}
      {runs.revertError && (
        <ResultBar intent="error" title="The revert could not be started.">
          {runs.revertError.message}
        </ResultBar>
      )}
      {runs.check && (
        <ResultBar
          intent={RUN_INTENTS[runs.check.phase]}
          actions={<RunLogButton run={runs.check.ref} />}
        >
          {checkText(runs.check.ref.id, runs.check.phase)}
        </ResultBar>
      )}
      {runs.checkError && (
        <ResultBar intent="error" title="The drift check could not be started.">
          {runs.checkError.message}
        </ResultBar>
      )}
      <nav className={styles.links} aria-label="What to do about drift">
        <RouterLink to={paths.fleet.getHref()}>Back to the Fleet</RouterLink>
        <RouterLink to={paths.triggerCapture.getHref()}>
          Capture the tenant to review the drift
        </RouterLink>
        <RouterLink to={paths.captureManagement.getHref(client)}>
          Review the client&apos;s captures
        </RouterLink>
        <RouterLink to={paths.clientParameters.getHref(client)}>
          The client&apos;s parameters and layers
        </RouterLink>
      </nav>
      {drift.isPending && <Spinner label="Loading the drift..." />}
      {drift.isError && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Failed to load the drift.</MessageBarTitle>
            {drift.error.message}
          </MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void drift.refetch()}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {drift.data && (
        <DriftResult
          drift={drift.data}
          revert={{
            chosen,
            setChosen,
            start: (objects) => void startRevert(objects),
            busy: runs.busy,
          }}
        />
      )}
    </div>
  );
}
