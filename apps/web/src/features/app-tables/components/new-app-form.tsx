import { APP_FIELDS, requiredFields, type AppField, type NewAppForm } from '@aegis/domain';

import { AppFields } from './app-field';

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
  return (
    <AppFields
      partitionKey={form.PartitionKey}
      rowKey={form.RowKey}
      fields={APP_FIELDS}
      values={form}
      onChange={onChange}
      required={new Set(requiredFields(form))}
      highlight={highlight}
    />
  );
}
