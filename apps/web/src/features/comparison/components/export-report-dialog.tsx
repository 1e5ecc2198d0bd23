import type { ComparisonResult } from '@aegis/contracts';
import type { StandardBaselineResult, StandardCheckResult } from '@aegis/domain';
import {
  comparisonReportFileName,
  createComparisonReportPdf,
  fromComparisonResults,
  fromStandardBaseline,
  NO_RESULTS_MESSAGE,
  type ReportMeta,
} from '@aegis/reports';
import {
  Button,
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
  Textarea,
} from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';
import { useState } from 'react';

import { ImageFilePicker, type PickedImage } from '../../../components/image-file-picker';
import { handOverFile } from '../../../lib/hand-over-file';
import { useBrowserSession } from '../../../lib/session';

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', gap: '16px' },
});

/** The domain's standard result from the wire DTO (the checks' functions stay on the server). */
function standardResult(result: Extract<ComparisonResult, { baselineType: 'standard' }>) {
  const results = result.results as StandardCheckResult[];
  const byCategory = {} as StandardBaselineResult['byCategory'];
  for (const r of results) (byCategory[r.category] ??= []).push(r);
  return { ...result, results, byCategory } satisfies StandardBaselineResult;
}

function hasResults(result: ComparisonResult | undefined): result is ComparisonResult {
  if (!result) return false;
  return result.baselineType === 'standard'
    ? result.results.length > 0
    : Object.values(result.rows).some((policies) => Object.keys(policies).length > 0);
}

/** Export Report (spec 1 §2, §9): optional logo, optional support message, all or failed results. */
export function ExportReportDialog({
  open,
  result,
  onClose,
}: {
  open: boolean;
  result: ComparisonResult | undefined;
  onClose: () => void;
}) {
  const styles = useStyles();
  const session = useBrowserSession();
  const [logo, setLogo] = useState<PickedImage | undefined>();
  const [logoProblem, setLogoProblem] = useState<string | undefined>();
  const [supportMessage, setSupportMessage] = useState('');
  const [scope, setScope] = useState<'all' | 'failed'>('all');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const exportReport = async () => {
    setError(undefined);
    if (!hasResults(result)) {
      setError(NO_RESULTS_MESSAGE);
      return;
    }
    const user = session.loggedInUser;
    const meta: ReportMeta = {
      clientName: result.client,
      generatedBy: {
        upn: user?.upn ?? 'unknown',
        ...(user?.displayName ? { displayName: user.displayName } : {}),
      },
      options: {
        failedOnly: scope === 'failed',
        ...(logo ? { logo: logo.dataUrl } : {}),
        ...(supportMessage.trim() ? { supportMessage: supportMessage.trim() } : {}),
      },
    };
    setBusy(true);
    try {
      const input =
        result.baselineType === 'standard'
          ? fromStandardBaseline(standardResult(result), result.notCaptured, meta)
          : fromComparisonResults(result.rows, result.notCaptured, meta);
      const bytes = await createComparisonReportPdf(input);
      handOverFile(new Blob([bytes], { type: 'application/pdf' }), {
        saveAs: comparisonReportFileName(result.client, result.baselineType),
      });
      onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(_e, data) => !data.open && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Export Report</DialogTitle>
          <DialogContent className={styles.body}>
            {error && (
              <MessageBar intent="error" layout="multiline">
                <MessageBarBody>{error}</MessageBarBody>
              </MessageBar>
            )}
            <Field
              label="Custom logo (optional)"
              hint="PNG, JPEG or SVG, shown on the cover."
              validationMessage={logoProblem}
            >
              <ImageFilePicker
                label="Custom logo"
                accept="image/png,image/jpeg,image/svg+xml"
                formats={['png', 'jpeg', 'svg']}
                value={logo}
                onChange={setLogo}
                onProblem={setLogoProblem}
              />
            </Field>
            <Field
              label="Support message (optional)"
              hint="Shown on the last page, 'Support Information / Contact Details'."
            >
              <Textarea
                value={supportMessage}
                onChange={(_e, data) => setSupportMessage(data.value)}
                resize="vertical"
                rows={3}
              />
            </Field>
            <Field label="Results to export">
              <RadioGroup
                value={scope}
                onChange={(_e, data) => setScope(data.value as 'all' | 'failed')}
              >
                <Radio value="all" label="Export All Results" />
                <Radio value="failed" label="Export Failed Results Only" />
              </RadioGroup>
            </Field>
            {result && (
              <Text size={200}>
                File: {comparisonReportFileName(result.client, result.baselineType)}
              </Text>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Cancel</Button>
            <Button
              appearance="primary"
              icon={busy ? <Spinner size="tiny" /> : <ArrowDownloadRegular />}
              disabled={busy}
              onClick={() => void exportReport()}
            >
              {busy ? 'Exporting...' : 'Export PDF'}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
