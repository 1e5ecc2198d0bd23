import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
} from '@fluentui/react-components';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';

import { paths } from '../config/paths';
import { useMe } from '../lib/roles';
import { useBrowserSession } from '../lib/session';

import { NoRolePage } from './no-role-page';
import { NotFoundPage } from './not-found-page';
import { PageLoading } from './page-loading';

/**
 * Signed-out users go to /login and come back to the page they asked for (ADR 004). A signed-in
 * account is shown the portal once the server has said which Aegis roles it holds; an account
 * without any gets a page saying so instead of an empty portal (issue 18). Signed out, an address
 * that is no route at all is a bare 'Page not found' (nothing to sign in for); signed in, it shows
 * inside the layout (issue 19).
 */
export function RequireAuth() {
  const session = useBrowserSession();
  const location = useLocation();
  const me = useMe();
  const matches = useMatches();
  if (!session.isLoggedIn) {
    if (matches.at(-1)?.params['*'] !== undefined) return <NotFoundPage />;
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
