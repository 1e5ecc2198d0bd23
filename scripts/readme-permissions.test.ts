// The README's list of what the app registration needs in a client tenant is the workload
// catalogue's (ADR 050): a workload that gains a permission fails this test until the README says so.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { appRegistrationRequirements } from '@aegis/domain';
import { describe, expect, it } from 'vitest';

const README = fileURLToPath(new URL('../README.md', import.meta.url));
const START = '<!-- app-permissions:start -->';
const END = '<!-- app-permissions:end -->';

/** The README's lines for the catalogue's requirements. */
function expectedLines(): string[] {
  const needed = appRegistrationRequirements();
  return [
    ...needed.application.map(
      (api) => `- ${api.api} (application): ${api.names.map((n) => `\`${n}\``).join(', ')}`,
    ),
    `- Entra roles of the app's service principal: ${needed.directoryRoles.join(', ')}`,
    `- Azure roles on the client's subscription: ${needed.azureRoles.join(', ')}`,
  ];
}

describe('README: the app registration in a client tenant', () => {
  it('lists exactly the permissions and roles of the workload catalogue', () => {
    const text = readFileSync(README, 'utf8');
    const start = text.indexOf(START);
    const end = text.indexOf(END);
    expect(start).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(start);
    const listed = text
      .slice(start + START.length, end)
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('- '));
    expect(listed).toEqual(expectedLines());
  });
});
