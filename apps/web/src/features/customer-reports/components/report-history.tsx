import type { CustomerReportSend } from '@aegis/contracts';
import {
  Button,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
} from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const percent = (value: number | null) => (value === null ? '–' : `${value}%`);

export interface ReportHistoryProps {
  readonly sends: readonly CustomerReportSend[];
  readonly onDownload: (send: CustomerReportSend) => void;
}

/** What was sent to whom and when, each PDF downloadable from Blob storage. */
export function ReportHistory({ sends, onDownload }: ReportHistoryProps) {
  if (sends.length === 0) {
    return <Text>No report has been sent to this client yet.</Text>;
  }
  return (
    <Table aria-label="Reports sent" size="small">
      <TableHeader>
        <TableRow>
          <TableHeaderCell>Sent</TableHeaderCell>
          <TableHeaderCell>Period</TableHeaderCell>
          <TableHeaderCell>To</TableHeaderCell>
          <TableHeaderCell>In copy</TableHeaderCell>
          <TableHeaderCell>How</TableHeaderCell>
          <TableHeaderCell>Baseline</TableHeaderCell>
          <TableHeaderCell>Standard</TableHeaderCell>
          <TableHeaderCell>PDF</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {sends.map((send) => (
          <TableRow key={send.id}>
            <TableCell>{dateTime.format(new Date(send.sentAt))}</TableCell>
            <TableCell>{send.periodLabel}</TableCell>
            <TableCell>{send.to.join(', ')}</TableCell>
            <TableCell>{send.cc.join(', ') || '–'}</TableCell>
            <TableCell>
              {send.trigger === 'scheduled' ? 'On schedule' : `Sent now by ${send.requestedBy}`}
            </TableCell>
            <TableCell>{percent(send.compliancePercentage)}</TableCell>
            <TableCell>{percent(send.standardPercentage)}</TableCell>
            <TableCell>
              <Button
                size="small"
                icon={<ArrowDownloadRegular />}
                aria-label={`Download the ${send.periodLabel} report sent ${dateTime.format(new Date(send.sentAt))}`}
                onClick={() => onDownload(send)}
              >
                Download
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
