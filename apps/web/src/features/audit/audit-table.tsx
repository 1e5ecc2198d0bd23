import type { AuditEventDto } from '@aegis/contracts';
import { auditActionText, formatCaptureDate, textOf } from '@aegis/domain';
import {
  Badge,
  Button,
  createTableColumn,
  DataGrid,
  DataGridBody,
  DataGridCell,
  DataGridHeader,
  DataGridHeaderCell,
  DataGridRow,
  makeStyles,
  mergeClasses,
  Text,
  tokens,
  type TableColumnDefinition,
} from '@fluentui/react-components';
import { ChevronDownRegular, ChevronRightRegular, FilterRegular } from '@fluentui/react-icons';
import { useState } from 'react';

import { RunLogButton } from '../../components/run-log-dialog';
import type { RunLogRef } from '../../lib/pipeline-run';

const useStyles = makeStyles({
  scroll: { overflowX: 'auto' },
  // 'When' stays in view while the grid scrolls sideways on a narrow screen (1024 px)
  sticky: {
    position: 'sticky',
    left: 0,
    zIndex: 1,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  stack: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: '4px' },
  buttons: { display: 'flex', flexWrap: 'wrap', gap: '4px' },
  meta: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  when: { flex: '0 0 170px', minWidth: '170px' },
  actor: { flex: '1 1 220px', minWidth: '200px' },
  action: { flex: '2 1 300px', minWidth: '260px' },
  client: { flex: '0 0 72px', minWidth: '72px' },
  result: { flex: '0 0 130px', minWidth: '130px' },
  row: { alignItems: 'flex-start' },
  cell: { paddingTop: '8px', paddingBottom: '8px', alignSelf: 'stretch', alignItems: 'flex-start' },
  parameters: {
    margin: 0,
    padding: '8px',
    maxWidth: '100%',
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
  },
});

/**
 * '2026-11-24T01:02:03.000Z' in the technician's time zone, in the portal's one date format (the
 * spec's en-GB '24 Nov 2026 01:02', as capture management shows dates).
 */
function formatAuditTime(at: string): string {
  return formatCaptureDate(at) || at;
}

function OutcomeBadge({ event }: { event: AuditEventDto }) {
  const { outcome, statusCode } = event.result;
  const color = outcome === 'succeeded' ? 'success' : outcome === 'failed' ? 'danger' : 'warning';
  const label =
    outcome === 'started'
      ? 'Started, result not recorded'
      : `${outcome === 'succeeded' ? 'Succeeded' : 'Failed'}${statusCode ? ` (${statusCode})` : ''}`;
  return (
    <Badge appearance="tint" color={color}>
      {label}
    </Badge>
  );
}

/** 'Run 12 · Pull request 7' from what a change created. */
function detailsSummary(details: AuditEventDto['details']): string {
  if (!details) return '';
  const parts: string[] = [];
  if (details.runId !== undefined) parts.push(`Run ${textOf(details.runId)}`);
  if (details.pullRequestId !== undefined)
    parts.push(`Pull request ${textOf(details.pullRequestId)}`);
  if (typeof details.branch === 'string') parts.push(`Branch ${details.branch}`);
  if (typeof details.tag === 'string') parts.push(`Tag ${details.tag}`);
  // changes refused with 401, tallied per minute (ADR 043)
  if (typeof details.attempts === 'number' && typeof details.until === 'string') {
    const until = formatAuditTime(details.until);
    parts.push(`${details.attempts} attempt${details.attempts === 1 ? '' : 's'} until ${until}`);
  }
  return parts.join(' · ');
}

/** Where a change's run lives, when its details say so (ADR 042): its log can be opened. */
function runLogOf(details: AuditEventDto['details']): RunLogRef | undefined {
  const { runId, pipelineId, project } = details ?? {};
  return typeof runId === 'number' && typeof pipelineId === 'number' && typeof project === 'string'
    ? { project, pipelineId, id: runId }
    : undefined;
}

