import type { ClientDriftDto, DriftedObjectDto } from '@aegis/contracts';
import { formatCaptureDate, isClientCode, selectorRelativeDate } from '@aegis/domain';
import {
  Badge,
  Button,
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
import { ArrowClockwiseRegular, PlayRegular } from '@fluentui/react-icons';
import { Link as RouterLink, useParams } from 'react-router';

import { PageHeader } from '../../components/page-header';
import { paths } from '../../config/paths';

import { useClientDrift, useStartDriftCheck } from './api/drift-api';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '16px' },
  facts: { display: 'flex', gap: '24px', flexWrap: 'wrap', alignItems: 'center' },
  meta: { color: tokens.colorNeutralForeground3 },
  changes: { margin: 0, paddingLeft: '16px' },
  value: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
  links: { display: 'flex', gap: '16px', flexWrap: 'wrap' },
  // an actor's address is one long word: it wraps rather than leave its cell at 1024 px
  who: { overflowWrap: 'anywhere' },
});

const CHANGE_LABELS: Record<DriftedObjectDto['change'], string> = {
  added: 'Added in the tenant',
  removed: 'Removed from the tenant',
  changed: 'Changed',
};

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

function DriftResult({ drift }: { drift: ClientDriftDto }) {
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
        <Table aria-label="Drifted objects">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>Object</TableHeaderCell>
              <TableHeaderCell>Change</TableHeaderCell>
              <TableHeaderCell>Properties (approved → tenant)</TableHeaderCell>
              <TableHeaderCell>Who and when</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {check.objects.map((o) => (
              <TableRow key={o.path}>
                <TableCell>
                  <Text weight="semibold">{o.name}</Text>
                  <br />
                  <span className={styles.meta}>{o.workload}</span>
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
      )}
    </>
  );
}

/** /fleet/:clientCode/drift (issue 28 §5): what drifted in a client's tenant, who changed it, and what to do. */
export function DriftPage() {
  const styles = useStyles();
  const client = (useParams().clientCode ?? '').toUpperCase();
  const valid = isClientCode(client);
  const drift = useClientDrift(client, valid);
  const start = useStartDriftCheck(client);
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
              onClick={() => start.mutate()}
              disabled={start.isPending}
            >
              Check now
            </Button>
          </>
        }
      />
      {start.isSuccess && (
        <MessageBar intent="success">
          <MessageBarBody>{`Drift check started (run ${start.data.runId}). Refresh when it has finished.`}</MessageBarBody>
        </MessageBar>
      )}
      {start.isError && (
        <MessageBar intent="error">
          <MessageBarBody>
            <MessageBarTitle>The drift check could not be started.</MessageBarTitle>
            {start.error.message}
          </MessageBarBody>
        </MessageBar>
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
      {drift.data && <DriftResult drift={drift.data} />}
    </div>
  );
}
