import type { TenantContext } from '../tenant-context';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** One exported policy: M365Config/Resources/{category}/{kind}/{name}.json */
export interface PolicyDef {
  category: string;
  kind: string;
  name: string;
  build(ctx: TenantContext): JsonObject;
}

export function policyKey(def: Pick<PolicyDef, 'category' | 'kind' | 'name'>): string {
  return `${def.category}/${def.kind}/${def.name}`;
}

/** Graph entity envelope, as Graph (beta) returns it. */
export function graphEntity(
  ctx: TenantContext,
  seed: string,
  context: string,
  odataType: string | undefined,
  props: JsonObject,
  timestamps: 'created-modified' | 'created-lastModified' | 'none' = 'created-lastModified',
): JsonObject {
  const id = ctx.guid(seed);
  return {
    '@odata.context': `https://graph.microsoft.com/beta/$metadata#${context}/$entity`,
    ...(odataType ? { '@odata.type': odataType } : {}),
    id,
    ...(timestamps === 'created-modified'
      ? { createdDateTime: ctx.date(`${seed}:c`), modifiedDateTime: ctx.date(`${seed}:m`, 90) }
      : timestamps === 'created-lastModified'
        ? {
            createdDateTime: ctx.date(`${seed}:c`),
            lastModifiedDateTime: ctx.date(`${seed}:m`, 90),
          }
        : {}),
    ...props,
  };
}

/** Exchange Online PowerShell object envelope (Get-* | ConvertTo-Json). */
export function exoObject(
  ctx: TenantContext,
  container: string,
  identity: string,
  props: JsonObject,
): JsonObject {
  const guid = ctx.guid(`exo:${container}:${identity}`);
  const when = ctx.date(`exo:${container}:${identity}`);
  const ms = Date.parse(when);
  const root = ctx.domain;
  const forest = `${ctx.exchangeForest}.PROD.OUTLOOK.COM`;
  return {
    ...props,
    AdminDisplayName: '',
    Identity: identity,
    Id: identity,
    Name: identity,
    IsValid: true,
    ExchangeVersion: '0.20 (15.0.0.0)',
    DistinguishedName: `CN=${identity},CN=${container},CN=Transport Settings,CN=Configuration,CN=${root},CN=ConfigurationUnits,DC=${ctx.exchangeForest},DC=PROD,DC=OUTLOOK,DC=COM`,
    ObjectCategory: `${forest}/Configuration/Schema/ms-Exch-${container.replace(/\s+/g, '-')}`,
    WhenChanged: `/Date(${ms})/`,
    WhenCreated: `/Date(${ms - 86400000 * 30})/`,
    WhenChangedUTC: `/Date(${ms})/`,
    WhenCreatedUTC: `/Date(${ms - 86400000 * 30})/`,
    ExchangeObjectId: guid,
    OrganizationalUnitRoot: root,
    OrganizationId: `${forest}/Microsoft Exchange Hosted Organizations/${root} - ${forest}/ConfigurationUnits/${root}/Configuration`,
    Guid: guid,
    OriginatingServer: `${ctx.exchangeForest.replace('A', '')}DC0${guid.charCodeAt(0) % 9}.${forest}`,
    ObjectState: 'Unchanged',
  };
}
