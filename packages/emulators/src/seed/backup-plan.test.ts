import { describe, expect, it } from 'vitest';

import { backupPlan } from './seed-devops';

const HOUR = 3_600_000;

/** Hours since each client's last scheduled backup in the seeded history. */
function hoursSinceLastScheduled(now: Date): Map<string, number> {
  const last = new Map<string, number>();
  for (const b of backupPlan(now)) {
    if (!b.scheduled) continue;
    expect(b.date.getTime()).toBeLessThanOrEqual(now.getTime());
    last.set(b.client, Math.max(last.get(b.client) ?? 0, b.date.getTime()));
  }
  return new Map([...last].map(([client, t]) => [client, (now.getTime() - t) / HOUR]));
}

describe('seeded backup history', () => {
  // before and after the daily 01:00 UTC run: the health of each client must not depend on it
  it.each(['2026-11-24T00:30:00Z', '2026-11-24T01:30:00Z', '2026-11-24T23:59:00Z'])(
    'gives ABC a backup within 24 h and CON one 24-48 h old at %s',
    (iso) => {
      const hours = hoursSinceLastScheduled(new Date(iso));
      expect(hours.get('ABC')).toBeLessThan(24);
      expect(hours.get('CON')).toBeGreaterThanOrEqual(24);
      expect(hours.get('CON')).toBeLessThan(48);
      expect(hours.get('FAB')).toBeGreaterThan(48);
      expect(hours.has('WWI')).toBe(false);
    },
  );
});
