import type { KnownClientDto } from '@aegis/contracts';
import { knownClientLabel, type ClientLack } from '@aegis/domain';
import { Button, Field, makeStyles, Select } from '@fluentui/react-components';
import { ArrowClockwiseRegular } from '@fluentui/react-icons';

/** A client as GET /api/clients gives it (ADR 054). */
type ClientPickerItem = Pick<KnownClientDto, 'code' | 'name' | 'lacks'>;

export interface ClientPickerProps {
  /** The selected client code; '' for none. */
  readonly value: string;
  readonly onChange: (code: string) => void;
  /** The clients to choose from; undefined while they load. */
  readonly clients: readonly ClientPickerItem[] | undefined;
  readonly loading?: boolean;
  /** Why the clients could not be loaded; shown under the picker with a Retry button. */
  readonly error?: Error | null;
  readonly onRetry?: () => void;
  /** 'Client' unless the screen names it otherwise (the backups screen says 'Tenant'). */
  readonly label?: string;
  readonly placeholder?: string;
  readonly loadingText?: string;
  /** Whether the placeholder can be chosen again once a client is selected. */
  readonly placeholderSelectable?: boolean;
  readonly required?: boolean;
  readonly disabled?: boolean;
  readonly hint?: string;
  readonly className?: string;
  /**
   * What the screen needs of a client: a code lacking one of these is shown with what it lacks
   * and cannot be chosen (Trigger Capture needs a tenant; the comparison a configuration).
   */
  readonly needs?: readonly ClientLack[];
  /** Lacks worth naming even when the code can be chosen (default: tenant and configuration). */
  readonly shows?: readonly ClientLack[];
}

const useStyles = makeStyles({
  error: { display: 'flex', alignItems: 'center', gap: '8px', flexWrap: 'wrap' },
});

const DEFAULT_SHOWN: readonly ClientLack[] = ['tenant', 'configuration'];

function toOption(
  item: ClientPickerItem,
  needs: readonly ClientLack[],
  shows: readonly ClientLack[],
): { code: string; text: string; unusable: boolean } {
  return {
    code: item.code,
    text: knownClientLabel(item, [...new Set([...shows, ...needs])]),
    unusable: item.lacks.some((lack) => needs.includes(lack)),
  };
}

/**
 * The one client chooser of every screen: a labelled native select (so the keyboard, type-ahead
 * and screen readers work as everywhere) over GET /api/clients, options 'code - name (what it
 * lacks)' sorted by code, a code lacking what the screen needs shown but not selectable, with its
 * loading, error (with Retry) and empty states.
 */
export function ClientPicker({
  value,
  onChange,
  clients,
  loading = false,
  error,
  onRetry,
  label = 'Client',
  placeholder = 'Select a client',
  loadingText = 'Loading clients...',
  placeholderSelectable = true,
  required,
  disabled,
  hint,
  className,
  needs = [],
  shows = DEFAULT_SHOWN,
}: ClientPickerProps) {
  const styles = useStyles();
  const options = (clients ?? [])
    .map((item) => toOption(item, needs, shows))
    .sort((a, b) => a.code.localeCompare(b.code));
  const empty = !loading && !error && clients !== undefined && options.length === 0;
  return (
    <Field
      label={label}
      required={required}
      className={className}
      hint={loading ? loadingText : empty ? 'No clients found.' : hint}
      validationState={error ? 'error' : undefined}
      validationMessage={
        error ? (
          <span className={styles.error}>
            {`Could not load the clients: ${error.message}`}
            {onRetry && (
              <Button size="small" icon={<ArrowClockwiseRegular />} onClick={onRetry}>
                Retry
              </Button>
            )}
          </span>
        ) : undefined
      }
    >
      <Select
        value={value}
        disabled={disabled || loading || empty}
        onChange={(_event, data) => onChange(data.value)}
      >
        <option value="" disabled={!placeholderSelectable}>
          {empty ? 'No clients found' : placeholder}
        </option>
        {options.map((option) => (
          <option key={option.code} value={option.code} disabled={option.unusable}>
            {option.text}
          </option>
        ))}
      </Select>
    </Field>
  );
}
