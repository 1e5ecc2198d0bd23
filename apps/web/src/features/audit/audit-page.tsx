import { roleRequiredMessage } from '@aegis/domain';
import {
  Button,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular, DismissRegular, FilterRegular } from '@fluentui/react-icons';
import { useState, type FormEvent } from 'react';

import { ClientPicker } from '../../components/client-picker';
import { PageHeader } from '../../components/page-header';
import { useCan } from '../../lib/roles';

import { useAuditClients, useAuditEvents, type AuditFilters } from './api/audit-api';
import { AuditTable } from './audit-table';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '16px' },
  filters: { display: 'flex', gap: '12px', alignItems: 'flex-end', flexWrap: 'wrap' },
  actor: { minWidth: '280px' },
  meta: { color: tokens.colorNeutralForeground3 },
  more: { alignSelf: 'flex-start' },
  action: { display: 'flex', alignItems: 'center', gap: '8px', flexWrap: 'wrap' },
});

/** The current month, as the API partitions it (UTC). */
export function currentAuditMonth(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

/** /audit (issue 18 §5): who changed what, when, and the result; for Administrators. */
export function AuditPage() {
  const styles = useStyles();
  const allowed = useCan('Administrator');
  const [draft, setDraft] = useState<AuditFilters>(() => ({
    month: currentAuditMonth(),
    actor: '',
    client: '',
    action: '',
  }));
  const [filters, setFilters] = useState<AuditFilters>(draft);
  const events = useAuditEvents(filters, allowed);
  const clients = useAuditClients(allowed);

  const header = (
    <PageHeader
      title="Audit Trail"
      subtitle="Every change made through Aegis: who, what, when, with which parameters, and the result."
      actions={
        allowed && (
          <Button
            icon={<ArrowClockwiseRegular />}
            onClick={() => void events.refetch()}
            disabled={events.isFetching}
          >
            Refresh
          </Button>
        )
      }
    />
  );

  if (!allowed) {
    return (
      <div className={styles.root}>
        {header}
        <MessageBar intent="warning">
          <MessageBarBody>
            <MessageBarTitle>No access to the audit trail</MessageBarTitle>
            {roleRequiredMessage('Administrator')}
          </MessageBarBody>
        </MessageBar>
      </div>
    );
  }

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
  };
  const rows = events.data?.pages.flatMap((page) => page.events) ?? [];

  return (
    <div className={styles.root}>
      {header}
      <form className={styles.filters} onSubmit={apply} aria-label="Audit filters">
        <Field label="Month">
          <Input
            type="month"
            value={draft.month}
            onChange={(_e, data) => setDraft({ ...draft, month: data.value })}
          />
        </Field>
        <Field label="Who (UPN)" className={styles.actor}>
          <Input
            type="search"
            value={draft.actor}
            placeholder="Anyone"
            onChange={(_e, data) => setDraft({ ...draft, actor: data.value })}
          />
        </Field>
        <ClientPicker
          value={draft.client}
          onChange={(client) => setDraft({ ...draft, client })}
          clients={clients.data?.clients}
          loading={clients.isPending}
          error={clients.error}
          onRetry={() => void clients.refetch()}
          placeholder="All clients"
        />
        <Button type="submit" appearance="primary" icon={<FilterRegular />}>
          Apply filters
        </Button>
      </form>
      {filters.action && (
        <div className={styles.action}>
          <Text>
            Only <Text font="monospace">{filters.action}</Text>
          </Text>
          <Button
            size="small"
            icon={<DismissRegular />}
            onClick={() => {
              setDraft({ ...draft, action: '' });
              setFilters({ ...filters, action: '' });
            }}
          >
            All actions
          </Button>
        </div>
      )}

      {events.isPending ? (
        <Spinner label="Loading the audit trail..." />
      ) : events.isError ? (
        <MessageBar intent="error">
          <MessageBarBody>
            <MessageBarTitle>Could not load the audit trail</MessageBarTitle>
            {events.error.message}
          </MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void events.refetch()}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      ) : rows.length === 0 ? (
        <MessageBar intent="info">
          <MessageBarBody>No audit events match these filters.</MessageBarBody>
        </MessageBar>
      ) : (
        <>
          <Text className={styles.meta}>
            {`${rows.length} event${rows.length === 1 ? '' : 's'}, newest first`}
          </Text>
          <AuditTable
            events={rows}
            onOnlyAction={(action) => {
              setDraft({ ...draft, action });
              setFilters({ ...filters, action });
            }}
          />
          {events.hasNextPage && (
            <Button
              className={styles.more}
              onClick={() => void events.fetchNextPage()}
              disabled={events.isFetchingNextPage}
            >
              {events.isFetchingNextPage ? 'Loading older events...' : 'Load older events'}
            </Button>
          )}
        </>
      )}
    </div>
  );
}
