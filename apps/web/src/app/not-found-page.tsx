import { Link, Text } from '@fluentui/react-components';
import { useNavigate } from 'react-router';

import { paths } from '../config/paths';
import { useBrowserSession } from '../lib/session';

/**
 * An address that is no route. Signed in, it shows inside the portal layout (sidebar kept) with a
 * link back to Projects; signed out, on its own with a link to the home page.
 */
export function NotFoundPage() {
  const session = useBrowserSession();
  const navigate = useNavigate();
  const home = session.isLoggedIn
    ? { href: paths.projects.getHref(), label: 'Back to Projects' }
    : { href: paths.landing.getHref(), label: 'Go to the home page' };
  return (
    <div style={session.isLoggedIn ? undefined : { padding: 48 }}>
      <Text as="h1" size={700} weight="semibold" block>
        Page not found
      </Text>
      <Text as="p" block>
        The page you asked for does not exist.
      </Text>
      <Link
        href={home.href}
        onClick={(event) => {
          event.preventDefault();
          void navigate(home.href);
        }}
      >
        {home.label}
      </Link>
    </div>
  );
}
