import { hasRole, ROLE_DESCRIPTIONS, roleRequiredMessage, type AegisRole } from '@aegis/domain';
import {
  Badge,
  Button,
  makeStyles,
  mergeClasses,
  Text,
  tokens,
  Tooltip,
} from '@fluentui/react-components';
import { ChevronDownRegular, ChevronRightRegular, SignOutRegular } from '@fluentui/react-icons';
import { useState, type ReactNode } from 'react';
import { NavLink, Outlet } from 'react-router';

import logo from '../../assets/aegis-logo.svg';
import defaultPhoto from '../../assets/default-photo.svg';
import { useRole, useRoles } from '../../lib/roles';
import { displayNameOf, useBrowserSession } from '../../lib/session';
import { BranchProtectionWarning } from '../branch-protection-warning';

interface NavItem {
  readonly label: string;
  readonly href: string;
  /** The role the screen needs; other roles see the item disabled with the role named (ADR 038). */
  readonly needs?: AegisRole;
}

export interface NavSection {
  readonly title: string;
  readonly items?: readonly NavItem[];
  /** Dropdowns of a section; only one is open at a time. */
  readonly dropdowns?: readonly { readonly label: string; readonly items: readonly NavItem[] }[];
}

const MAIN_CONTENT_ID = 'main-content';

const useStyles = makeStyles({
  shell: { display: 'grid', gridTemplateColumns: '248px 1fr', minHeight: '100vh' },
  sidebar: {
    backgroundColor: tokens.colorNeutralBackground3,
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`,
    padding: '16px 12px',
    display: 'flex',
    flexDirection: 'column',
    gap: '16px',
  },
  brand: { display: 'flex', alignItems: 'center', gap: '8px', padding: '0 8px' },
  sectionTitle: {
    textTransform: 'uppercase',
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase100,
    fontWeight: tokens.fontWeightSemibold,
    padding: '0 8px 4px',
    letterSpacing: '0.04em',
  },
  list: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
  },
  link: {
    display: 'block',
    padding: '6px 8px',
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    ':hover': { backgroundColor: tokens.colorNeutralBackground3Hover },
  },
  nested: { paddingLeft: '20px' },
  disabled: {
    color: tokens.colorNeutralForegroundDisabled,
    cursor: 'not-allowed',
    ':hover': { backgroundColor: 'transparent' },
  },
  active: {
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground1,
    fontWeight: tokens.fontWeightSemibold,
  },
  dropdownButton: {
    width: '100%',
    justifyContent: 'flex-start',
    fontWeight: tokens.fontWeightRegular,
  },
  main: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  header: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'flex-end',
    gap: '12px',
    padding: '8px 24px',
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  content: { padding: '24px', minWidth: 0, ':focus': { outline: 'none' } },
  // off screen until focused: the first Tab of a page offers to pass the sidebar's links
  skipLink: {
    position: 'absolute',
    left: '8px',
    top: '-48px',
    zIndex: 1000,
    padding: '8px 12px',
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorBrandForegroundLink,
    border: `2px solid ${tokens.colorStrokeFocus2}`,
    borderRadius: tokens.borderRadiusMedium,
    ':focus': { top: '8px' },
  },
  photo: { width: '32px', height: '32px', borderRadius: '50%', objectFit: 'cover' },
});

function NavLinks({ items, nested }: { items: readonly NavItem[]; nested?: boolean }) {
  const styles = useStyles();
  const roles = useRoles();
  return (
    <ul className={styles.list}>
      {items.map((item) => (
        <li key={item.href}>
          {item.needs && !hasRole(roles, item.needs) ? (
            <Tooltip content={roleRequiredMessage(item.needs)} relationship="description" withArrow>
              <span
                role="link"
                aria-disabled="true"
                tabIndex={0}
                className={mergeClasses(styles.link, nested && styles.nested, styles.disabled)}
              >
                {item.label}
              </span>
            </Tooltip>
          ) : (
            <NavLink
              to={item.href}
              className={({ isActive }) =>
                mergeClasses(styles.link, nested && styles.nested, isActive && styles.active)
              }
            >
              {item.label}
            </NavLink>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The sidebar layout of every signed-in route (spec 1 §2 Layout). */
export function PortalLayout({
  sections,
  onLogout,
  headerStart,
  children,
}: {
  sections: readonly NavSection[];
  onLogout: () => void;
  /** What the header shows before the signed-in user (the notification centre). */
  headerStart?: ReactNode;
  children?: ReactNode;
}) {
  const styles = useStyles();
  const session = useBrowserSession();
  const [openDropdown, setOpenDropdown] = useState<string | null>(null);
  const name = displayNameOf(session);
  const role = useRole();

  return (
    <div className={styles.shell}>
      <a
        className={styles.skipLink}
        href={`#${MAIN_CONTENT_ID}`}
        onClick={(event) => {
          // focus without a '#main-content' entry in the history, which the router would keep
          event.preventDefault();
          document.getElementById(MAIN_CONTENT_ID)?.focus();
        }}
      >
        Skip to content
      </a>
      <nav className={styles.sidebar} aria-label="Portal">
        <div className={styles.brand}>
          <img src={logo} alt="" width={28} height={28} />
          <Text weight="semibold" size={500}>
            Aegis
          </Text>
        </div>
        {sections.map((section) => (
          <section key={section.title} aria-label={section.title}>
            <div className={styles.sectionTitle}>{section.title}</div>
            {section.items && <NavLinks items={section.items} />}
            {section.dropdowns?.map((dropdown) => {
              const open = openDropdown === dropdown.label;
              return (
                <div key={dropdown.label}>
                  <Button
                    appearance="subtle"
                    className={styles.dropdownButton}
                    icon={open ? <ChevronDownRegular /> : <ChevronRightRegular />}
                    aria-expanded={open}
                    onClick={() => setOpenDropdown(open ? null : dropdown.label)}
                  >
                    {dropdown.label}
                  </Button>
                  {open && <NavLinks items={dropdown.items} nested />}
                </div>
              );
            })}
          </section>
        ))}
      </nav>
      <div className={styles.main}>
        <header className={styles.header}>
          {headerStart}
          <img className={styles.photo} src={session.userPhoto ?? defaultPhoto} alt="Profile" />
          <Text>Logged in user: {name}</Text>
          {role && (
            <Badge appearance="tint" color="informative" title={ROLE_DESCRIPTIONS[role]}>
              {`Role: ${role}`}
            </Badge>
          )}
          <Button icon={<SignOutRegular />} onClick={onLogout}>
            Logout
          </Button>
        </header>
        <main id={MAIN_CONTENT_ID} tabIndex={-1} className={styles.content}>
          <BranchProtectionWarning />
          {children ?? <Outlet />}
        </main>
      </div>
    </div>
  );
}
