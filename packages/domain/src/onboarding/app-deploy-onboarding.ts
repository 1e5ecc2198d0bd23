import { isClientCode } from '../clients';
import { isOnboardingPipelineOf } from '../pipelines';

import { CLIENT_CODE_FORMAT_ERROR } from './tenant-onboarding';

/** Spec 2 §5: the app-deploy flows check the code in this order. */
export type AppDeployCodeCheck =
  | { state: 'invalid-format'; message: string }
  | { state: 'no-table'; message: string }
  | { state: 'table-check-failed'; message: string }
  | { state: 'already-onboarded'; message: string }
  | { state: 'pipeline-check-failed'; message: string }
  | { state: 'validated'; message: string };

export type AppDeployFlow = 'old' | 'new';

/**
 * The result of the checks: format, a table starting with the code, not already onboarded
 * under the Tenants folder. `tables` and `tenantPipelines` are undefined when the read failed.
 */
export function checkAppDeployClientCode(
  code: string,
  flow: AppDeployFlow,
  tables: readonly string[] | undefined,
  tenantPipelines: readonly { folder?: string | undefined; name: string }[] | undefined,
): AppDeployCodeCheck {
  if (!isClientCode(code)) return { state: 'invalid-format', message: CLIENT_CODE_FORMAT_ERROR };
  if (tables === undefined)
    return { state: 'table-check-failed', message: 'Error checking client code in tables.' };
  if (!tables.some((name) => name.startsWith(code)))
    return {
      state: 'no-table',
      message:
        flow === 'old'
          ? `No tables found starting with ${code}. Please create Client App Table!`
          : `No tables found starting with ${code}. Please create Client App Table first!`,
    };
  if (tenantPipelines === undefined)
    return { state: 'pipeline-check-failed', message: 'Error checking pipelines.' };
  if (tenantPipelines.some((pipeline) => isOnboardingPipelineOf(pipeline, code)))
    return { state: 'already-onboarded', message: `${code} has already been onboarded.` };
  return { state: 'validated', message: `Table found for client code ${code}.` };
}

export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all the required fields.';
export const ALREADY_ONBOARDED_MESSAGE =
  'Client is already onboarded. Please check the existing pipeline.';

/** Spec 2 §8: the three admin-consent error texts of the app-deploy flow. */
export function appDeployConsentError(error: string, description: string): string {
  if (error === 'access_denied' && description.includes('AADSTS1003031'))
    return 'Application permissions are not properly configured. Please contact your administrator to configure the required API permissions in the Azure AD app registration.';
  if (error === 'access_denied')
    return 'Admin consent was denied or cancelled. Please try again and accept the required permissions.';
  return `Admin consent failed: ${description}`;
}

/** Spec 2 §4, §9: the enterprise app search. */
export const ENTERPRISE_APP_SEARCH = {
  maxAttempts: 6,
  initialDelayInMs: 3000,
  factor: 1.5,
} as const;

/** The wait before each attempt: 3000 ms, then ×1.5 per attempt. */
export function enterpriseAppSearchDelays(): number[] {
  return Array.from(
    { length: ENTERPRISE_APP_SEARCH.maxAttempts },
    (_, index) => ENTERPRISE_APP_SEARCH.initialDelayInMs * ENTERPRISE_APP_SEARCH.factor ** index,
  );
}

export const SEARCHING_TEXT =
  'Searching for enterprise application in tenant... This may take a few moments.';
export function retryingText(attempt: number): string {
  return `Enterprise app not found yet, retrying... (Attempt ${attempt}/${ENTERPRISE_APP_SEARCH.maxAttempts})`;
}
export const SEARCH_UNAUTHORIZED =
  'Authentication failed. Please try the admin consent flow again.';
export const SEARCH_NOT_FOUND =
  'Enterprise app not found in target tenant after maximum retries. The admin consent may not have completed properly, or there may be a propagation delay. Please wait a few minutes and refresh the page to try again.';
export function searchFailedText(message: string): string {
  return `Failed to retrieve enterprise app information: ${message}`;
}
export function graphErrorText(status: number, body: string): string {
  return `Graph API error: ${status} - ${body}`;
}

/** Spec 2 §8: the Global Administrator popup failed. */
export function globalAdminLoginFailure(code: string, details: string): string {
  return `Failed to authenticate after admin consent. Error code: ${code} Details: ${details} Please try again.`;
}

/** Spec 2 §2: 'Pipeline status: {state} - {result}'. */
export function pipelineStatusText(state: string, result: string | null | undefined): string {
  return `Pipeline status: ${state} - ${result ?? ''}`;
}
