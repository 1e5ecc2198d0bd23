import { clientCodeMessage, regionsByGeography, type TenantOnboardingForm } from '@aegis/domain';
import {
  Field,
  Input,
  makeStyles,
  Radio,
  RadioGroup,
  Select,
  tokens,
} from '@fluentui/react-components';
import { useMemo } from 'react';

const useStyles = makeStyles({
  form: { display: 'grid', gap: '12px', maxWidth: '560px' },
  valid: { color: tokens.colorPaletteGreenForeground1 },
});

/** Spec 2 §3, §5: the new-client form of the onboard tab. */
export function TenantForm({
  form,
  onChange,
  disabled,
  alreadyOnboarded,
}: {
  form: TenantOnboardingForm;
  onChange: (form: TenantOnboardingForm) => void;
  disabled?: boolean;
  /** the code has a tenant pipeline already (the client list's `onboarded`) */
  alreadyOnboarded: boolean;
}) {
  const styles = useStyles();
  const code = clientCodeMessage(form.clientCode, alreadyOnboarded);
  const groups = useMemo(() => regionsByGeography(), []);
  const set = <K extends keyof TenantOnboardingForm>(key: K, value: TenantOnboardingForm[K]) =>
    onChange({ ...form, [key]: value });

  return (
    <div className={styles.form}>
      <Field
        label="Client Code"
        required
        validationState={code.message === '' ? 'none' : code.valid ? 'success' : 'error'}
        validationMessage={code.message || undefined}
      >
        <Input
          value={form.clientCode}
          maxLength={3}
          disabled={disabled}
          onChange={(_e, data) => set('clientCode', data.value)}
        />
      </Field>
      <Field label="Domain" required hint="The client's primary domain, e.g. contoso.com">
        <Input
          value={form.domain}
          disabled={disabled}
          onChange={(_e, data) => set('domain', data.value.trim())}
        />
      </Field>
      <Field label="Does the client use the company subscription?" required>
        <RadioGroup
          layout="horizontal"
          value={form.hasOptionsCSP}
          disabled={disabled}
          onChange={(_e, data) => set('hasOptionsCSP', data.value === 'no' ? 'no' : 'yes')}
        >
          <Radio value="yes" label="Yes ('Options IT')" />
          <Radio value="no" label="No" />
        </RadioGroup>
      </Field>
      {form.hasOptionsCSP === 'no' && (
        <Field label="Custom Subscription Name" required>
          <Input
            value={form.customSubscriptionName}
            disabled={disabled}
            onChange={(_e, data) => set('customSubscriptionName', data.value)}
          />
        </Field>
      )}
      <Field label="Enroll in Power Support?" required>
        <RadioGroup
          layout="horizontal"
          value={form.enrollInPowerSupport}
          disabled={disabled}
          onChange={(_e, data) => set('enrollInPowerSupport', data.value === 'yes' ? 'yes' : 'no')}
        >
          <Radio value="yes" label="Yes" />
          <Radio value="no" label="No" />
        </RadioGroup>
      </Field>
      <Field label="Region" required>
        <Select
          value={form.selectedRegion}
          disabled={disabled}
          onChange={(_e, data) => set('selectedRegion', data.value)}
        >
          <option value="">Select a region</option>
          {groups.map(({ group, regions }) => (
            <optgroup key={group} label={group}>
              {regions.map((region) => (
                <option key={region.azureRegionAPIName} value={region.azureRegionAPIName}>
                  {region.displayName} ({region.shortCode}) - {region.physicalLocation}
                  {region.regionCategory === 'Recommended' ? ' · Recommended' : ''}
                </option>
              ))}
            </optgroup>
          ))}
        </Select>
      </Field>
    </div>
  );
}
