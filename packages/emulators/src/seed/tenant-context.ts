// Deterministic identifiers and timestamps for a simulated tenant, so every generated export is
// the same on every run while ids still differ between tenants (as they do in real exports).
import { createHash } from 'node:crypto';

import { parameterToken } from '@aegis/domain';

export interface TenantContext {
  /** 'BASELINE' for the company baseline, else the client code */
  code: string;
  displayName: string;
  tenantId: string;
  /** e.g. contoso.onmicrosoft.com */
  domain: string;
  /** exchange organisation server prefix, e.g. EURPR03A004 */
  exchangeForest: string;
  guid(seed: string): string;
  /**
   * A tenant parameter of the sample (ADR 068): the company baseline names it by its token, a
   * client tenant holds its own value.
   */
  parameter(name: SampleParameter): string;
  /** a fixed ISO date-time, `daysAgo` before the reference date 2025-06-01 */
  date(seed: string, maxDaysAgo?: number): string;
}

/** The sample's tenant parameters and each tenant's own value of them. */
export const SAMPLE_PARAMETERS = {
  /** who may create Microsoft 365 groups (Group.Unified): the tenant's licensed-staff group */
  groupCreatorsGroupId: (ctx: Pick<TenantContext, 'guid'>) =>
    ctx.guid('group:SG-License-M365-BusinessPremium'),
} as const;
export type SampleParameter = keyof typeof SAMPLE_PARAMETERS;

/** A client tenant's values of the sample's parameters: its `.parameters.json`. */
export function sampleParametersOf(ctx: Pick<TenantContext, 'guid'>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(SAMPLE_PARAMETERS).map(([name, value]) => [name, value(ctx)]),
  );
}

export function deterministicGuid(seed: string): string {
  const hex = createHash('sha1').update(seed).digest('hex');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function hashNumber(seed: string): number {
  return parseInt(createHash('sha1').update(seed).digest('hex').slice(0, 8), 16);
}

const REFERENCE = Date.UTC(2025, 5, 1, 9, 0, 0);

export function tenantContext(
  code: string,
  displayName: string,
  domainPrefix: string,
): TenantContext {
  const forestNumber = (hashNumber(`${code}:forest`) % 90) + 10;
  return {
    code,
    displayName,
    tenantId: deterministicGuid(`${code}:tenant`),
    domain: `${domainPrefix}.onmicrosoft.com`,
    exchangeForest: `EURPR${String(forestNumber).padStart(2, '0')}A00${hashNumber(code) % 9}`,
    guid: (seed) => deterministicGuid(`${code}:${seed}`),
    parameter: (name) =>
      code === 'BASELINE'
        ? parameterToken(name)
        : SAMPLE_PARAMETERS[name]({ guid: (seed) => deterministicGuid(`${code}:${seed}`) }),
    date: (seed, maxDaysAgo = 400) => {
      const days = hashNumber(`${code}:${seed}:date`) % maxDaysAgo;
      const seconds = hashNumber(`${code}:${seed}:time`) % 86400;
      return new Date(REFERENCE - days * 86400000 - seconds * 1000)
        .toISOString()
        .replace('.000Z', `.${String(hashNumber(seed) % 10000000).padStart(7, '0')}Z`);
    },
  };
}
