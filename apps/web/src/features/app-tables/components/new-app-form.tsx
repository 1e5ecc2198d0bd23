import {
  APP_FIELDS,
  APP_SELECT_OPTIONS,
  isFieldDisabled,
  requiredFields,
  setNewAppField,
  type AppField,
  type NewAppForm,
} from '@aegis/domain';
import { Field, Input, makeStyles, Select } from '@fluentui/react-components';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))',
    gap: '8px 16px',
    alignItems: 'start',
  },
});

function isSelectField(field: AppField): field is keyof typeof APP_SELECT_OPTIONS {
  return field in APP_SELECT_OPTIONS;
}

/**
 * The new-app form (spec 2 §2, §5): every field, the selects' options, PartitionKey and RowKey
 * read-only, empty required fields highlighted once the user tried to submit, and the msi rule.
 */
export function NewAppFormFields({
  form,
  onChange,
  highlight,
}: {
  form: NewAppForm;
  onChange: (next: NewAppForm) => void;
  /** Required fields left empty, shown in error. */
  highlight: ReadonlySet<AppField>;
}) {
  const styles = useStyles();
  const required = new Set(requiredFields(form));
  return (
    <div className={styles.grid}>
      <Field label="PartitionKey">
        <Input value={form.PartitionKey} readOnly disabled />
      </Field>
      <Field label="RowKey">
        <Input value={form.RowKey} readOnly disabled />
      </Field>
      {APP_FIELDS.map((field) => {
        const invalid = highlight.has(field);
        const common = {
          label: field,
          required: required.has(field),
          validationState: invalid ? ('error' as const) : undefined,
          validationMessage: invalid ? 'Required' : undefined,
        };
        if (isSelectField(field)) {
          return (
            <Field key={field} {...common}>
              <Select
                value={form[field]}
                onChange={(_event, data) => onChange(setNewAppField(form, field, data.value))}
              >
                {field !== 'Status' && <option value="">Select…</option>}
                {APP_SELECT_OPTIONS[field].map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </Select>
            </Field>
          );
        }
        return (
          <Field key={field} {...common}>
            <Input
              value={form[field]}
              disabled={isFieldDisabled(form, field)}
              onChange={(_event, data) => onChange(setNewAppField(form, field, data.value))}
            />
          </Field>
        );
      })}
    </div>
  );
}
