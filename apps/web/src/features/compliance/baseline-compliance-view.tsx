import {
  baselineHeader,
  BASELINE_VIEW_TEXTS,
  exportBlocker,
  makesCapturePartial,
} from '@aegis/domain';
import {
  Button,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular, SparkleRegular } from '@fluentui/react-icons';
import { useState } from 'react';

import { NotCapturedNotice } from '../../components/not-captured-notice';
import { RoleGate } from '../../components/role-gate';
import { useBrowserSession } from '../../lib/session';

import { AcceptedSection } from './components/accepted-section';
import { ConfirmedMatches } from './components/confirmed-matches';
import { DeviationList } from './components/deviation-list';
import { ExportComplianceDialog } from './components/export-compliance-dialog';
import { PendingAcceptances } from './components/pending-acceptances';
import { PolicyDetailDialog } from './components/policy-detail-dialog';
import { PromoteDialog } from './components/promote-dialog';
import { SmartMatching } from './components/smart-matching';
import { SummaryCards } from './components/summary-cards';
import { useComplianceViewFlow } from './hooks/use-compliance-view-flow';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '16px' },
  header: { display: 'flex', alignItems: 'center', gap: '12px', flexWrap: 'wrap' },
  grow: { flexGrow: 1 },
  center: {
    padding: '48px',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: '12px',
    textAlign: 'center',
  },
  perfect: { color: tokens.colorPaletteGreenForeground1 },
});

/**
 * The Baseline Compliance view (spec 3 §2): the client (main, or a capture branch) against the company baseline,
 * deviations by severity and service area, smart matching, accepted deviations and the export. Capture
 * management embeds it in its Baseline Compliance tab.
 */
export function BaselineComplianceView({ client, branch }: { client: string; branch?: string }) {
  const styles = useStyles();
  const flow = useComplianceViewFlow(client, branch);
  const { report, state, dispatch, toast, stored, notCaptured, reload } = flow;
  const { dialog } = state;
  /** the resource path of the client's policy being promoted into the baseline */
  const [promoting, setPromoting] = useState<string | undefined>();
  const me = useBrowserSession().loggedInUser?.upn ?? '';
  const view = report.data;

  const header = (
    <div className={styles.header}>
      <Text as="h2" size={600} weight="semibold" className={styles.grow}>
        {baselineHeader(client, branch)}
      </Text>
      <Button icon={<ArrowClockwiseRegular />} onClick={reload} disabled={report.isFetching}>
        Refresh
      </Button>
    </div>
  );

  let body;
  if (report.isPending || (report.isFetching && !report.data)) {
    body = (
      <div className={styles.center}>
        <Spinner label={BASELINE_VIEW_TEXTS.loading} />
      </div>
    );
  } else if (notCaptured) {
    body = (
      <div className={styles.center}>
        <Text size={500} weight="semibold">
          {BASELINE_VIEW_TEXTS.noConfigurationTitle}
        </Text>
        <Text>{BASELINE_VIEW_TEXTS.noConfigurationBody(client)}</Text>
      </div>
    );
  } else if (report.isError || !view || !report.data) {
    body = (
      <div className={styles.center} role="alert">
        <Text size={500} weight="semibold">
          {BASELINE_VIEW_TEXTS.failedTitle}
        </Text>
        <Text>{report.error?.message}</Text>
        <Button appearance="primary" onClick={() => void report.refetch()}>
          Try Again
        </Button>
      </div>
    );
  } else {
    const data = view.compliance;
    body = (
      <>
        {report.data.warnings.map((w) => (
          <MessageBar key={w} intent="warning" layout="multiline">
            <MessageBarBody>{w}</MessageBarBody>
          </MessageBar>
        ))}
        <NotCapturedNotice
          workloads={data.notCaptured ?? []}
          partial={(data.notCaptured ?? []).some(makesCapturePartial)}
        />
        {stored.pending.length > 0 && (
          <MessageBar intent="warning" layout="multiline">
            <MessageBarBody>
              {stored.pending.length} confirmed match(es) are saved in this browser only: they could
              not be saved to the repository yet.
            </MessageBarBody>
          </MessageBar>
        )}
        {view.unmatched.length > 0 && state.matching === 'off' && (
          <MessageBar intent="info" layout="multiline">
            <MessageBarBody>
              <MessageBarTitle>{BASELINE_VIEW_TEXTS.unmatchedTitle}</MessageBarTitle>
              {view.unmatched.length} baseline{' '}
              {view.unmatched.length === 1 ? 'policy is' : 'policies are'} missing from the client
              but may exist under another name.
            </MessageBarBody>
            <MessageBarActions>
              <RoleGate needs="Approver">
                <Button
                  appearance="primary"
                  icon={<SparkleRegular />}
                  onClick={() => dispatch({ type: 'startMatching' })}
                >
                  Enable Smart Matching
                </Button>
              </RoleGate>
            </MessageBarActions>
          </MessageBar>
        )}
        <SummaryCards data={data} unmatched={view.unmatched.length} />
        <ConfirmedMatches flow={flow} />
        {state.matching !== 'off' && <SmartMatching flow={flow} unmatched={view.unmatched} />}
        {data.deviations.length === 0 ? (
          <div className={styles.center}>
            <Text size={600} weight="semibold" className={styles.perfect}>
              {BASELINE_VIEW_TEXTS.perfectTitle}
            </Text>
            <Text>{BASELINE_VIEW_TEXTS.perfectBody}</Text>
          </div>
        ) : (
          <DeviationList
            groups={data.deviations}
            layers={report.data.policyLayers ?? {}}
            onOpen={(group) => dispatch({ type: 'openDetail', group })}
            onExport={() => {
              const blocker = exportBlocker(data);
              if (blocker) toast('info', blocker);
              else dispatch({ type: 'openExport' });
            }}
          />
        )}
        <PendingAcceptances
          client={client}
          requests={report.data?.acceptedDeviations?.pendingAcceptances ?? []}
          me={me}
        />
        <AcceptedSection client={client} groups={data.acceptedGroups ?? []} />
      </>
    );
  }

  return (
    <div className={styles.root}>
      {header}
      {body}
      {dialog.open === 'export' && view && (
        <ExportComplianceDialog
          client={client}
          data={view.compliance}
          onClose={() => dispatch({ type: 'closeDialog' })}
          onExported={(message) => toast('success', message)}
        />
      )}
      {dialog.open === 'detail' && (
        <PolicyDetailDialog
          key={dialog.group.path}
          flow={flow}
          group={dialog.group}
          {...(dialog.error ? { error: dialog.error } : {})}
          onClose={() => dispatch({ type: 'closeDialog' })}
          // promotion reads the client's policy on main, so only the report of main offers it
          {...(branch === undefined || branch === 'main'
            ? {
                onPromote: () => {
                  setPromoting(dialog.group.clientPath ?? dialog.group.path);
                  dispatch({ type: 'closeDialog' });
                },
              }
            : {})}
        />
      )}
      {promoting && (
        <PromoteDialog
          client={client}
          path={promoting}
          layers={report.data?.layers ?? []}
          onClose={() => setPromoting(undefined)}
        />
      )}
    </div>
  );
}
