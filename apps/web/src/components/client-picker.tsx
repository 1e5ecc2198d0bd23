import { Button, Field, makeStyles, Select } from '@fluentui/react-components';
import { ArrowClockwiseRegular } from '@fluentui/react-icons';
/** A client as the lists of the API give it: a bare code, or a code with a display name. */
export type ClientPickerItem = string | { readonly code: string; readonly name?: string };

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
}

const useStyles = makeStyles({
  error: { display: 'flex', alignItems: 'center', gap: '8px', flexWrap: 'wrap' },
});

function toOption(item: ClientPickerItem): { code: string; text: string } {
  if (typeof item === 'string') return { code: item, text: item };
  const name = item.name?.trim();
  return {
    code: item.code,
    text: name && name !== item.code ? `${item.code} - ${name}` : item.code,
  };
}

/**
 * The one client chooser of every screen: a labelled native select (so the keyboard, type-ahead
 * and screen readers work as everywhere), options 'code - name' when a name is known, sorted by
 * code, with its loading, error (with Retry) and empty states.
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
}: ClientPickerProps) {
  const styles = useStyles();
  const options = (clients ?? []).map(toOption).sort((a, b) => a.code.localeCompare(b.code));
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
          <option key={option.code} value={option.code}>
            {option.text}
          </option>
        ))}
      </Select>
    </Field>
  );
}
