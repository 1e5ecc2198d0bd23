import { confirmedAgo, type ConfirmedMatch } from '@aegis/domain';
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

import { RoleGate } from '../../../components/role-gate';

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

/** The confirmed matches list (spec 3 §2): badge, date, names, sub-scores, remove. */
export function ConfirmedMatches({
  matches,
  pending,
  onRemove,
  now = new Date(),
}: {
  matches: readonly ConfirmedMatch[];
  pending: readonly ConfirmedMatch[];
  onRemove: (match: ConfirmedMatch) => void;
  now?: Date;
}) {
  const styles = useStyles();
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
                  onClick={() => onRemove(m)}
                />
              </RoleGate>
            </div>
          ))}
        </AccordionPanel>
      </AccordionItem>
    </Accordion>
  );
}
