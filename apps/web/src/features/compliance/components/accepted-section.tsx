import { displayValue, shortenPropertyPath, type AcceptedDeviationGroup } from '@aegis/domain';
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

import { RoleGate } from '../../../components/role-gate';

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

/** Accepted deviations in force, in their own collapsible section (issue 13 §5). */
export function AcceptedSection({
  groups,
  canRevoke,
  onRevoke,
}: {
  groups: readonly AcceptedDeviationGroup[];
  canRevoke: boolean;
  onRevoke: (group: AcceptedDeviationGroup) => void;
}) {
  const styles = useStyles();
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
                {canRevoke && (
                  <RoleGate needs="Approver">
                    <Button size="small" onClick={() => onRevoke(g)}>
                      Revoke
                    </Button>
                  </RoleGate>
                )}
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
