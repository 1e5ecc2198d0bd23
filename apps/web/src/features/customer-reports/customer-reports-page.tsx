import type { CustomerReportSend } from '@aegis/contracts';
import { Button, makeStyles, Text, tokens } from '@fluentui/react-components';
import { DocumentPdfRegular, MailRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';

import { ClientPicker } from '../../components/client-picker';
import { useConfirm } from '../../components/confirm-dialog';
import { useNotify } from '../../components/notifier';
import { PageHeader } from '../../components/page-header';
import { QueryState } from '../../components/query-state';
import { ResultBar } from '../../components/result-bar';
import { RoleGate } from '../../components/role-gate';
import { paths } from '../../config/paths';
import { useClients } from '../../lib/clients/use-clients';

import {
  downloadSentReport,
  previewReport,
  useReportHistory,
  useReportSchedule,
  useSaveReportSchedule,
  useSendReportNow,
} from './api/customer-reports-api';
import { ReportHistory } from './components/report-history';
import { ScheduleForm } from './components/schedule-form';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '20px', maxWidth: '1100px' },
  picker: { maxWidth: '360px' },
  section: { display: 'flex', flexDirection: 'column', gap: '10px' },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center' },
  meta: { color: tokens.colorNeutralForeground3 },
});

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** /customer-reports (issue 29): each client's report schedule, preview, send now and history. */
export function CustomerReportsPage() {
  const styles = useStyles();
  const clients = useClients();
  const [params, setParams] = useSearchParams();
  const client = params.get('client') ?? '';
  const schedule = useReportSchedule(client || undefined);
  const history = useReportHistory(client || undefined);
  const save = useSaveReportSchedule(client);
  const send = useSendReportNow(client);
  const confirm = useConfirm();
  const notify = useNotify();
  const [previewing, setPreviewing] = useState(false);

  function choose(code: string) {
    save.reset();
    send.reset();
    setParams(code ? { client: code } : {}, { replace: true });
  }

  async function preview() {
    setPreviewing(true);
    try {
      await previewReport(client);
    } catch (error) {
      notify({ intent: 'error', title: 'The preview could not be made', body: message(error) });
    } finally {
      setPreviewing(false);
    }
  }

  async function sendNow() {
    const current = schedule.data?.schedule;
    if (!current) return;
    const confirmed = await confirm({
      title: 'Send the report now',
      body: `The ${current.duePeriod.label} report goes to ${current.contacts.join(', ')}${current.technicians.length ? `, with ${current.technicians.join(', ')} in copy` : ''}.`,
      confirmLabel: 'Send',
    });
    if (!confirmed) return;
    try {
      const sent = await send.mutateAsync();
      notify({ intent: 'success', title: `The ${sent.periodLabel} report was sent.` });
    } catch (error) {
      notify({ intent: 'error', title: 'The report was not sent', body: message(error) });
    }
  }

  async function download(sent: CustomerReportSend) {
    try {
      await downloadSentReport(client, sent);
    } catch (error) {
      notify({
        intent: 'error',
        title: 'The report could not be downloaded',
        body: message(error),
      });
    }
  }

  const current = schedule.data?.schedule;
  return (
    <div className={styles.root}>
      <PageHeader
        title="Customer Reports"
        subtitle="Each client's compliance report: who receives it, when, and what was sent."
        actions={
          <RouterLink to={paths.customerReportBranding.getHref()}>
            Branding of the reports
          </RouterLink>
        }
      />
      <ClientPicker
        className={styles.picker}
        value={client}
        onChange={choose}
        clients={clients.data?.clients}
        loading={clients.isPending}
        error={clients.error}
        onRetry={() => void clients.refetch()}
        needs={['configuration']}
        placeholder="Select a client"
      />
      {!client ? (
        <Text>Select a client to see its report schedule and history.</Text>
      ) : (
        <QueryState
          query={schedule}
          loading="Loading the report schedule..."
          failed="The report schedule could not be loaded"
        >
          {() => (
            <>
              <section className={styles.section} aria-labelledby="report-schedule">
                <h2 id="report-schedule">Schedule and recipients</h2>
                {current ? (
                  <Text className={styles.meta}>
                    Next report: {current.duePeriod.label}
                    {current.duePeriod.sent ? ' (already sent on schedule)' : ''}. Last changed by{' '}
                    {current.updatedBy}.
                  </Text>
                ) : (
                  <Text className={styles.meta}>
                    No report is scheduled for {client} yet: fill in the recipients and save.
                  </Text>
                )}
                <ScheduleForm
                  key={`${client}:${current?.updatedAt ?? ''}`}
                  client={client}
                  schedule={current ?? null}
                  saving={save.isPending}
                  error={save.error}
                  onSave={(body) =>
                    save.mutate(body, {
                      onSuccess: () =>
                        notify({ intent: 'success', title: 'The schedule was saved.' }),
                    })
                  }
                />
                {save.isError && !('field' in save.error && save.error.field) ? (
                  <ResultBar intent="error">{message(save.error)}</ResultBar>
                ) : null}
              </section>
              <section className={styles.section} aria-labelledby="report-actions">
                <h2 id="report-actions">Report</h2>
                <div className={styles.actions}>
                  <Button
                    icon={<DocumentPdfRegular />}
                    onClick={() => void preview()}
                    disabled={previewing}
                  >
                    {previewing ? 'Making the preview…' : 'Preview PDF'}
                  </Button>
                  <RoleGate needs="Operator">
                    <Button
                      appearance="primary"
                      icon={<MailRegular />}
                      onClick={() => void sendNow()}
                      disabled={!current || send.isPending}
                    >
                      {send.isPending ? 'Sending…' : 'Send now'}
                    </Button>
                  </RoleGate>
                  {!current ? <Text className={styles.meta}>Save a schedule to send.</Text> : null}
                </div>
              </section>
              <section className={styles.section} aria-labelledby="report-history">
                <h2 id="report-history">History</h2>
                <QueryState
                  query={history}
                  loading="Loading the history..."
                  failed="The history could not be loaded"
                >
                  {({ sends }) => (
                    <ReportHistory sends={sends} onDownload={(s) => void download(s)} />
                  )}
                </QueryState>
              </section>
            </>
          )}
        </QueryState>
      )}
    </div>
  );
}
