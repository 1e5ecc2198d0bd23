import {
  ONBOARDING_ROLES,
  roleStatusLine,
  SERVICE_PRINCIPAL_RECOVERY_CHOICES,
  ONBOARDING_RUN_POLLING,
} from '@aegis/domain';
import {
  Button,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Radio,
  RadioGroup,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';

import { ProjectRunStatus } from '../../../components/pipeline-run-status';
import { RoleGate } from '../../../components/role-gate';
import { useClientTenantConfig } from '../../../lib/client-tenant-auth/client-tenant-auth';
import { useClients } from '../../../lib/clients/use-clients';
import { useTenantOnboarding, type RecoveryChoice } from '../hooks/use-tenant-onboarding';

import { LegacyOnboardingForm } from './legacy-onboarding-form';
import { TenantForm } from './tenant-form';

const useStyles = makeStyles({
  tab: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '16px', maxWidth: '760px' },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  roles: { listStyleType: 'none', padding: 0, margin: 0, display: 'grid', gap: '4px' },
  pending: { color: tokens.colorNeutralForeground3 },
  ok: { color: tokens.colorPaletteGreenForeground1 },
  failed: { color: tokens.colorPaletteRedForeground1 },
  card: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    gap: '8px',
    padding: '16px',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
});

/** Spec 2 §2 onboard tab: warning, Global Administrator note, form, consent return, roles, pipeline. */
export function OnboardTenantTab() {
  const styles = useStyles();
  const config = useClientTenantConfig();
  const flow = useTenantOnboarding(config.data);
  const clients = useClients();
  const alreadyOnboarded =
    clients.data?.clients.some((c) => c.code === flow.form.clientCode && c.onboarded) ?? false;
  const [manualTenantId, setManualTenantId] = useState('');
  const [choice, setChoice] = useState<RecoveryChoice>(2);
  const { step, roles } = flow;

  return (
    <div className={styles.tab}>
      <MessageBar intent="warning">
        <MessageBarBody>
          <MessageBarTitle>Allow popups</MessageBarTitle>
          The client&apos;s Global Administrator signs in through a popup window: allow popups for
          this site before you start.
        </MessageBarBody>
      </MessageBar>
      <MessageBar intent="info">
        <MessageBarBody>
          You need a Global administrator account of the client&apos;s tenant to grant admin consent
          and assign the roles.
        </MessageBarBody>
      </MessageBar>
      {config.isError && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{config.error.message}</MessageBarBody>
        </MessageBar>
      )}
      {flow.alert && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{flow.alert}</MessageBarBody>
        </MessageBar>
      )}

      {(step.kind === 'form' || step.kind === 'redirecting') && (
        <>
          <Text as="h2" size={500} weight="semibold">
            New Client
          </Text>
          <TenantForm
            form={flow.form}
            onChange={flow.setForm}
            disabled={step.kind !== 'form'}
            alreadyOnboarded={alreadyOnboarded}
          />
          <div className={styles.actions}>
            <RoleGate needs="Administrator">
              <Button
                appearance="primary"
                disabled={
                  flow.busy || step.kind === 'redirecting' || !config.data || alreadyOnboarded
                }
                onClick={() => void flow.grantAdminConsent()}
              >
                Grant Admin Consent
              </Button>
            </RoleGate>
            {(flow.busy || step.kind === 'redirecting') && (
              <Spinner size="tiny" label="Redirecting to admin consent..." />
            )}
          </div>
          <LegacyOnboardingForm />
        </>
      )}

      {step.kind === 'consent-error' && (
        <div className={styles.card} role="alert">
          <Text weight="semibold">Admin consent failed</Text>
          <Text>
            {step.error}: {step.description}
          </Text>
          {step.retryOffered ? (
            <>
              <Text>
                {flow.isCreationFailure(step.description)
                  ? 'The enterprise application could not be created in the tenant. Retry admin consent?'
                  : 'Retry admin consent?'}
              </Text>
              <div className={styles.actions}>
                <Button appearance="primary" onClick={flow.retryConsent}>
                  Retry Admin Consent
                </Button>
                <Button onClick={() => flow.declineRetry(flow.isCreationFailure(step.description))}>
                  Cancel
                </Button>
              </div>
            </>
          ) : (
            <Spinner size="tiny" label="Preparing a retry..." />
          )}
        </div>
      )}

      {step.kind === 'contact-support' && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>Please contact support if the issue persists.</MessageBarBody>
        </MessageBar>
      )}

      {step.kind === 'ask-tenant-id' && (
        <form
          noValidate
          className={styles.card}
          onSubmit={(event) => {
            event.preventDefault();
            flow.submitManualTenantId(manualTenantId || step.suggestion?.tenantId || '');
          }}
        >
          <Text weight="semibold">
            Admin consent was granted, but the tenant ID was not returned. Enter the client&apos;s
            tenant ID.
          </Text>
          <Field
            label="Tenant ID"
            hint={
              step.suggestion
                ? `Found ${step.suggestion.tenantId} (${step.suggestion.source}); leave empty to use it.`
                : '36 characters: hexadecimal digits and hyphens.'
            }
          >
            <Input
              value={manualTenantId}
              placeholder={step.suggestion?.tenantId}
              onChange={(_e, data) => setManualTenantId(data.value)}
            />
          </Field>
          <div className={styles.actions}>
            <Button appearance="primary" type="submit">
              Continue
            </Button>
          </div>
        </form>
      )}

      {step.kind === 'recovery' && (
        <div className={styles.card} role="alert">
          <Text weight="semibold">The Aegis enterprise app already exists in another tenant</Text>
          <Text>
            Admin consent says the app&apos;s service principal is already present
            {step.errorTenantId ? ` in tenant ${step.errorTenantId}` : ''}, which is not the tenant
            of {flow.form.domain}. How do you want to continue?
          </Text>
          <RadioGroup
            aria-label="Recovery choice"
            value={String(choice)}
            onChange={(_e, data) => setChoice(Number(data.value) as RecoveryChoice)}
          >
            {SERVICE_PRINCIPAL_RECOVERY_CHOICES.map((option) => (
              <Radio
                key={option.choice}
                value={String(option.choice)}
                label={`${option.choice}. ${option.label}`}
              />
            ))}
          </RadioGroup>
          <div className={styles.actions}>
            <Button
              appearance="primary"
              disabled={flow.busy}
              onClick={() => void flow.recover(choice)}
            >
              Continue
            </Button>
          </div>
        </div>
      )}

      {step.kind === 'sign-in' && (
        <div className={styles.card}>
          <Text weight="semibold">Admin consent granted for tenant {step.tenantId}</Text>
          <Text>
            Sign in as the client&apos;s Global Administrator to assign the Aegis enterprise app its
            roles.
          </Text>
          <div className={styles.actions}>
            <Button
              appearance="primary"
              disabled={flow.busy || !config.data}
              onClick={() => void flow.signIn(step.tenantId)}
            >
              Login as Global Admin
            </Button>
            <Button disabled={flow.busy} onClick={flow.startOver}>
              Start Over
            </Button>
            {flow.busy && <Spinner size="tiny" label="Waiting for the Global Admin sign-in..." />}
          </div>
        </div>
      )}

      {step.kind === 'roles' && (
        <div className={styles.card}>
          <Text weight="semibold">
            Role assignment in tenant {step.tenantId} (signed in as {step.upn})
          </Text>
          <ul className={styles.roles} aria-label="Role assignment">
            {ONBOARDING_ROLES.map((role) => {
              const status = roles.statuses?.find((s) => s.role === role.name);
              return (
                <li
                  key={role.name}
                  className={status ? (status.ok ? styles.ok : styles.failed) : undefined}
                >
                  {status ? (
                    roleStatusLine(status)
                  ) : (
                    <span className={styles.pending}>
                      {roles.assigning ? '… ' : ''}
                      {role.name}
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
          {roles.assigning &&
            (flow.appSearch.status === 'searching' ? (
              <Spinner size="tiny" label={flow.appSearch.text} />
            ) : (
              <Spinner size="tiny" label="Assigning roles..." />
            ))}
          {roles.error && (
            <MessageBar intent="error" role="alert">
              <MessageBarBody>{roles.error}</MessageBarBody>
            </MessageBar>
          )}
          <div className={styles.actions}>
            {roles.allRolesAssigned && !flow.run && (
              <RoleGate needs="Administrator">
                <Button
                  appearance="primary"
                  disabled={flow.busy}
                  onClick={() => void flow.complete(step.tenantId)}
                >
                  Complete Onboarding Process
                </Button>
              </RoleGate>
            )}
            {!roles.assigning && !roles.allRolesAssigned && (
              <Button onClick={() => void flow.assign(step.tenantId, step.upn)}>
                Retry Role Assignment
              </Button>
            )}
          </div>
          {flow.runMessage && (
            <MessageBar
              intent={flow.runMessage.intent}
              role={flow.runMessage.intent === 'error' ? 'alert' : 'status'}
            >
              <MessageBarBody>{flow.runMessage.text}</MessageBarBody>
            </MessageBar>
          )}
          {flow.run && <ProjectRunStatus started={flow.run} rule={ONBOARDING_RUN_POLLING} />}
        </div>
      )}
    </div>
  );
}
