import { makeStyles, tokens } from '@fluentui/react-components';
import { Link } from 'react-router';

import { paths } from '../../../config/paths';

const useStyles = makeStyles({
  root: { display: 'flex', gap: '16px', flexWrap: 'wrap', alignItems: 'center' },
  link: {
    color: tokens.colorBrandForegroundLink,
    textDecoration: 'none',
    ':hover': { textDecoration: 'underline' },
  },
});

const screens = [
  { label: 'App Deploy Table Viewer', href: paths.storageTablesList.getHref() },
  { label: 'Create New App Deploy Table', href: paths.createStorageTable.getHref() },
  { label: 'Update Existing App Deploy Table', href: paths.updateExistingTable.getHref() },
];

/** Links between the three table screens, leaving out the current one. */
export function TableLinks({ current }: { current: string }) {
  const styles = useStyles();
  return (
    <nav aria-label="App Deploy tables" className={styles.root}>
      {screens
        .filter((screen) => screen.href !== current)
        .map((screen) => (
          <Link key={screen.href} to={screen.href} className={styles.link}>
            {screen.label}
          </Link>
        ))}
    </nav>
  );
}
