import { confirmedAgo, MATCHING_MESSAGES, type ConfirmedMatch } from '@aegis/domain';
import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Badge,
  Button,
  makeStyles,
  Text,
  tokens,
} from '@fluentui/react-components';
import { DeleteRegular } from '@fluentui/react-icons';

import { useConfirm } from '../../../components/confirm-dialog';
import { RoleGate } from '../../../components/role-gate';
import { matchingApi } from '../api/compliance-api';
import type { ComplianceViewFlow } from '../hooks/use-compliance-view-flow';

const useStyles = makeStyles({
  row: {
    display: 'flex',
    alignItems: 'center',
    gap: '10px',
    flexWrap: 'wrap',
    padding: '8px 10px',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    marginBottom: '6px',
  },
  names: { flexGrow: 1, minWidth: '240px' },
});

/**
 * The confirmed matches list (spec 3 §2): badge, date, names, sub-scores, remove. Removing one
 * asks first, then drops it in this browser and, when saved, in the repository.
 */
export function ConfirmedMatches({
  flow,
  now = new Date(),
}: {
  flow: ComplianceViewFlow;
  now?: Date;
}) {
  const styles = useStyles();
  const { client, saved, stored, keepStored, toast, reload } = flow;
  const matches = saved?.matches ?? [];
  const pending = stored.pending;
  const confirmPrompt = useConfirm();

  const remove = async (m: ConfirmedMatch) => {
    const removing = await confirmPrompt({
      title: 'Remove match',
      body: MATCHING_MESSAGES.removePrompt(m.baselineName, m.clientName),
      confirmLabel: 'Remove',
    });
    if (!removing) return;
    keepStored({
      config: {
        ...stored.config,
        matches: stored.config.matches.filter((x) => x.baselineName !== m.baselineName),
      },
      pending: pending.filter((p) => p.baselineName !== m.baselineName),
    });
    if (!matches.some((x) => x.baselineName === m.baselineName)) {
      toast('success', MATCHING_MESSAGES.removed);
      return;
    }
    try {
      await matchingApi.remove(client, m.baselineName);
      toast('success', MATCHING_MESSAGES.removed);
    } catch (error) {
      console.error('Failed to remove the match from the repository', error);
      toast('error', MATCHING_MESSAGES.removeFailed);
    }
    reload();
  };
  const all = [
    ...matches.map((m) => ({ m, local: false })),
    ...pending.map((m) => ({ m, local: true })),
  ];
  if (all.length === 0) return null;
  return (
    <Accordion collapsible aria-label="Confirmed matches">
      <AccordionItem value="matches">
        <AccordionHeader>
          <Text weight="semibold">Confirmed Matches ({all.length})</Text>
        </AccordionHeader>
        <AccordionPanel>
          {all.map(({ m, local }) => (
            <div key={`${m.baselineName}-${m.clientId ?? m.clientName}`} className={styles.row}>
              <Badge color={m.score >= 90 ? 'success' : m.score >= 75 ? 'warning' : 'danger'}>
                {m.score}%
              </Badge>
              <span className={styles.names}>
                <Text weight="semibold">{m.baselineName}</Text> <Text>↔ {m.clientName}</Text>
                <Text size={200} block>
                  Conditions {Math.round(m.scores.conditions)}% · Grant controls{' '}
                  {Math.round(m.scores.grantControls)}%
                  {m.scores.sessionControls < 100
                    ? ` · Session controls ${Math.round(m.scores.sessionControls)}%`
                    : ''}
                </Text>
              </span>
              <Text size={200}>Confirmed {confirmedAgo(m.confirmedAt, now)}</Text>
              {local && <Badge color="warning">This browser only</Badge>}
              <RoleGate needs="Approver">
                <Button
                  size="small"
                  icon={<DeleteRegular />}
                  aria-label={`Remove match ${m.baselineName}`}
                  onClick={() => void remove(m)}
                />
              </RoleGate>
            </div>
          ))}
        </AccordionPanel>
      </AccordionItem>
    </Accordion>
  );
}
