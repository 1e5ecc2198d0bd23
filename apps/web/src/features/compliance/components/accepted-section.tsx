import {
  BASELINE_TOAST_MS,
  displayValue,
  shortenPropertyPath,
  type AcceptedDeviationGroup,
} from '@aegis/domain';
import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Button,
  makeStyles,
  Text,
  tokens,
} from '@fluentui/react-components';

import { useConfirm } from '../../../components/confirm-dialog';
import { useNotify } from '../../../components/notifier';
import { RoleGate } from '../../../components/role-gate';
import { useRevokeAcceptance } from '../api/compliance-api';

const useStyles = makeStyles({
  group: {
    padding: '10px 12px',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    marginBottom: '8px',
    display: 'flex',
    flexDirection: 'column',
    gap: '4px',
  },
  head: { display: 'flex', justifyContent: 'space-between', gap: '8px', flexWrap: 'wrap' },
  line: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    overflowWrap: 'anywhere',
  },
});

/**
 * Accepted deviations in force, in their own collapsible section (issue 13 §5); an Approver
 * revokes a policy's acceptances here, after a prompt.
 */
export function AcceptedSection({
  client,
  groups,
}: {
  client: string;
  groups: readonly AcceptedDeviationGroup[];
}) {
  const styles = useStyles();
  const revoke = useRevokeAcceptance(client);
  const confirm = useConfirm();
  const notify = useNotify();
  const toast = (intent: 'success' | 'error', title: string) =>
    notify({ intent, title, timeoutInMs: BASELINE_TOAST_MS });

  async function onRevoke(g: AcceptedDeviationGroup): Promise<void> {
    const revokeIt = await confirm({
      title: 'Revoke accepted deviations',
      body: `Revoke the accepted deviations of ${g.policyName}?`,
      confirmLabel: 'Revoke',
    });
    if (!revokeIt) return;
    revoke.mutate(g.path, {
      onSuccess: () => toast('success', `Accepted deviations of ${g.policyName} revoked.`),
      onError: () => toast('error', 'Failed to revoke accepted deviations. Please try again.'),
    });
  }

  const count = groups.reduce((n, g) => n + g.deviations.length, 0);
  if (groups.length === 0) return null;
  return (
    <Accordion collapsible aria-label="Accepted deviations">
      <AccordionItem value="accepted">
        <AccordionHeader>
          <Text weight="semibold">
            Accepted Deviations ({count} in {groups.length}{' '}
            {groups.length === 1 ? 'policy' : 'policies'})
          </Text>
        </AccordionHeader>
        <AccordionPanel>
          {groups.map((g) => (
            <div key={g.path} className={styles.group}>
              <div className={styles.head}>
                <Text weight="semibold">
                  {g.policyName} <Text size={200}>({g.category})</Text>
                </Text>
                <RoleGate needs="Approver">
                  <Button size="small" onClick={() => void onRevoke(g)}>
                    Revoke
                  </Button>
                </RoleGate>
              </div>
              <Text size={200}>
                Accepted by {g.acceptedBy} on {new Date(g.acceptedAt).toLocaleDateString('en-GB')}
                {g.expiresAt ? `, until ${g.expiresAt}` : ''}
                {g.reason ? `: ${g.reason}` : ''}
              </Text>
              {g.deviations.map((d) => (
                <span key={d.property} className={styles.line}>
                  {shortenPropertyPath(d.property)}: {displayValue(d.baselineValue)} →{' '}
                  {displayValue(d.clientValue)}
                </span>
              ))}
            </div>
          ))}
        </AccordionPanel>
      </AccordionItem>
    </Accordion>
  );
}
