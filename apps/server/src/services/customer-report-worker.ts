// A customer report worker (ADR 072): renders the PDF of the facts the server's thread gathered,
// exactly as the server's thread would (the same function of the reports package).
import { createCustomerReportPdf, type CustomerReportInput } from '@aegis/reports';

export default function render(facts: CustomerReportInput): Promise<Uint8Array> {
  return createCustomerReportPdf(facts);
}
