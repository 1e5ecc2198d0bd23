import { duePeriod } from '@aegis/domain';
import { makeStyles, Text, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  // an A4 page's proportions (210 × 297), as the PDF's cover lays it out
  page: {
    aspectRatio: '210 / 297',
    width: '100%',
    maxWidth: '340px',
    boxSizing: 'border-box',
    padding: '24px 22px',
    display: 'flex',
    flexDirection: 'column',
    backgroundColor: '#ffffff',
    color: '#1f2328',
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    boxShadow: tokens.shadow8,
    fontSize: '10px',
  },
  logo: { maxWidth: '120px', maxHeight: '40px', objectFit: 'contain', alignSelf: 'flex-start' },
  mspName: { fontSize: '16px', fontWeight: 700 },
  title: { marginTop: '56px', fontSize: '18px', fontWeight: 700, lineHeight: 1.2 },
  muted: { color: '#57606a' },
  rule: { width: '40px', height: '3px', margin: '10px 0 14px' },
  customer: { fontSize: '16px', fontWeight: 700, margin: '2px 0' },
  footer: {
    marginTop: 'auto',
    paddingTop: '8px',
    borderTop: '1px solid #d0d7de',
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
    overflowWrap: 'anywhere',
  },
  preparedBy: { fontWeight: 700 },
  support: { color: '#57606a', whiteSpace: 'pre-line', marginTop: '4px' },
});

export interface CoverBranding {
  readonly mspName: string;
  readonly primaryColour: string;
  readonly contactEmail: string;
  readonly contactPhone: string;
  readonly website: string;
  readonly supportMessage: string;
  readonly logo: string | null;
}

/** A valid #RRGGBB or the report's default: a half-typed colour must not blank the preview. */
const colourOf = (value: string) => (/^#[0-9a-f]{6}$/i.test(value) ? value : '#0f4c81');

/**
 * The customer report's cover with this branding, laid out as the PDF's (packages/reports
 * customer-report `cover`): logo or name, title, 'Prepared for', and the MSP's contact block.
 */
export function CoverPreview({ branding, now }: { branding: CoverBranding; now: Date }) {
  const styles = useStyles();
  const period = duePeriod('monthly', 1, now);
  const today = now.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
  const brand = colourOf(branding.primaryColour);
  const name = branding.mspName.trim() || 'Your company';
  const contact = [branding.contactEmail, branding.contactPhone, branding.website]
    .map((part) => part.trim())
    .filter(Boolean);
  return (
    <figure className={styles.page} aria-label="Cover preview" style={{ margin: 0 }}>
      {branding.logo ? (
        <img className={styles.logo} src={branding.logo} alt={`${name} logo`} />
      ) : (
        <Text className={styles.mspName} style={{ color: brand }}>
          {name}
        </Text>
      )}
      <Text className={styles.title} style={{ color: brand }}>
        Monthly compliance report
      </Text>
      <Text className={styles.muted}>Microsoft 365 security and configuration, {period.label}</Text>
      <div className={styles.rule} style={{ backgroundColor: brand }} />
      <Text className={styles.muted}>Prepared for</Text>
      <Text className={styles.customer}>Your customer</Text>
      <Text className={styles.muted}>Report date: {today}</Text>
      <div className={styles.footer}>
        <Text className={styles.preparedBy} style={{ color: brand }}>
          Prepared by {name}
        </Text>
        {contact.length > 0 ? <Text>{contact.join('  ·  ')}</Text> : null}
        {branding.supportMessage.trim() ? (
          <Text className={styles.support}>{branding.supportMessage.trim()}</Text>
        ) : null}
      </div>
    </figure>
  );
}
