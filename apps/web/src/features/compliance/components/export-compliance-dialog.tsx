import {
  BANNER_STORAGE_KEY,
  bannerProblem,
  canExport,
  deviationsByCategory,
  EXPORT_CLOSE_DELAY_MS,
  EXPORT_MESSAGES,
  EXPORT_SEVERITY_FILTERS,
  EXPORT_SEVERITY_LABELS,
  filterForExport,
  severityFilterCounts,
  type ComplianceSummary,
  type ExportSeverityFilter,
} from '@aegis/domain';
import { complianceReportFileName, createComplianceReportPdf } from '@aegis/reports';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Radio,
  RadioGroup,
  Spinner,
  Text,
} from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';
import { useEffect, useMemo, useRef, useState } from 'react';

import { ImageFilePicker, type PickedImage } from '../../../components/image-file-picker';
import { handOverFile } from '../../../lib/hand-over-file';
import { useBrowserSession } from '../../../lib/session';

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', gap: '14px' },
  row: { display: 'flex', alignItems: 'center', gap: '8px', flexWrap: 'wrap' },
  group: { display: 'flex', flexDirection: 'column', gap: '2px' },
  categories: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))' },
});

const BANNER_NAME_KEY = `${BANNER_STORAGE_KEY}.name`;

/** The banner kept from the last export (this browser), with its file name. */
function readBanner(): PickedImage | undefined {
  try {
    const dataUrl = localStorage.getItem(BANNER_STORAGE_KEY);
    if (!dataUrl) return undefined;
    return { dataUrl, name: localStorage.getItem(BANNER_NAME_KEY) ?? 'Saved banner' };
  } catch {
    return undefined;
  }
}

