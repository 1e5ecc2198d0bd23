import type { Me } from '@aegis/contracts';
import { AEGIS_ROLES, ROLE_DESCRIPTIONS } from '@aegis/domain';
import { Button, Card, makeStyles, Text, tokens } from '@fluentui/react-components';
import { SignOutRegular } from '@fluentui/react-icons';
import { useNavigate } from 'react-router';

import logo from '../assets/aegis-logo.svg';
import { paths } from '../config/paths';
import { useAuth } from '../lib/auth/auth-context';

const useStyles = makeStyles({
  page: {
    minHeight: '100vh',
    display: 'grid',
    placeItems: 'center',
    backgroundColor: tokens.colorNeutralBackground2,
  },
  card: {
    maxWidth: '560px',
    padding: '32px',
    display: 'flex',
    flexDirection: 'column',
    gap: '12px',
  },
  roles: { margin: 0, paddingLeft: '20px', display: 'flex', flexDirection: 'column', gap: '4px' },
});

/**
 * What a signed-in account without any Aegis app role sees (issue 18 §1): who they are signed
 * in as, that they have no access, and who can give it, instead of an empty portal.
 */
export function NoRolePage({ me }: { me: Me }) {
  const styles = useStyles();
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const who = me.displayName ? `${me.displayName} (${me.upn})` : me.upn;
  return (
    <main className={styles.page}>
      <Card className={styles.card}>
        <img src={logo} alt="" width={48} height={48} />
        <Text as="h1" size={600} weight="semibold">
          No access to Aegis
        </Text>
        <Text>
          You are signed in as {who}, but your account has no Aegis role, so there is nothing Aegis
          can show you yet.
        </Text>
        <Text>
          Ask an Aegis Administrator to assign you one of the Aegis app roles, then sign in again:
        </Text>
        <ul className={styles.roles}>
          {AEGIS_ROLES.map((role) => (
            <li key={role}>
              <Text weight="semibold">{role}</Text>: {ROLE_DESCRIPTIONS[role]}
            </li>
          ))}
        </ul>
        <div>
          <Button
            appearance="primary"
            icon={<SignOutRegular />}
            onClick={() =>
              void signOut().then(() => navigate(paths.landing.getHref(), { replace: true }))
            }
          >
            Sign out
          </Button>
        </div>
      </Card>
    </main>
  );
}
