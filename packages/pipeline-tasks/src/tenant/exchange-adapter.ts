// The Exchange Online admin API the ExchangeOnlineManagement v3 module calls: POST
// adminapi/beta/{tenantId}/InvokeCommand with {"CmdletInput":{"CmdletName","Parameters"}}, for
// Exchange Online and Defender for Office 365 settings (Get-/Set-/New-/Remove-{noun}). Get- lists
// come in pages: the same command is posted to each @odata.nextLink. Writes send only the
// parameters Microsoft's reference gives the Set-/New- cmdlet (the rest of a captured Get- output
// is read-only: IsDefault, WhenChanged, …), bound to one parameter set as PowerShell binds them.
import { randomUUID } from 'node:crypto';

import { HttpPipeline } from '@aegis/connectors';
import { bindParameters, cmdletContract } from '@aegis/connectors/microsoft-contracts';
import type { AdminCommandWorkload } from '@aegis/domain';

import { TaskError } from '../log';

import type { ServiceAdapterOptions } from './doors';
import type { TenantObject, WriteOutcome } from './gateway';
import { writeOutcomeOf } from './write-outcome';

const MAX_PAGES = 500;
/** Search-UnifiedAuditLog's largest ResultSize */
const SEARCH_PAGE_SIZE = 5000;

function parseAdminError(_status: number, text: string): { code?: string; message?: string } {
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    return {
      ...(body.error?.code ? { code: body.error.code } : {}),
      ...(body.error?.message ? { message: body.error.message } : {}),
    };
  } catch {
    return {};
  }
}

/** Only Exchange Online's own workloads go through this door (SharePoint is Graph's, ADR 048 §6). */
function exchangeOnly(workload: AdminCommandWorkload, cmdlet: string): void {
  if (workload.service !== 'exchange') {
    throw new TaskError(`${cmdlet} is not an Exchange Online cmdlet: it is not sent to Exchange`);
  }
}

/** The parameters of `body` the cmdlet accepts; a cmdlet Microsoft does not publish is an error. */
function cmdletParameters(
  workload: AdminCommandWorkload,
  cmdlet: string,
  body: TenantObject,
): TenantObject {
  exchangeOnly(workload, cmdlet);
  const contract = cmdletContract('exchange', cmdlet);
  if (!contract) {
    throw new TaskError(`Exchange Online has no ${cmdlet} cmdlet (Microsoft's cmdlet reference)`);
  }
  return bindParameters(contract, body).accepted;
}

export class ExchangeAdminAdapter {
  private readonly http: HttpPipeline;
  private readonly endpoint: string;

  constructor(options: ServiceAdapterOptions & { tenantId: string }) {
    this.http = new HttpPipeline({
      service: 'exchange',
      getToken: options.getToken,
      fetch: options.fetch,
      ...(options.retry ? { retry: options.retry } : {}),
      parseError: parseAdminError,
    });
    this.endpoint = `${options.url.replace(/\/+$/, '')}/adminapi/beta/${encodeURIComponent(options.tenantId)}/InvokeCommand`;
  }

  private async invoke(
    cmdlet: string,
    parameters: TenantObject,
    url = this.endpoint,
  ): Promise<{ status: number; body: TenantObject | undefined }> {
    const response = await this.http.send<TenantObject | undefined>({
      method: 'POST',
      url,
      body: { CmdletInput: { CmdletName: cmdlet, Parameters: parameters } },
      headers: { accept: 'application/json' },
      responseType: 'json',
    });
    return { status: response.status, body: response.body };
  }

  /** Throws the service's error as it answered: the gateway turns it into the workload's outcome. */
  async read(workload: AdminCommandWorkload): Promise<TenantObject[]> {
    const cmdlet = `Get-${workload.noun}`;
    exchangeOnly(workload, cmdlet);
    const objects: TenantObject[] = [];
    let url: string | undefined = this.endpoint;
    for (let page = 0; url; page += 1) {
      if (page >= MAX_PAGES) throw new TaskError(`${cmdlet} paging did not end`);
      const { body }: { body: TenantObject | undefined } = await this.invoke(cmdlet, {}, url);
      const value = body?.['value'];
      if (Array.isArray(value)) objects.push(...(value as TenantObject[]));
      else if (body) objects.push(body);
      const next = body?.['@odata.nextLink'];
      url = typeof next === 'string' ? next : undefined;
    }
    return objects;
  }

  async create(workload: AdminCommandWorkload, body: TenantObject): Promise<WriteOutcome> {
    const cmdlet = `${workload.singleton ? 'Set' : 'New'}-${workload.noun}`;
    const { status, body: answer } = await this.invoke(
      cmdlet,
      cmdletParameters(workload, cmdlet, body),
    );
    return writeOutcomeOf(status, answer);
  }

  async update(
    workload: AdminCommandWorkload,
    existing: TenantObject,
    body: TenantObject,
  ): Promise<WriteOutcome> {
    const cmdlet = `Set-${workload.noun}`;
    const identity = existing['Identity'] ?? existing['Name'];
    const { Identity: _identity, ...changes } = body;
    const { status, body: answer } = await this.invoke(
      cmdlet,
      cmdletParameters(workload, cmdlet, {
        ...changes,
        ...(workload.singleton || identity === undefined ? {} : { Identity: identity }),
      }),
    );
    return writeOutcomeOf(status, answer);
  }

  async remove(workload: AdminCommandWorkload, existing: TenantObject): Promise<WriteOutcome> {
    const cmdlet = `Remove-${workload.noun}`;
    const identity = existing['Identity'] ?? existing['Name'] ?? '';
    const { status, body } = await this.invoke(
      cmdlet,
      cmdletParameters(workload, cmdlet, { Identity: identity, Confirm: false }),
    );
    return writeOutcomeOf(status, body);
  }

  /**
   * The Exchange admin records of the unified audit log between two times (Search-UnifiedAuditLog,
   * RecordType ExchangeAdmin): one search session, asked again until it has returned ResultCount
   * records or a page comes back empty. Throws the service's error as it answered.
   */
  async searchExchangeAdminAuditLog(start: Date, end: Date): Promise<TenantObject[]> {
    const cmdlet = 'Search-UnifiedAuditLog';
    const parameters = {
      StartDate: start.toISOString(),
      EndDate: end.toISOString(),
      RecordType: 'ExchangeAdmin',
      SessionId: randomUUID(),
      SessionCommand: 'ReturnLargeSet',
      ResultSize: SEARCH_PAGE_SIZE,
    };
    const contract = cmdletContract('exchange', cmdlet);
    if (!contract) throw new TaskError(`Exchange Online has no ${cmdlet} cmdlet`);
    const accepted = bindParameters(contract, parameters).accepted;
    const records: TenantObject[] = [];
    for (let page = 0; ; page += 1) {
      if (page >= MAX_PAGES) throw new TaskError(`${cmdlet} paging did not end`);
      const { body } = await this.invoke(cmdlet, accepted);
      const value = body?.['value'];
      const batch = Array.isArray(value) ? (value as TenantObject[]) : [];
      records.push(...batch);
      const last = batch[batch.length - 1];
      if (!last || Number(last['ResultIndex']) >= Number(last['ResultCount'])) return records;
    }
  }

  /** Enable-OrganizationCustomization: its own cmdlet (IsDehydrated is read-only). */
  async enableOrganizationCustomization(): Promise<WriteOutcome> {
    const { status, body } = await this.invoke('Enable-OrganizationCustomization', {});
    return writeOutcomeOf(status, body);
  }
}
