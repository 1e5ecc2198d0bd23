import { describe, expect, it } from 'vitest';

import { severityByPropertyName } from './severity';

describe('severityByPropertyName: settings named by an array selector (spec 3 §5)', () => {
  it("reads the selector's name as part of the property", () => {
    expect(severityByPropertyName('values[name=EnableBannedPasswordCheckOnPremises].value')).toBe(
      'critical',
    );
    expect(severityByPropertyName('settings[id=TokenLifetimeInMinutes].value')).toBe('critical');
    expect(severityByPropertyName('values[name=GuestAccessEnabled].value')).toBe('high');
  });

  it("does not read the selector's key or a position as words", () => {
    // 'policyId=' is how the item was matched, not what it is
    expect(severityByPropertyName('values[name=CustomBlockedWordsList].value')).toBe('low');
    expect(severityByPropertyName('items[3].priority')).toBe('low');
    expect(severityByPropertyName('items[policyId=42].label')).toBe('low');
  });
});
