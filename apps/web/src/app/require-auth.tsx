import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
} from '@fluentui/react-components';
import { Navigate, Outlet, useLocation } from 'react-router';

import { paths } from '../config/paths';
import { useMe } from '../lib/roles';
import { useBrowserSession } from '../lib/session';

import { NoRolePage } from './no-role-page';
import { PageLoading } from './page-loading';

/**
 * Signed-out users go to /login and come back to the page they asked for (ADR 004). A signed-in
 * account is shown the portal once the server has said which Aegis roles it holds; an account
 * without any gets a page saying so instead of an empty portal (issue 18).
 */
export function RequireAuth() {
  const session = useBrowserSession();
  const location = useLocation();
  const me = useMe();
  if (!session.isLoggedIn) {
    return <Navigate to={paths.login.getHref(location.pathname + location.search)} replace />;
  }
  if (me.isPending) return <PageLoading />;
  if (me.isError) {
    return (
      <MessageBar intent="error" layout="multiline" role="alert" style={{ margin: 48 }}>
        <MessageBarBody>
          <MessageBarTitle>Could not check your access to Aegis</MessageBarTitle>
          {me.error.message}
        </MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => void me.refetch()}>Try again</Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  if (me.data.roles.length === 0) return <NoRolePage me={me.data} />;
  return <Outlet />;
}
