import { Navigate, Outlet, useLocation } from 'react-router';

import { paths } from '../config/paths';
import { useBrowserSession } from '../lib/session';

/** Signed-out users go to /login and come back to the page they asked for (ADR 004). */
export function RequireAuth() {
  const session = useBrowserSession();
  const location = useLocation();
  if (!session.isLoggedIn) {
    return <Navigate to={paths.login.getHref(location.pathname + location.search)} replace />;
  }
  return <Outlet />;
}
