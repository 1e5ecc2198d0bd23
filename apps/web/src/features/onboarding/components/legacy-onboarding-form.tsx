import type { OnboardingRunResponse } from '@aegis/contracts';
import { DEFAULT_SUBSCRIPTION_NAME, isClientCode, ONBOARDING_RUN_POLLING } from '@aegis/domain';
import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Button,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Radio,
  RadioGroup,
} from '@fluentui/react-components';
import { useState } from 'react';

import { ProjectRunStatus } from '../../../components/pipeline-run-status';
import { RoleGate, useRoleGate } from '../../../components/role-gate';
import { startTenantOnboardingLegacy } from '../api/onboarding-api';

const useStyles = makeStyles({ form: { display: 'grid', gap: '12px', maxWidth: '560px' } });

/** Spec 2 §5: the legacy form's required fields, listed by their labels when missing. */
const REQUIRED = {
  clientCode: 'Client Code',
  domain: 'Domain',
  username: 'Username',
  password: 'Password',
} as const;

/** Spec 2 §3, §5, §7: the legacy tenant onboarding (pipeline 75) with an admin's credentials. */
export function LegacyOnboardingForm() {
  const styles = useStyles();
  const [values, setValues] = useState({
    clientCode: '',
    domain: '',
    username: '',
    password: '',
    subscription: 'yes' as 'yes' | 'no',
    customSubscriptionName: '',
  });
  const [message, setMessage] = useState<{ intent: 'success' | 'error'; text: string }>();
  const gate = useRoleGate('Administrator');
  const [run, setRun] = useState<OnboardingRunResponse>();
  const [busy, setBusy] = useState(false);

  async function submit() {
    setMessage(undefined);
    // Enter in a field submits the form even while the button is disabled for the role.
    if (!gate.allowed) {
      setMessage({ intent: 'error', text: gate.reason ?? '' });
      return;
    }
    const missing = (Object.keys(REQUIRED) as (keyof typeof REQUIRED)[]).filter(
      (key) => values[key].trim() === '',
    );
    if (missing.length > 0) {
      setMessage({
        intent: 'error',
        text: `Please fill in: ${missing.map((key) => REQUIRED[key]).join(', ')}`,
      });
      return;
    }
    if (!isClientCode(values.clientCode)) {
      setMessage({ intent: 'error', text: 'Client code must be exactly 3 uppercase letters.' });
      return;
    }
    if (values.subscription === 'no' && values.customSubscriptionName.trim() === '') {
      setMessage({ intent: 'error', text: 'Please enter the custom subscription name.' });
      return;
    }
    setBusy(true);
    try {
      const started = await startTenantOnboardingLegacy({
        clientCode: values.clientCode,
        domain: values.domain,
        username: values.username,
        password: values.password,
        subscriptionName:
          values.subscription === 'yes' ? DEFAULT_SUBSCRIPTION_NAME : values.customSubscriptionName,
      });
      setValues((v) => ({ ...v, password: '' }));
      setRun(started);
      setMessage({ intent: 'success', text: 'Pipeline triggered successfully!' });
    } catch (error) {
      setMessage({ intent: 'error', text: `Error triggering build: ${(error as Error).message}` });
    } finally {
      setBusy(false);
    }
  }

  // an error names what was wrong when submitted: once the form changes it no longer holds
  const update = (change: Partial<typeof values>) => {
    setValues((v) => ({ ...v, ...change }));
    setMessage((m) => (m?.intent === 'error' ? undefined : m));
  };

  const field = (key: 'clientCode' | 'domain' | 'username', label: string) => (
    <Field label={label} required>
      <Input value={values[key]} onChange={(_e, d) => update({ [key]: d.value })} />
    </Field>
  );

  return (
    <Accordion collapsible>
      <AccordionItem value="legacy">
        <AccordionHeader>Legacy onboarding (administrator credentials)</AccordionHeader>
        <AccordionPanel>
          <form
            noValidate
            className={styles.form}
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            {field('clientCode', 'Client Code')}
            {field('domain', 'Domain')}
            {field('username', 'Username')}
            <Field label="Password" required>
              <Input
                type="password"
                value={values.password}
                onChange={(_e, d) => update({ password: d.value })}
              />
            </Field>
            <Field label="Does the client use the company subscription?">
              <RadioGroup
                layout="horizontal"
                value={values.subscription}
                onChange={(_e, d) => update({ subscription: d.value === 'no' ? 'no' : 'yes' })}
              >
                <Radio value="yes" label="Yes ('Options IT')" />
                <Radio value="no" label="No" />
              </RadioGroup>
            </Field>
            {values.subscription === 'no' && (
              <Field label="Custom Subscription Name" required>
                <Input
                  value={values.customSubscriptionName}
                  onChange={(_e, d) => update({ customSubscriptionName: d.value })}
                />
              </Field>
            )}
            <div>
              <RoleGate needs="Administrator">
                <Button type="submit" disabled={busy}>
                  Start Legacy Onboarding
                </Button>
              </RoleGate>
            </div>
            {message && (
              <MessageBar
                intent={message.intent}
                role={message.intent === 'error' ? 'alert' : 'status'}
              >
                <MessageBarBody>{message.text}</MessageBarBody>
              </MessageBar>
            )}
            {run && <ProjectRunStatus started={run} rule={ONBOARDING_RUN_POLLING} />}
          </form>
        </AccordionPanel>
      </AccordionItem>
    </Accordion>
  );
}
