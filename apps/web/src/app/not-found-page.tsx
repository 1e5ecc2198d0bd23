import { Link, Text } from '@fluentui/react-components';
import { Link as RouterLink } from 'react-router';

import { paths } from '../config/paths';

export function NotFoundPage() {
  return (
    <div style={{ padding: 48 }}>
      <Text as="h1" size={700} weight="semibold" block>
        Page not found
      </Text>
      <Text block>The page you asked for does not exist.</Text>
      <Link as="a" href={paths.landing.getHref()}>
        Go to the home page
      </Link>
      {/* keeps a client-side route link for keyboard users */}
      <RouterLink to={paths.projects.getHref()} style={{ marginLeft: 16 }}>
        Projects
      </RouterLink>
    </div>
  );
}