/** The events, newest first; each row's parameters (secrets removed by the server) on expand. */
export function AuditTable({
  events,
  onOnlyAction,
}: {
  events: readonly AuditEventDto[];
  /** Narrows the list to one action (the filter the screen applies). */
  onOnlyAction: (action: string) => void;
}) {
  const styles = useStyles();
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const columns: TableColumnDefinition<AuditEventDto>[] = [
    createTableColumn<AuditEventDto>({
      columnId: 'when',
      renderHeaderCell: () => 'When',
      renderCell: (e) => <time dateTime={e.at}>{formatAuditTime(e.at)}</time>,
    }),
    createTableColumn<AuditEventDto>({
      columnId: 'actor',
      renderHeaderCell: () => 'Who',
      renderCell: (e) => (
        <div className={styles.stack}>
          <Text>{e.actor.upn}</Text>
          <Text className={styles.meta}>{e.actor.roles.join(', ') || 'no Aegis role'}</Text>
        </div>
      ),
    }),
    createTableColumn<AuditEventDto>({
      columnId: 'action',
      renderHeaderCell: () => 'What',
      renderCell: (e) => {
        const open = expanded.has(e.id);
        const summary = detailsSummary(e.details);
        const log = runLogOf(e.details);
        return (
          <div className={styles.stack}>
            <Text weight="semibold">{auditActionText(e.action)}</Text>
            <Text font="monospace" className={styles.meta}>
              {e.action}
            </Text>
            {summary && <Text className={styles.meta}>{summary}</Text>}
            <div className={styles.buttons}>
              <Button
                size="small"
                appearance="subtle"
                icon={open ? <ChevronDownRegular /> : <ChevronRightRegular />}
                aria-expanded={open}
                aria-controls={`audit-parameters-${e.id}`}
                onClick={() => toggle(e.id)}
              >
                {open ? 'Hide parameters' : 'Show parameters'}
              </Button>
              <Button
                size="small"
                appearance="subtle"
                icon={<FilterRegular />}
                aria-label={`Only this action: ${auditActionText(e.action)}`}
                onClick={() => onOnlyAction(e.action)}
              >
                Only this action
              </Button>
              {log && <RunLogButton run={log} appearance="subtle" />}
            </div>
            {open && (
              <pre
                id={`audit-parameters-${e.id}`}
                className={styles.parameters}
                aria-label={`Parameters of ${auditActionText(e.action)}`}
              >
                {JSON.stringify({ parameters: e.parameters, details: e.details }, null, 2)}
              </pre>
            )}
          </div>
        );
      },
    }),
    createTableColumn<AuditEventDto>({
      columnId: 'client',
      renderHeaderCell: () => 'Client',
      renderCell: (e) => e.clientCode ?? '—',
    }),
    createTableColumn<AuditEventDto>({
      columnId: 'result',
      renderHeaderCell: () => 'Result',
      renderCell: (e) => <OutcomeBadge event={e} />,
    }),
  ];
  const width = (columnId: string | number) =>
    styles[String(columnId) as 'when' | 'actor' | 'action' | 'client' | 'result'];

  return (
    <div className={styles.scroll}>
      <DataGrid items={[...events]} columns={columns} getRowId={(e: AuditEventDto) => e.id}>
        <DataGridHeader>
          <DataGridRow>
            {({ renderHeaderCell, columnId }) => (
              <DataGridHeaderCell
                className={mergeClasses(width(columnId), columnId === 'when' && styles.sticky)}
              >
                {renderHeaderCell()}
              </DataGridHeaderCell>
            )}
          </DataGridRow>
        </DataGridHeader>
        <DataGridBody<AuditEventDto>>
          {({ item, rowId }) => (
            <DataGridRow<AuditEventDto>
              key={rowId}
              className={styles.row}
              aria-label={`${auditActionText(item.action)} by ${item.actor.upn}`}
            >
              {({ renderCell, columnId }) => (
                <DataGridCell
                  className={mergeClasses(
                    width(columnId),
                    styles.cell,
                    columnId === 'when' && styles.sticky,
                  )}
                >
                  {renderCell(item)}
                </DataGridCell>
              )}
            </DataGridRow>
          )}
        </DataGridBody>
      </DataGrid>
    </div>
  );
}
