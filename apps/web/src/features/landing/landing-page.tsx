import { makeStyles, Text, tokens } from '@fluentui/react-components';
import {
  AppsListDetailRegular,
  DataTrendingRegular,
  ShieldCheckmarkRegular,
} from '@fluentui/react-icons';
import { useNavigate } from 'react-router';

import logo from '../../assets/aegis-logo.svg';
import { SignInButton } from '../../components/sign-in-dialog';
import { paths } from '../../config/paths';
import { usePageTitle } from '../../lib/use-page-title';

import { ContactForm } from './contact-form';

const useStyles = makeStyles({
  page: { minHeight: '100vh', backgroundColor: tokens.colorNeutralBackground2 },
  nav: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    padding: '12px 48px',
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  brand: { display: 'flex', alignItems: 'center', gap: '8px' },
  hero: {
    padding: '72px 48px 56px',
    background: `linear-gradient(135deg, ${tokens.colorBrandBackground} 0%, #0a3d6e 100%)`,
    color: tokens.colorNeutralForegroundOnBrand,
  },
  heroText: { maxWidth: '760px', display: 'flex', flexDirection: 'column', gap: '16px' },
  stats: { display: 'flex', gap: '48px', marginTop: '24px', flexWrap: 'wrap' },
  stat: { display: 'flex', flexDirection: 'column' },
  section: { padding: '48px', display: 'flex', flexDirection: 'column', gap: '24px' },
  features: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))',
    gap: '16px',
  },
  // A plain panel in the Card's look: the Card's focus management is not needed here.
  feature: {
    display: 'flex',
    flexDirection: 'column',
    gap: '12px',
    padding: '12px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
  },
  featureIcon: { fontSize: '32px', color: tokens.colorBrandForeground1 },
});

const FEATURES = [
  {
    icon: ShieldCheckmarkRegular,
    title: 'Security & Compliance',
    text: 'Compare every client tenant with the company baseline and the CIS standard, see deviations by severity and export compliance reports.',
  },
  {
    icon: AppsListDetailRegular,
    title: 'Application Packaging',
    text: 'Keep per-client application catalogues and deploy them to workstations through pipelines.',
  },
  {
    icon: DataTrendingRegular,
    title: 'Monitoring & Reporting',
    text: 'Scheduled backups, configuration capture and review, and a clear view of every tenant’s health.',
  },
];

/** The public landing page (spec 1 §2): it loads none of the portal's code. */
export function LandingPage() {
  const styles = useStyles();
  usePageTitle(undefined);
  const navigate = useNavigate();
  const goToProjects = () => void navigate(paths.projects.getHref());

  return (
    <div className={styles.page}>
      <header className={styles.nav}>
        <div className={styles.brand}>
          <img src={logo} alt="" width={32} height={32} />
          <Text size={500} weight="semibold">
            Aegis
          </Text>
        </div>
        <SignInButton onSignedIn={goToProjects} />
      </header>
      <main>
        <section className={styles.hero} aria-label="Introduction">
          <div className={styles.heroText}>
            <Text as="h1" size={900} weight="bold">
              The management platform for Microsoft 365
            </Text>
            <Text size={500}>
              Aegis keeps hundreds of client tenants secure: baselines, compliance, application
              packaging, backups and monitoring in one portal for your technicians.
            </Text>
            <div className={styles.stats}>
              <div className={styles.stat}>
                <Text size={800} weight="bold">
                  500+
                </Text>
                <Text>Policies managed</Text>
              </div>
              <div className={styles.stat}>
                <Text size={800} weight="bold">
                  99.9%
                </Text>
                <Text>Compliance</Text>
              </div>
              <div className={styles.stat}>
                <Text size={800} weight="bold">
                  24/7
                </Text>
                <Text>Monitoring</Text>
              </div>
            </div>
          </div>
        </section>
        <section className={styles.section} aria-label="Features">
          <Text as="h2" size={700} weight="semibold">
            Everything your tenants need
          </Text>
          <div className={styles.features}>
            {FEATURES.map(({ icon: Icon, title, text }) => (
              <div key={title} className={styles.feature}>
                <Icon className={styles.featureIcon} aria-hidden />
                <Text as="h3" size={500} weight="semibold">
                  {title}
                </Text>
                <Text>{text}</Text>
              </div>
            ))}
          </div>
        </section>
        <section className={styles.section} aria-label="Contact">
          <Text as="h2" size={700} weight="semibold">
            Contact us
          </Text>
          <ContactForm />
        </section>
      </main>
    </div>
  );
}
