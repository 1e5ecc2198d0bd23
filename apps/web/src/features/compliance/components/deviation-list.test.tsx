import type { DeviationSummary } from '@aegis/domain';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { DeviationList } from './deviation-list';

const group = (path: string, policyName: string): DeviationSummary => ({
  path,
  policyName,
  category: 'AzureAD',
  severity: 'medium',
  highestSeverity: 'medium',
  deviationCount: 1,
  isMissing: false,
  isPrerequisite: false,
  changeType: 'modified',
  hasArrayChanges: false,
  deviations: [],
});

describe('DeviationList', () => {
  it('names the baseline layer a deviating policy comes from, and none for the company baseline', async () => {
    const user = userEvent.setup();
    render(
      <DeviationList
        groups={[
          group('AzureAD/PasswordRule/Password Rule Settings.json', 'Password Rule Settings'),
          group('AzureAD/AuthorizationPolicy/Authorization Policy.json', 'Authorization Policy'),
        ]}
        layers={{ 'AzureAD/PasswordRule/Password Rule Settings.json': 'Healthcare' }}
        onOpen={() => {}}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Expand All' }));
    const layered = await screen.findByRole('button', { name: /Password Rule Settings/ });
    expect(layered).toHaveTextContent('Layer: Healthcare');
    expect(screen.getByRole('button', { name: /Authorization Policy/ })).not.toHaveTextContent(
      'Layer:',
    );
  });
});
