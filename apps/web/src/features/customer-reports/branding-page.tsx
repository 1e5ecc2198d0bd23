import { BRANDING_LOGO_MAX_BYTES, type ReportBranding } from '@aegis/contracts';
import { Button, Field, Input, makeStyles, Textarea } from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router';

import { ImageFilePicker, type PickedImage } from '../../components/image-file-picker';
import { useNotify } from '../../components/notifier';
import { PageHeader } from '../../components/page-header';
import { QueryState } from '../../components/query-state';
import { ResultBar } from '../../components/result-bar';
import { RoleGate } from '../../components/role-gate';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';

import { useReportBranding, useSaveReportBranding } from './api/customer-reports-api';
import { CoverPreview } from './components/cover-preview';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '20px', maxWidth: '1100px' },
  layout: {
    display: 'grid',
    gridTemplateColumns: 'minmax(320px, 1fr) minmax(240px, 340px)',
    gap: '24px',
    alignItems: 'start',
    '@media (max-width: 900px)': { gridTemplateColumns: '1fr' },
  },
  form: { display: 'flex', flexDirection: 'column', gap: '12px' },
  colour: { display: 'flex', gap: '8px', alignItems: 'center' },
  swatch: { width: '32px', height: '32px', border: '1px solid #8a8886', borderRadius: '4px' },
  preview: { display: 'flex', flexDirection: 'column', gap: '8px' },
  actions: { display: 'flex', gap: '8px' },
});

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The logo as the form holds it: the stored one, a newly chosen file, or none. */
type LogoChoice =
  { kind: 'stored'; dataUrl: string } | { kind: 'picked'; image: PickedImage } | null;

interface FormState {
  mspName: string;
  primaryColour: string;
  contactEmail: string;
  contactPhone: string;
  website: string;
  supportMessage: string;
  logo: LogoChoice;
}

const initial = (branding: ReportBranding): FormState => ({
  mspName: branding.mspName,
  primaryColour: branding.primaryColour,
  contactEmail: branding.contactEmail,
  contactPhone: branding.contactPhone,
  website: branding.website,
  supportMessage: branding.supportMessage,
  logo: branding.logo ? { kind: 'stored', dataUrl: branding.logo } : null,
});

const logoUrl = (logo: LogoChoice) =>
  logo === null ? null : logo.kind === 'stored' ? logo.dataUrl : logo.image.dataUrl;

const tooLarge = (file: File) =>
  file.size > BRANDING_LOGO_MAX_BYTES
    ? `${file.name} is ${(file.size / 1_000_000).toFixed(1)} MB: the logo must be under 1 MB.`
    : undefined;

/** /customer-reports/branding (issue 29, ADR 072): the MSP's branding on every customer report. */
export function BrandingPage() {
  const styles = useStyles();
  const branding = useReportBranding();
  return (
    <div className={styles.root}>
      <PageHeader
        title="Customer Report Branding"
        subtitle="Your logo, colour and contact details on the cover of every customer report."
        actions={
          <RouterLink to={paths.customerReports.getHref()}>Back to Customer Reports</RouterLink>
        }
      />
      <QueryState
        query={branding}
        loading="Loading the branding..."
        failed="The branding could not be loaded"
      >
        {(data) => <BrandingForm key={JSON.stringify(data)} branding={data} />}
      </QueryState>
    </div>
  );
}

function BrandingForm({ branding }: { branding: ReportBranding }) {
  const styles = useStyles();
  const save = useSaveReportBranding();
  const notify = useNotify();
  const [form, setForm] = useState(() => initial(branding));
  const [logoProblem, setLogoProblem] = useState<string>();
  const [now] = useState(() => new Date());
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));
  // the server names the field it refused; its message goes under that field
  const field = save.error instanceof ApiError ? save.error.formField : undefined;
  const messageFor = (name: string) => (field === name ? save.error?.message : undefined);

  function submit(event: FormEvent) {
    event.preventDefault();
    const { logo, ...rest } = form;
    save.mutate(
      {
        ...rest,
        // a stored logo is kept by leaving it out; null removes it
        ...(logo === null
          ? { logo: null }
          : logo.kind === 'picked'
            ? { logo: logo.image.dataUrl }
            : {}),
      },
      { onSuccess: () => notify({ intent: 'success', title: 'The branding was saved.' }) },
    );
  }

  const picked: PickedImage | undefined =
    form.logo === null
      ? undefined
      : form.logo.kind === 'picked'
        ? form.logo.image
        : { name: 'Current logo', dataUrl: form.logo.dataUrl };

  return (
    <div className={styles.layout}>
      <form className={styles.form} onSubmit={submit} aria-label="Report branding">
        <Field
          label="Logo"
          hint="PNG, JPEG or SVG, under 1 MB; without one the cover shows your company name."
          validationMessage={logoProblem ?? messageFor('logo')}
        >
          <ImageFilePicker
            label="Logo"
            accept="image/png,image/jpeg,image/svg+xml"
            formats={['png', 'jpeg', 'svg']}
            value={picked}
            onChange={(image) => set('logo', image ? { kind: 'picked', image } : null)}
            check={tooLarge}
            onProblem={setLogoProblem}
          />
        </Field>
        <Field label="Company name" required validationMessage={messageFor('mspName')}>
          <Input value={form.mspName} onChange={(_, d) => set('mspName', d.value)} />
        </Field>
        <Field
          label="Colour"
          hint="#RRGGBB: titles, rules and the 'Prepared by' line."
          validationMessage={messageFor('primaryColour')}
        >
          <div className={styles.colour}>
            <Input
              aria-label="Colour"
              value={form.primaryColour}
              onChange={(_, d) => set('primaryColour', d.value)}
            />
            <div
              className={styles.swatch}
              style={{ backgroundColor: form.primaryColour }}
              aria-hidden="true"
            />
          </div>
        </Field>
        <Field label="Contact email" validationMessage={messageFor('contactEmail')}>
          <Input
            type="email"
            value={form.contactEmail}
            onChange={(_, d) => set('contactEmail', d.value)}
          />
        </Field>
        <Field label="Contact phone" validationMessage={messageFor('contactPhone')}>
          <Input value={form.contactPhone} onChange={(_, d) => set('contactPhone', d.value)} />
        </Field>
        <Field label="Website" validationMessage={messageFor('website')}>
          <Input value={form.website} onChange={(_, d) => set('website', d.value)} />
        </Field>
        <Field
          label="Support message"
          hint="Under the contact details on the cover, e.g. your service desk's hours."
          validationMessage={messageFor('supportMessage')}
        >
          <Textarea
            rows={3}
            value={form.supportMessage}
            onChange={(_, d) => set('supportMessage', d.value)}
          />
        </Field>
        {save.isError && !field ? (
          <ResultBar intent="error" title="The branding was not saved">
            {message(save.error)}
          </ResultBar>
        ) : null}
        <div className={styles.actions}>
          <RoleGate needs="Administrator">
            <Button type="submit" appearance="primary" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save branding'}
            </Button>
          </RoleGate>
        </div>
      </form>
      <section className={styles.preview} aria-labelledby="cover-preview">
        <h2 id="cover-preview">Cover preview</h2>
        <CoverPreview branding={{ ...form, logo: logoUrl(form.logo) }} now={now} />
      </section>
    </div>
  );
}
