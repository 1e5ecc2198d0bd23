import type { OnboardingRunResponse } from '@aegis/contracts';
import {
  REQUIRED_FIELDS_MESSAGE,
  ALREADY_ONBOARDED_MESSAGE,
  ONBOARDING_RUN_POLLING,
} from '@aegis/domain';
import {
  Button,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
} from '@fluentui/react-components';
import { useState } from 'react';

import { PageHeader } from '../../components/page-header';
import { ProjectRunStatus } from '../../components/pipeline-run-status';
import { RoleGate, useRoleGate } from '../../components/role-gate';
import { ApiError } from '../../lib/api-client';

import { startAppDeployOnboarding } from './api/onboarding-api';
import { useAppDeployCodeCheck } from './hooks/use-app-deploy-code-check';

const useStyles = makeStyles({ form: { display: 'grid', gap: '12px', maxWidth: '560px' } });

/** Spec 2 §2, §5, §7: the old app-deploy onboarding form, pipeline 55. */
export function AppDeployOnboardingPage() {
  const styles = useStyles();
  const [values, setValues] = useState({ clientCode: '', domain: '', username: '', password: '' });
  const [message, setMessage] = useState<{ intent: 'success' | 'error'; text: string }>();
  const gate = useRoleGate('Administrator');
  const [run, setRun] = useState<OnboardingRunResponse>();
  const [busy, setBusy] = useState(false);
  const check = useAppDeployCodeCheck(values.clientCode, 'old');
  // the result of the run this form started: until it has failed, submitting again would only
  // start the same onboarding twice
  const [runResult, setRunResult] = useState<string | null>();
  const validated = check?.state === 'validated';
  const runHolds = run !== undefined && runResult !== 'failed';

  async function submit() {
    if (runHolds) return;
    setMessage(undefined);
    // Enter in a field submits the form even while the button is disabled for the role.
    if (!gate.allowed) {
      setMessage({ intent: 'error', text: gate.reason ?? '' });
      return;
    }
    if (Object.values(values).some((v) => v.trim() === '')) {
      setMessage({ intent: 'error', text: REQUIRED_FIELDS_MESSAGE });
      return;
    }
    if (check?.state === 'already-onboarded') {
      setMessage({ intent: 'error', text: ALREADY_ONBOARDED_MESSAGE });
      return;
    }
    setBusy(true);
    try {
      const started = await startAppDeployOnboarding(values);
      setRunResult(undefined);
      setRun(started);
      setValues((v) => ({ ...v, password: '' }));
      setMessage({ intent: 'success', text: 'Pipeline triggered successfully!' });
    } catch (error) {
      // Onboarded meanwhile (the server checks the Tenants folder again): spec 2 §5's text.
      setMessage({
        intent: 'error',
        text:
          error instanceof ApiError && error.status === 409
            ? ALREADY_ONBOARDED_MESSAGE
            : `Error triggering build: ${(error as Error).message}`,
      });
    } finally {
      setBusy(false);
    }
  }

  const set = (key: keyof typeof values) => (_e: unknown, data: { value: string }) =>
    setValues((v) => ({ ...v, [key]: data.value }));

  return (
    <div>
      <PageHeader title="App Deploy Onboarding" subtitle="Onboard a client for app deployment." />
      <form
        noValidate
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Field
          label="Client Code"
          required
          validationState={!check ? 'none' : validated ? 'success' : 'error'}
          validationMessage={check?.message}
        >
          <Input value={values.clientCode} maxLength={3} onChange={set('clientCode')} />
        </Field>
        {values.clientCode !== '' && !check && (
          <Spinner size="tiny" label="Checking client code..." />
        )}
        <Field label="Domain" required>
          <Input value={values.domain} onChange={set('domain')} />
        </Field>
        <Field label="Username" required>
          <Input value={values.username} autoComplete="off" onChange={set('username')} />
        </Field>
        <Field label="Password" required>
          <Input
            type="password"
            value={values.password}
            autoComplete="new-password"
            onChange={set('password')}
          />
        </Field>
        <div>
          <RoleGate needs="Administrator">
            <Button appearance="primary" type="submit" disabled={!validated || busy || runHolds}>
              Submit
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
        {run && (
          <ProjectRunStatus
            key={run.id}
            started={run}
            rule={ONBOARDING_RUN_POLLING}
            onFinished={setRunResult}
          />
        )}
      </form>
    </div>
  );
}
