import type { BranchProtection } from '@aegis/contracts';
import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
} from '@fluentui/react-components';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '../lib/api-client';
import { useCan } from '../lib/roles';
import { useBrowserSession } from '../lib/session';

/** The query of main's branch protection status (tests seed it). */
export const BRANCH_PROTECTION_QUERY_KEY = ['branch-protection'];

/**
 * A warning across the portal while four eyes does not hold in Azure DevOps: main of the
 * configuration repository lacks the branch policy Aegis needs (ADR 051). Administrators can set
 * the policy up from it. Shows nothing while checking or when main is protected.
 */
export function BranchProtectionWarning() {
  const session = useBrowserSession();
  const isAdministrator = useCan('Administrator');
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: BRANCH_PROTECTION_QUERY_KEY,
    queryFn: ({ signal }) => api<BranchProtection>('/api/branch-protection', { signal }),
    enabled: session.isLoggedIn,
    staleTime: 5 * 60_000,
    retry: false,
  });
  const setUp = useMutation({
    mutationFn: () => api<BranchProtection>('/api/branch-protection', { method: 'POST' }),
    onSuccess: (data) => queryClient.setQueryData(BRANCH_PROTECTION_QUERY_KEY, data),
  });

  if (status.isError) {
    return (
      <MessageBar intent="warning" layout="multiline" style={{ marginBottom: 16 }}>
        <MessageBarBody>
          <MessageBarTitle>Could not check main&apos;s branch policy</MessageBarTitle>
          {status.error.message}
        </MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => void status.refetch()}>Check again</Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  const data = status.data;
  if (!data || data.protected) return null;
  return (
    <MessageBar intent="warning" layout="multiline" style={{ marginBottom: 16 }}>
      <MessageBarBody>
        <MessageBarTitle>Four eyes is not enforced in Azure DevOps</MessageBarTitle>
        {`${data.branch} of ${data.repository} lacks the branch policy Aegis needs: ${data.gaps.join('; ')}. Until it is set up, anyone who can push to ${data.branch} can change a client's approved configuration alone.`}
        {!data.serviceIdentity &&
          ' Aegis has no service identity for Azure DevOps, so its own writes use your token.'}
        {setUp.isError && ` Setting it up failed: ${setUp.error.message}`}
      </MessageBarBody>
      {isAdministrator && (
        <MessageBarActions>
          <Button appearance="primary" disabled={setUp.isPending} onClick={() => setUp.mutate()}>
            {setUp.isPending ? 'Setting up…' : 'Set up branch policy'}
          </Button>
        </MessageBarActions>
      )}
    </MessageBar>
  );
}