/** The 'Export Compliance Report' modal (spec 3 §2, §5, §9). */
export function ExportComplianceDialog({
  client,
  data,
  onClose,
  onExported,
}: {
  client: string;
  data: ComplianceSummary;
  onClose: () => void;
  onExported: (message: string) => void;
}) {
  const styles = useStyles();
  const session = useBrowserSession();
  const allCategories = useMemo(
    () => deviationsByCategory(data.deviations).map((c) => c.category),
    [data.deviations],
  );
  const counts = useMemo(() => severityFilterCounts(data.deviations), [data.deviations]);
  const [banner, setBanner] = useState<PickedImage | undefined>(readBanner);
  const [bannerError, setBannerError] = useState<string | undefined>();
  const [includeSummary, setIncludeSummary] = useState(true);
  const [includeCategoryBreakdown, setIncludeCategoryBreakdown] = useState(true);
  const [includeDetailedDeviations, setIncludeDetailedDeviations] = useState(true);
  const [severityFilter, setSeverityFilter] = useState<ExportSeverityFilter>('all');
  const [categories, setCategories] = useState<string[]>(allCategories);
  const [state, setState] = useState<'idle' | 'exporting' | 'done'>('idle');
  const [error, setError] = useState<string | undefined>();
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const options = {
    includeSummary,
    includeCategoryBreakdown,
    includeDetailedDeviations,
    severityFilter,
    categories,
  };
  const selected = filterForExport(data.deviations, options);
  const allowed = canExport(options);

  const chooseBanner = (image: PickedImage | undefined) => {
    setBanner(image);
    try {
      if (image) {
        localStorage.setItem(BANNER_STORAGE_KEY, image.dataUrl);
        localStorage.setItem(BANNER_NAME_KEY, image.name);
      } else {
        localStorage.removeItem(BANNER_STORAGE_KEY);
        localStorage.removeItem(BANNER_NAME_KEY);
      }
    } catch {
      // too big for this browser's storage: used for this export only
    }
  };

  const exportPdf = async () => {
    setError(undefined);
    setState('exporting');
    try {
      const now = new Date();
      const user = session.loggedInUser;
      const bytes = await createComplianceReportPdf({
        client,
        data,
        options,
        ...(banner ? { banner: banner.dataUrl } : {}),
        generatedAt: now,
        generatedBy: {
          upn: user?.upn ?? 'unknown',
          ...(user?.displayName ? { displayName: user.displayName } : {}),
        },
      });
      const file = complianceReportFileName(client, now);
      handOverFile(new Blob([bytes], { type: 'application/pdf' }), { saveAs: file });
      setState('done');
      onExported(EXPORT_MESSAGES.exported(file));
      closeTimer.current = setTimeout(onClose, EXPORT_CLOSE_DELAY_MS);
    } catch (e) {
      console.error('PDF export failed', e);
      setError(EXPORT_MESSAGES.failed);
      setState('idle');
    }
  };

  const chosen = new Set(selected.map((g) => g.category)).size;
  return (
    <Dialog open onOpenChange={(_e, d) => !d.open && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Export Compliance Report</DialogTitle>
          <DialogContent className={styles.body}>
            {error && (
              <MessageBar intent="error" layout="multiline">
                <MessageBarBody>{error}</MessageBarBody>
              </MessageBar>
            )}
            <Field
              label="Company banner (optional)"
              hint="PNG or JPG, up to 2 MB; 1200x300 px recommended."
              validationMessage={bannerError}
            >
              <ImageFilePicker
                label="Company banner"
                accept="image/png,image/jpeg"
                formats={['png', 'jpeg']}
                value={banner}
                onChange={chooseBanner}
                check={bannerProblem}
                onProblem={setBannerError}
              />
            </Field>
            <div role="group" aria-labelledby="export-sections" className={styles.group}>
              <Text id="export-sections" weight="semibold">
                Report sections
              </Text>
              <Checkbox
                label="Executive Summary"
                checked={includeSummary}
                onChange={(_e, d) => setIncludeSummary(Boolean(d.checked))}
              />
              <Checkbox
                label="Category Breakdown"
                checked={includeCategoryBreakdown}
                onChange={(_e, d) => setIncludeCategoryBreakdown(Boolean(d.checked))}
              />
              <Checkbox
                label="Detailed Deviations"
                checked={includeDetailedDeviations}
                onChange={(_e, d) => setIncludeDetailedDeviations(Boolean(d.checked))}
              />
            </div>
            <Field label="Severity filter">
              <RadioGroup
                value={severityFilter}
                onChange={(_e, d) => setSeverityFilter(d.value as ExportSeverityFilter)}
              >
                {EXPORT_SEVERITY_FILTERS.map((f) => (
                  <Radio key={f} value={f} label={`${EXPORT_SEVERITY_LABELS[f]} (${counts[f]})`} />
                ))}
              </RadioGroup>
            </Field>
            <div role="group" aria-labelledby="export-categories" className={styles.group}>
              <Text id="export-categories" weight="semibold">
                Categories
              </Text>
              <div className={styles.row}>
                <Button size="small" onClick={() => setCategories(allCategories)}>
                  Select All
                </Button>
                <Button size="small" onClick={() => setCategories([])}>
                  Deselect All
                </Button>
              </div>
              <div className={styles.categories}>
                {allCategories.map((c) => (
                  <Checkbox
                    key={c}
                    label={c}
                    checked={categories.includes(c)}
                    onChange={(_e, d) =>
                      setCategories((list) =>
                        d.checked ? [...list, c] : list.filter((x) => x !== c),
                      )
                    }
                  />
                ))}
              </div>
            </div>
            <Text weight="semibold">
              {selected.length} {selected.length === 1 ? 'policy' : 'policies'} with deviations in{' '}
              {chosen} {chosen === 1 ? 'category' : 'categories'} will be exported.
            </Text>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Cancel</Button>
            <Button
              appearance="primary"
              disabled={!allowed || state !== 'idle'}
              icon={state === 'exporting' ? <Spinner size="tiny" /> : <ArrowDownloadRegular />}
              onClick={() => void exportPdf()}
            >
              {state === 'exporting' ? 'Generating PDF...' : 'Export PDF'}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
