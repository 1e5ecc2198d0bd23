import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { lazy, Suspense, useId, useState, type FormEvent } from 'react';

// The dialog's code loads when the form is first sent, not with the landing page.
const ThankYouDialog = lazy(async () => ({
  default: (await import('./thank-you-dialog')).ThankYouDialog,
}));

/*
 * Native inputs drawn in Fluent's input style (tokens only): Fluent's Field, Input and Textarea
 * would add about 12 KB of gzipped JavaScript to the landing page, which must stay small
 * before anyone signs in (issue 19).
 */
const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: '12px', maxWidth: '520px' },
  field: { display: 'flex', flexDirection: 'column', gap: '4px' },
  label: {
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
    color: tokens.colorNeutralForeground1,
  },
  required: { color: tokens.colorPaletteRedForeground3, paddingLeft: '4px' },
  control: {
    boxSizing: 'border-box',
    width: '100%',
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
    color: tokens.colorNeutralForeground1,
    backgroundColor: tokens.colorNeutralBackground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    borderBottomColor: tokens.colorNeutralStrokeAccessible,
    borderRadius: tokens.borderRadiusMedium,
    padding: `5px ${tokens.spacingHorizontalM}`,
    outlineStyle: 'none',
    ':hover': { borderBottomColor: tokens.colorNeutralStrokeAccessibleHover },
    ':focus': {
      borderBottomColor: tokens.colorCompoundBrandStroke,
      boxShadow: `inset 0 -1px 0 ${tokens.colorCompoundBrandStroke}`,
    },
  },
  textarea: { minHeight: '72px', resize: 'vertical' },
});

const EMPTY = { name: '', email: '', message: '' };
type Values = typeof EMPTY;

function TextField({
  label,
  name,
  type = 'text',
  multiline = false,
  value,
  onChange,
}: {
  label: string;
  name: keyof Values;
  type?: 'text' | 'email';
  multiline?: boolean;
  value: string;
  onChange: (value: string) => void;
}) {
  const styles = useStyles();
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
        <span className={styles.required} aria-hidden>
          *
        </span>
      </label>
      {multiline ? (
        <textarea
          id={id}
          name={name}
          required
          value={value}
          className={mergeClasses(styles.control, styles.textarea)}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <input
          id={id}
          name={name}
          type={type}
          required
          value={value}
          className={styles.control}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </div>
  );
}

/** Spec 1 §2: all three fields required; submitting only shows the thank-you modal and clears the form. */
export function ContactForm() {
  const styles = useStyles();
  const [values, setValues] = useState(EMPTY);
  const [thanked, setThanked] = useState(false);
  // Once loaded the dialog stays mounted, so closing it restores the page (no aria-hidden left).
  const [dialogLoaded, setDialogLoaded] = useState(false);
  const set = (key: keyof Values) => (value: string) => setValues((v) => ({ ...v, [key]: value }));

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    setValues(EMPTY);
    setDialogLoaded(true);
    setThanked(true);
  }

  return (
    <>
      <form className={styles.form} onSubmit={submit} aria-label="Contact us">
        <TextField label="Name" name="name" value={values.name} onChange={set('name')} />
        <TextField
          label="Email"
          name="email"
          type="email"
          value={values.email}
          onChange={set('email')}
        />
        <TextField
          label="Message"
          name="message"
          multiline
          value={values.message}
          onChange={set('message')}
        />
        <div>
          <Button type="submit" appearance="primary">
            Send Message
          </Button>
        </div>
      </form>
      {dialogLoaded && (
        <Suspense fallback={null}>
          <ThankYouDialog open={thanked} onClose={() => setThanked(false)} />
        </Suspense>
      )}
    </>
  );
}
