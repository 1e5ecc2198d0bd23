import { appFieldOptions, isFieldDisabled, setAppField, type AppValues } from '@aegis/domain';
import { Field, Input, makeStyles, Select } from '@fluentui/react-components';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))',
    gap: '8px 16px',
    alignItems: 'start',
  },
});

/**
 * One field of an app, the same in the new-app and the update form (spec 2 §2, §5): a select of
 * the spec's values for Architecture, the file types, InstallExperience and Status, free text
 * otherwise; the uninstaller location disabled while the uninstall type is msi. A change goes
 * through the msi rule and hands back all the values.
 */
function AppFieldControl<T extends AppValues>({
  field,
  values,
  onChange,
  required,
  invalid,
}: {
  field: string;
  values: T;
  onChange: (next: T) => void;
  required?: boolean;
  /** Shown in error as 'Required'. */
  invalid?: boolean;
}) {
  const value = values[field] ?? '';
  const options = appFieldOptions(field);
  const change = (next: string) => onChange(setAppField(values, field, next));
  return (
    <Field
      label={field}
      required={required}
      validationState={invalid ? 'error' : undefined}
      validationMessage={invalid ? 'Required' : undefined}
    >
      {options ? (
        <Select value={value} onChange={(_event, data) => change(data.value)}>
          {/* Status always has a value; a blank is offered only where one may be chosen */}
          {(field !== 'Status' || value === '') && <option value="">Select…</option>}
          {/* a stored value outside the spec's list is shown as it is, never changed silently */}
          {value !== '' && !options.includes(value) && <option value={value}>{value}</option>}
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </Select>
      ) : (
        <Input
          value={value}
          disabled={isFieldDisabled(values, field)}
          onChange={(_event, data) => change(data.value)}
        />
      )}
    </Field>
  );
}

/**
 * An app's fields as both forms show them: PartitionKey and RowKey read-only, then each field
 * with `AppFieldControl`.
 */
export function AppFields<T extends AppValues>({
  partitionKey,
  rowKey,
  fields,
  values,
  onChange,
  required,
  highlight,
}: {
  partitionKey: string;
  rowKey: string;
  fields: readonly string[];
  values: T;
  onChange: (next: T) => void;
  required?: ReadonlySet<string>;
  /** Required fields left empty, shown in error. */
  highlight?: ReadonlySet<string>;
}) {
  const styles = useStyles();
  return (
    <div className={styles.grid}>
      <Field label="PartitionKey">
        <Input value={partitionKey} readOnly disabled />
      </Field>
      <Field label="RowKey">
        <Input value={rowKey} readOnly disabled />
      </Field>
      {fields.map((field) => (
        <AppFieldControl
          key={field}
          field={field}
          values={values}
          onChange={onChange}
          required={required?.has(field)}
          invalid={highlight?.has(field)}
        />
      ))}
    </div>
  );
}
