// The Exchange Online admin API the ExchangeOnlineManagement v3 module calls: POST
// adminapi/beta/{tenantId}/InvokeCommand with {"CmdletInput":{"CmdletName","Parameters"}}, for
// Exchange Online and Defender for Office 365 settings (Get-/Set-/New-/Remove-{noun}).
import { HttpPipeline } from '@aegis/connectors';
import type { AdminCommandWorkload } from '@aegis/domain';

import type { ServiceAdapterOptions } from './doors';
import type { TenantObject, WriteOutcome } from './gateway';
import { writeOutcomeOf } from './write-outcome';

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
  ): Promise<{ status: number; body: TenantObject | undefined }> {
    const response = await this.http.send<TenantObject | undefined>({
      method: 'POST',
      url: this.endpoint,
      body: { CmdletInput: { CmdletName: cmdlet, Parameters: parameters } },
      headers: { accept: 'application/json' },
      responseType: 'json',
    });
    return { status: response.status, body: response.body };
  }

  /** Throws the service's error as it answered: the gateway turns it into the workload's outcome. */
  async read(workload: AdminCommandWorkload): Promise<TenantObject[]> {
    const { body } = await this.invoke(`Get-${workload.noun}`, {});
    const value = body?.['value'];
    return Array.isArray(value) ? (value as TenantObject[]) : body ? [body] : [];
  }

  async create(workload: AdminCommandWorkload, body: TenantObject): Promise<WriteOutcome> {
    const verb = workload.singleton ? 'Set' : 'New';
    const { status, body: answer } = await this.invoke(`${verb}-${workload.noun}`, body);
    return writeOutcomeOf(status, answer);
  }

  async update(
    workload: AdminCommandWorkload,
    existing: TenantObject,
    body: TenantObject,
  ): Promise<WriteOutcome> {
    const identity = existing['Identity'] ?? existing['Name'];
    const { status, body: answer } = await this.invoke(`Set-${workload.noun}`, {
      ...body,
      ...(workload.singleton || identity === undefined ? {} : { Identity: identity }),
    });
    return writeOutcomeOf(status, answer);
  }

  async remove(workload: AdminCommandWorkload, existing: TenantObject): Promise<WriteOutcome> {
    const identity = existing['Identity'] ?? existing['Name'] ?? '';
    const { status, body } = await this.invoke(`Remove-${workload.noun}`, {
      Identity: identity,
      Confirm: false,
    });
    return writeOutcomeOf(status, body);
  }
}
