// What each channel receives (issue 28 §4), pure: an email, a Teams Workflows message with an
// Adaptive Card, and the generic webhook's JSON. One notification or a daily digest of several.
import type { DeliveryPurpose, NotificationRecord } from './types';

/** One notification as a message tells it. */
export interface MessageItem {
  readonly record: NotificationRecord;
  readonly purpose: DeliveryPurpose;
  /** the outbox entry: receivers may use it to drop a message they already had */
  readonly deliveryId: string;
}

const PURPOSE_WORDS: Readonly<Record<DeliveryPurpose, string>> = {
  raised: '',
  changed: 'Changed: ',
  resolved: 'Resolved: ',
  escalation: 'Not acknowledged: ',
};

/** `Resolved: ABC · Drift detected in the tenant` */
export function headline(item: MessageItem): string {
  return `${PURPOSE_WORDS[item.purpose]}${item.record.clientCode} · ${item.record.title}`;
}

function portalLink(record: NotificationRecord, portalUrl: string): string | undefined {
  return record.link ? `${portalUrl.replace(/\/+$/, '')}${record.link}` : undefined;
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export interface EmailContent {
  readonly subject: string;
  readonly html: string;
}

export function emailFor(items: readonly MessageItem[], portalUrl: string): EmailContent {
  const first = items[0];
  if (!first) throw new Error('A message needs at least one notification');
  const subject =
    items.length === 1
      ? `[Aegis] ${headline(first)}`
      : `[Aegis] Daily digest: ${items.length} notifications`;
  const sections = items.map((item) => {
    const link = portalLink(item.record, portalUrl);
    return [
      `<h2>${escapeHtml(headline(item))}</h2>`,
      `<p>Severity: ${escapeHtml(item.record.severity)}</p>`,
      `<p>${escapeHtml(item.record.summary)}</p>`,
      link ? `<p><a href="${escapeHtml(link)}">Open in Aegis</a></p>` : '',
    ].join('');
  });
  return { subject, html: `<html><body>${sections.join('<hr>')}</body></html>` };
}

/**
 * The body a Teams Workflows 'Post to a channel when a webhook request is received' flow takes:
 * a message whose attachment is an Adaptive Card (1.4, the newest Teams renders everywhere).
 */
export function teamsMessageFor(items: readonly MessageItem[], portalUrl: string): unknown {
  const first = items[0];
  if (!first) throw new Error('A message needs at least one notification');
  const body: unknown[] = [
    {
      type: 'TextBlock',
      text: items.length === 1 ? headline(first) : `Daily digest: ${items.length} notifications`,
      weight: 'Bolder',
      size: 'Medium',
      wrap: true,
    },
  ];
  const actions: unknown[] = [];
  for (const item of items) {
    if (items.length > 1) {
      body.push({
        type: 'TextBlock',
        text: headline(item),
        weight: 'Bolder',
        wrap: true,
        separator: true,
      });
    }
    body.push(
      { type: 'TextBlock', text: item.record.summary, wrap: true },
      {
        type: 'FactSet',
        facts: [
          { title: 'Client', value: item.record.clientCode },
          { title: 'Severity', value: item.record.severity },
          { title: 'Raised', value: item.record.raisedAt },
        ],
      },
    );
    const link = portalLink(item.record, portalUrl);
    if (link && actions.length < 5) {
      actions.push({
        type: 'Action.OpenUrl',
        title: items.length === 1 ? 'Open in Aegis' : `Open ${item.record.clientCode}`,
        url: link,
      });
    }
  }
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          ...(actions.length ? { actions } : {}),
        },
      },
    ],
  };
}

/** The generic webhook's JSON (documented for PSA receivers in ADR 065). */
export function webhookPayloadFor(items: readonly MessageItem[], portalUrl: string): unknown {
  return {
    type: items.length === 1 ? 'notification' : 'digest',
    notifications: items.map((item) => ({
      deliveryId: `${item.record.id}.${item.deliveryId}`,
      id: item.record.id,
      event: item.purpose,
      kind: item.record.kind,
      clientCode: item.record.clientCode,
      subject: item.record.subject,
      fingerprint: item.record.fingerprint,
      severity: item.record.severity,
      title: item.record.title,
      summary: item.record.summary,
      ...(portalLink(item.record, portalUrl) ? { link: portalLink(item.record, portalUrl) } : {}),
      raisedAt: item.record.raisedAt,
      ...(item.record.resolvedAt ? { resolvedAt: item.record.resolvedAt } : {}),
    })),
  };
}
