import type { ClientScheduleRow } from '@aegis/contracts';
import { SLOTS_PER_DAY, weekGrid } from '@aegis/domain';
import {
  Badge,
  makeStyles,
  Tab,
  TabList,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useMemo, useState } from 'react';

const useStyles = makeStyles({
  section: { marginTop: '20px', display: 'flex', flexDirection: 'column', gap: '8px' },
  muted: { color: tokens.colorNeutralForeground3 },
  clients: { display: 'flex', gap: '6px', flexWrap: 'wrap', alignItems: 'center' },
});

/**
 * The week's slots and who holds them (issue 16, beyond the spec): one tab per day, the held slots
 * of that day with their clients. Two clients in one slot (a YAML edited by hand) is shown as a
 * conflict, since their builds would start together.
 */
export function WeekView({ rows }: { rows: readonly ClientScheduleRow[] }) {
  const styles = useStyles();
  const week = useMemo(() => weekGrid(rows), [rows]);
  const firstHeld = week.findIndex((d) => d.slots.some((s) => s.clients.length > 0));
  const [weekday, setWeekday] = useState(Math.max(firstHeld, 0));
  const day = week[weekday] ?? week[0];
  if (!day) return null;
  const held = day.slots.filter((s) => s.clients.length > 0);

  return (
    <section className={styles.section} aria-labelledby="week-heading">
      <Text as="h2" size={500} weight="semibold" id="week-heading">
        Week at a glance (UTC)
      </Text>
      <TabList
        aria-label="Day of the week"
        selectedValue={String(day.weekday)}
        onTabSelect={(_event, data) => setWeekday(Number(data.value))}
      >
        {week.map((d) => {
          const count = d.slots.filter((s) => s.clients.length > 0).length;
          return (
            <Tab key={d.day} value={String(d.weekday)}>
              {d.day} ({count})
            </Tab>
          );
        })}
      </TabList>
      <div role="tabpanel" aria-label={`${day.day} slots`}>
        {held.length === 0 ? (
          <Text className={styles.muted}>
            No pipeline is scheduled on {day.day}: all {SLOTS_PER_DAY} slots are free.
          </Text>
        ) : (
          <>
            <Table size="small" aria-label={`Slots held on ${day.day}`}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>Time</TableHeaderCell>
                  <TableHeaderCell>Held by</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {held.map(({ slot, clients }) => (
                  <TableRow key={slot.value}>
                    <TableCell>{slot.label}</TableCell>
                    <TableCell>
                      <span className={styles.clients}>
                        {clients.join(', ')}
                        {clients.length > 1 && (
                          <Badge appearance="tint" color="danger">
                            Conflict: {clients.length} builds start together
                          </Badge>
                        )}
                      </span>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Text className={styles.muted}>
              {SLOTS_PER_DAY - held.length} of {SLOTS_PER_DAY} slots free on {day.day}.
            </Text>
          </>
        )}
      </div>
    </section>
  );
}
