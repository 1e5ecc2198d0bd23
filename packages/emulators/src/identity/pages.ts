import type { DirectoryAccount, DirectoryTenant } from './tenant-directory';

/** The identity provider's sign-in and consent pages: plain HTML forms, keyboard and screen-reader usable. */

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const STYLE = `
  body { font-family: "Segoe UI", Arial, sans-serif; background: #f2f2f2; margin: 0; color: #1b1b1b; }
  main { max-width: 440px; margin: 48px auto; background: #fff; padding: 32px 40px; box-shadow: 0 2px 6px rgba(0,0,0,.2); }
  h1 { font-size: 24px; font-weight: 600; margin: 0 0 16px; }
  p, li, label { font-size: 15px; line-height: 1.4; }
  .tenant { color: #404040; font-size: 13px; }
  fieldset { border: 0; padding: 0; margin: 16px 0; }
  legend { font-weight: 600; margin-bottom: 8px; }
  .account { display: flex; gap: 10px; align-items: center; padding: 8px; border: 1px solid #d1d1d1; margin-bottom: 6px; }
  .account:focus-within { outline: 2px solid #0067b8; }
  .actions { display: flex; justify-content: flex-end; gap: 8px; margin-top: 24px; }
  button { font: inherit; padding: 6px 20px; min-width: 100px; border: 1px solid #8a8a8a; background: #fff; color: #1b1b1b; cursor: pointer; }
  button.primary { background: #0067b8; border-color: #0067b8; color: #fff; }
  button:focus-visible { outline: 2px solid #1b1b1b; outline-offset: 2px; }
  .error { color: #a4262c; }
`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

function hidden(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('');
}

function accountOptions(
  accounts: readonly { account: DirectoryAccount; tenant: DirectoryTenant }[],
): string {
  return accounts
    .map(
      ({ account, tenant }, index) =>
        `<div class="account"><input type="radio" id="account-${index}" name="upn" value="${escapeHtml(account.upn)}"${index === 0 ? ' checked' : ''}><label for="account-${index}">${escapeHtml(account.displayName)}<br><span class="tenant">${escapeHtml(account.upn)} · ${escapeHtml(tenant.displayName)}</span></label></div>`,
    )
    .join('');
}

/** The sign-in popup: pick one of the tenant's accounts. */
export function signInPage(options: {
  action: string;
  appName: string;
  accounts: readonly { account: DirectoryAccount; tenant: DirectoryTenant }[];
  fields: Record<string, string>;
}): string {
  const body =
    options.accounts.length === 0
      ? `<h1>Sign in</h1><p class="error" role="alert">AADSTS50020: No account of this tenant can sign in to ${escapeHtml(options.appName)}.</p>`
      : `<h1>Pick an account</h1><p>to continue to ${escapeHtml(options.appName)}</p>
<form method="post" action="${escapeHtml(options.action)}">${hidden(options.fields)}
<fieldset><legend>Accounts</legend>${accountOptions(options.accounts)}</fieldset>
<div class="actions"><button type="submit" name="decision" value="cancel">Cancel</button><button class="primary" type="submit" name="decision" value="sign-in">Sign in</button></div></form>`;
  return page('Sign in to your account', body);
}

/** The admin consent page: the permissions the application asks for, Accept or Cancel. */
export function consentPage(options: {
  action: string;
  appName: string;
  permissions: readonly string[];
  accounts: readonly { account: DirectoryAccount; tenant: DirectoryTenant }[];
  fields: Record<string, string>;
}): string {
  const body = `<h1>Permissions requested</h1>
<p><strong>${escapeHtml(options.appName)}</strong> needs permission to access resources in your organization that only an admin can grant. Accept for your organization?</p>
<form method="post" action="${escapeHtml(options.action)}">${hidden(options.fields)}
<fieldset><legend>Consent as</legend>${accountOptions(options.accounts)}</fieldset>
<p>This app would like to:</p><ul>${options.permissions.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul>
<div class="actions"><button type="submit" name="decision" value="cancel">Cancel</button><button class="primary" type="submit" name="decision" value="accept">Accept</button></div></form>`;
  return page('Permissions requested', body);
}

export function errorPage(message: string): string {
  return page(
    'Sign in error',
    `<h1>Sorry, but we're having trouble signing you in.</h1><p class="error" role="alert">${escapeHtml(message)}</p>`,
  );
}
