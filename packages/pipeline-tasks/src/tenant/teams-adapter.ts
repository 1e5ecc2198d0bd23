// The Teams admin configuration service the MicrosoftTeams module's Cs* cmdlets call (and
// ScubaGear's and CIPP's REST collectors): /Skype.Policy/configurations/{type} lists every
// instance of a policy type, /Skype.Policy/configurations/{type}/configuration/{identity} is one
// instance (Global, Tag:{name}). Its own base URL and token audience (doors.ts). A write sends
// only the parameters Microsoft's reference gives the cmdlet it stands for (Set-/New-Cs{noun}).
import { HttpPipeline } from '@aegis/connectors';
import { bindParameters, cmdletContract } from '@aegis/connectors/microsoft-contracts';
import type { AdminCommandWorkload } from '@aegis/domain';

import { TaskError } from '../log';

import type { ServiceAdapterOptions } from './doors';
import type { TenantObject, WriteOutcome } from './gateway';
import { writeOutcomeOf } from './write-outcome';

function parseTeamsError(_status: number, text: string): { code?: string; message?: string } {
  try {
    const body = JSON.parse(text) as {
      error?: { code?: string; message?: string };
      errorCode?: string;
      message?: string;
    };
    const code = body.error?.code ?? body.errorCode;
    const message = body.error?.message ?? body.message;
    return { ...(code ? { code } : {}), ...(message ? { message } : {}) };
  } catch {
    return {};
  }
}

function contractOf(cmdlet: string) {
  const contract = cmdletContract('teams', cmdlet);
  if (!contract) {
    throw new TaskError(`Microsoft Teams has no ${cmdlet} cmdlet (Microsoft's cmdlet reference)`);
  }
  return contract;
}

/** The parameters of `body` the cmdlet accepts; Identity is the URL's. */
function cmdletParameters(cmdlet: string, body: TenantObject): TenantObject {
  const { Identity: _identity, ...parameters } = bindParameters(contractOf(cmdlet), body).accepted;
  return parameters;
}

export class TeamsConfigurationAdapter {
  private readonly http: HttpPipeline;
  private readonly base: string;

  constructor(options: ServiceAdapterOptions) {
    this.http = new HttpPipeline({
      service: 'teams',
      getToken: options.getToken,
      fetch: options.fetch,
      ...(options.retry ? { retry: options.retry } : {}),
      parseError: parseTeamsError,
    });
    this.base = `${options.url.replace(/\/+$/, '')}/Skype.Policy/configurations`;
  }

  private typeOf(workload: AdminCommandWorkload): string {
    if (!workload.configurationType) {
      throw new TaskError(
        `${workload.category}/${workload.kind} names no Teams configuration type`,
      );
    }
    return encodeURIComponent(workload.configurationType);
  }

  private instanceUrl(workload: AdminCommandWorkload, identity: unknown): string {
    const name = typeof identity === 'string' && identity ? identity : 'Global';
    return `${this.base}/${this.typeOf(workload)}/configuration/${encodeURIComponent(name)}`;
  }

  /** Throws the service's error as it answered: the gateway turns it into the workload's outcome. */
  async read(workload: AdminCommandWorkload): Promise<TenantObject[]> {
    const response = await this.http.send<unknown>({
      method: 'GET',
      url: `${this.base}/${this.typeOf(workload)}`,
      responseType: 'json',
    });
    const body = response.body;
    if (Array.isArray(body)) return body as TenantObject[];
    const value = (body as { value?: unknown } | undefined)?.value;
    return Array.isArray(value) ? (value as TenantObject[]) : body ? [body as TenantObject] : [];
  }

  private async write(
    method: 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: TenantObject,
  ): Promise<WriteOutcome> {
    const response = await this.http.send<TenantObject | undefined>({
      method,
      url,
      ...(body ? { body } : {}),
      responseType: 'json',
    });
    return writeOutcomeOf(response.status, response.body);
  }

  async create(workload: AdminCommandWorkload, body: TenantObject): Promise<WriteOutcome> {
    const verb = workload.singleton ? 'Set' : 'New';
    const parameters = cmdletParameters(`${verb}-${workload.noun}`, body);
    return this.write(
      verb === 'Set' ? 'PUT' : 'POST',
      this.instanceUrl(workload, body['Identity']),
      parameters,
    );
  }

  async update(
    workload: AdminCommandWorkload,
    existing: TenantObject,
    body: TenantObject,
  ): Promise<WriteOutcome> {
    const parameters = cmdletParameters(`Set-${workload.noun}`, body);
    return this.write('PUT', this.instanceUrl(workload, existing['Identity']), parameters);
  }

  async remove(workload: AdminCommandWorkload, existing: TenantObject): Promise<WriteOutcome> {
    contractOf(`Remove-${workload.noun}`);
    return this.write('DELETE', this.instanceUrl(workload, existing['Identity']));
  }
}
