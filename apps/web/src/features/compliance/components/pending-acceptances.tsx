import { BASELINE_TOAST_MS, type PendingAcceptance } from '@aegis/domain';
import {
  Button,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Text,
  tokens,
} from '@fluentui/react-components';

import { useNotify } from '../../../components/notifier';
import { RoleGate } from '../../../components/role-gate';
import { useDecideAcceptance } from '../api/compliance-api';

const useStyles = makeStyles({
  request: {
    padding: '10px 12px',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    marginTop: '8px',
    display: 'flex',
    flexDirection: 'column',
    gap: '4px',
  },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center' },
  line: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    overflowWrap: 'anywhere',
  },
});

/**
 * Acceptances of critical deviations waiting for a second Approver (ADR 051): who asked, why and
 * for what; an Approver other than the one who asked approves or rejects each, and this panel
 * saves the decision.
 */
export function PendingAcceptances({
  client,
  requests,
  me,
}: {
  client: string;
  requests: readonly PendingAcceptance[];
  /** the signed-in account's UPN */
  me: string;
}) {
  const styles = useStyles();
  const decide = useDecideAcceptance(client);
  const notify = useNotify();
  if (requests.length === 0) return null;
  // the path being decided, while a decision is saved
  const deciding = decide.isPending ? decide.variables.path : undefined;
  const error = decide.isError ? decide.error.message : undefined;
  const onDecide = (path: string, decision: 'approve' | 'reject') =>
    decide.mutate(
      { path, decision },
      {
        onSuccess: () =>
          notify({
            intent: 'success',
            title: decision === 'approve' ? 'Acceptance approved.' : 'Acceptance rejected.',
            timeoutInMs: BASELINE_TOAST_MS,
          }),
      },
    );
  return (
    <MessageBar intent="warning" layout="multiline" aria-label="Critical acceptances waiting">
      <MessageBarBody>
        <MessageBarTitle>
          {`Critical acceptances waiting for a second Approver (${requests.length})`}
        </MessageBarTitle>
        {error && <Text role="alert">{error}</Text>}
        {requests.map((r) => {
          const own = r.requestedBy.toLowerCase() === me.toLowerCase();
          return (
            <div key={r.path} className={styles.request}>
              <Text weight="semibold">
                {r.policyName} <Text size={200}>({r.category})</Text>
              </Text>
              <Text size={200}>
                Asked by {r.requestedBy} on {new Date(r.requestedAt).toLocaleDateString('en-GB')}
                {r.expiresAt ? `, until ${r.expiresAt}` : ''}
                {r.reason ? `: ${r.reason}` : ''}
              </Text>
              {r.properties.map((p) => (
                <span key={p} className={styles.line}>
                  {p}
                </span>
              ))}
              <div className={styles.actions}>
                {own ? (
                  <Text size={200}>
                    You asked for this acceptance, so another Approver must approve it (four-eyes
                    rule).
                  </Text>
                ) : (
                  <>
                    <RoleGate needs="Approver">
                      <Button
                        size="small"
                        appearance="primary"
                        disabled={deciding !== undefined}
                        onClick={() => onDecide(r.path, 'approve')}
                        aria-label={`Approve the acceptance of ${r.policyName}`}
                      >
                        {deciding === r.path ? 'Saving…' : 'Approve'}
                      </Button>
                    </RoleGate>
                    <RoleGate needs="Approver">
                      <Button
                        size="small"
                        disabled={deciding !== undefined}
                        onClick={() => onDecide(r.path, 'reject')}
                        aria-label={`Reject the acceptance of ${r.policyName}`}
                      >
                        Reject
                      </Button>
                    </RoleGate>
                  </>
                )}
              </div>
            </div>
          );
        })}
      </MessageBarBody>
    </MessageBar>
  );
}
