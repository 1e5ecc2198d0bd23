import type { ClientLack } from '@aegis/domain';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '../testing/render-app';

import { ClientPicker, type ClientPickerProps } from './client-picker';

function Picker(
  props: Omit<ClientPickerProps, 'value' | 'onChange'> & { onPick?: (c: string) => void },
) {
  const [value, setValue] = useState('');
  return (
    <ClientPicker
      {...props}
      value={value}
      onChange={(code) => {
        setValue(code);
        props.onPick?.(code);
      }}
    />
  );
}

const client = (code: string, lacks: ClientLack[] = []) => ({
  code,
  name: `Client ${code}`,
  lacks,
});

describe('ClientPicker', () => {
  it('names what a code lacks, and refuses one that lacks what the screen needs', async () => {
    const onPick = vi.fn();
    renderWithProviders(
      <Picker
        onPick={onPick}
        needs={['tenant']}
        clients={[
          client('ABC', ['backups']),
          client('WGB', ['tenant', 'configuration', 'backups']),
          client('QRS', ['configuration']),
        ]}
      />,
    );
    const options = [...screen.getByLabelText<HTMLSelectElement>('Client').options];
    expect(options.map((o) => [o.textContent, o.disabled])).toEqual([
      ['Select a client', false],
      ['ABC - Client ABC', false],
      ['QRS - Client QRS (no configuration on main)', false],
      ['WGB - Client WGB (no tenant onboarded, no configuration on main)', true],
    ]);
    await userEvent.selectOptions(screen.getByLabelText('Client'), 'QRS');
    expect(onPick).toHaveBeenLastCalledWith('QRS');
  });

  it('lists clients sorted by code as "code - name" and picks one with the keyboard', async () => {
    const onPick = vi.fn();
    renderWithProviders(
      <Picker
        onPick={onPick}
        clients={[client('XYZ'), client('ABC'), { code: 'DEF', name: 'DEF', lacks: [] }]}
      />,
    );
    const select = screen.getByLabelText('Client');
    expect(select).toBeEnabled();
    const options = [...(select as HTMLSelectElement).options].map((o) => o.textContent);
    expect(options).toEqual(['Select a client', 'ABC - Client ABC', 'DEF', 'XYZ - Client XYZ']);
    select.focus();
    await userEvent.selectOptions(select, 'DEF');
    expect(onPick).toHaveBeenLastCalledWith('DEF');
    expect(select).toHaveValue('DEF');
    // a keyboard user changes the value with the arrow keys on a native select
    fireEvent.keyDown(select, { key: 'ArrowDown' });
    expect(select).toHaveFocus();
  });

  it('says it is loading and cannot be used meanwhile', () => {
    renderWithProviders(
      <Picker clients={undefined} loading label="Tenant" loadingText="Loading tenants..." />,
    );
    const select = screen.getByLabelText('Tenant');
    expect(select).toBeDisabled();
    expect(select).toHaveAccessibleDescription('Loading tenants...');
    expect(screen.getByRole('option', { name: 'Select a client' })).toBeInTheDocument();
  });

  it('says when there are no clients', () => {
    renderWithProviders(<Picker clients={[]} />);
    expect(screen.getByLabelText('Client')).toBeDisabled();
    expect(screen.getByText('No clients found.')).toBeInTheDocument();
  });

  it('shows why the clients could not be loaded and retries', async () => {
    const onRetry = vi.fn();
    renderWithProviders(
      <Picker clients={undefined} error={new Error('DevOps answered 503')} onRetry={onRetry} />,
    );
    expect(screen.getByText('Could not load the clients: DevOps answered 503')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('keeps a placeholder that cannot be chosen again when asked', () => {
    renderWithProviders(
      <Picker
        clients={[client('ABC')]}
        placeholder="Choose a client..."
        placeholderSelectable={false}
      />,
    );
    expect(screen.getByRole('option', { name: 'Choose a client...' })).toBeDisabled();
  });
});
