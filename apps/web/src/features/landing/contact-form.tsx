import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  Textarea,
} from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: '12px', maxWidth: '520px' },
});

const EMPTY = { name: '', email: '', message: '' };

/** Spec 1 §2: all three fields required; submitting only shows the thank-you modal and clears the form. */
export function ContactForm() {
  const styles = useStyles();
  const [values, setValues] = useState(EMPTY);
  const [thanked, setThanked] = useState(false);

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    setValues(EMPTY);
    setThanked(true);
  }

  return (
    <>
      <form className={styles.form} onSubmit={submit} aria-label="Contact us">
        <Field label="Name" required>
          <Input
            value={values.name}
            required
            onChange={(_e, d) => setValues((v) => ({ ...v, name: d.value }))}
          />
        </Field>
        <Field label="Email" required>
          <Input
            type="email"
            value={values.email}
            required
            onChange={(_e, d) => setValues((v) => ({ ...v, email: d.value }))}
          />
        </Field>
        <Field label="Message" required>
          <Textarea
            value={values.message}
            required
            resize="vertical"
            onChange={(_e, d) => setValues((v) => ({ ...v, message: d.value }))}
          />
        </Field>
        <div>
          <Button type="submit" appearance="primary">
            Send Message
          </Button>
        </div>
      </form>
      <Dialog open={thanked} onOpenChange={(_e, d) => setThanked(d.open)}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>Thank you!</DialogTitle>
            <DialogContent>
              Thank you for contacting us. A member of our team will respond within 24 business
              hours.
            </DialogContent>
            <DialogActions>
              <Button appearance="primary" onClick={() => setThanked(false)}>
                Close
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  );
}
