import { useNavigate } from 'react-router';

import { PortalLayout } from '../components/layout/portal-layout';
import { paths } from '../config/paths';
import { NotificationCentre } from '../features/notifications/components/notification-centre';
import { useAuth } from '../lib/auth/auth-context';

import { NAV_SECTIONS } from './navigation';

export function PortalShell() {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  return (
    <PortalLayout
      sections={NAV_SECTIONS}
      headerStart={<NotificationCentre />}
      onLogout={() =>
        void signOut().then(() => navigate(paths.landing.getHref(), { replace: true }))
      }
    />
  );
}
