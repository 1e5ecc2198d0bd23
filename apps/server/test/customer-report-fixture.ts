// What the customer report tests share: a mailbox that records what Graph sendMail would carry,
// and a PDF's text as pdftotext reads it.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import type { MailMessage, MailSender } from '@aegis/connectors/graph';

/** The MSP's mailbox as Graph sendMail would carry it; `failures` sends fail first. */
export class RecordingMail implements MailSender {
  readonly sender = 'reports@aegis-msp.example';
  readonly sent: MailMessage[] = [];
  failures = 0;
  attempts = 0;

  send(message: MailMessage): Promise<void> {
    this.attempts++;
    if (this.failures > 0) {
      this.failures--;
      return Promise.reject(new Error('sendMail answered 503'));
    }
    this.sent.push(message);
    return Promise.resolve();
  }
}

/** The PDF's text, whitespace folded, written to `dir` under `name` for pdftotext. */
export function pdfText(bytes: Uint8Array, dir: string, name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}
