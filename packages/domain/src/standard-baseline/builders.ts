import { MISSING } from '../comparison';
import { textOf } from '../formatting/formatting';

import {
  asBool,
  at,
  display,
  either,
  find,
  isObject,
  lowerList,
  prop,
  type ItemPredicate,
} from './access';
import type { CheckEvaluation, ClientConfig, ConfigItem, StandardCheck } from './types';

export type CheckMeta = Omit<StandardCheck, 'evaluate'>;

/** A setting check: reads `property` from the items `where` selects; absent everywhere means 'Missing'. */
export function settingCheck(
  meta: CheckMeta,
  spec: {
    where: ItemPredicate;
    property: string;
    expected: string;
    test: (value: unknown, item: ConfigItem) => boolean;
    /** all (default): every item must pass; any: one passing item is enough. */
    mode?: 'all' | 'any';
  },
): StandardCheck {
  return {
    ...meta,
    evaluate(config) {
      const items = find(config, spec.where);
      const withValue = items.filter((i) => {
        const v = at(i.value, spec.property);
        return v !== undefined && v !== null;
      });
      const first = withValue[0];
      if (!first)
        return { expected: spec.expected, current: MISSING, pass: false, file: items[0]?.path };
      if (spec.mode === 'any') {
        const ok = withValue.find((i) => spec.test(at(i.value, spec.property), i));
        const shown = ok ?? first;
        return {
          expected: spec.expected,
          current: display(at(shown.value, spec.property)),
          pass: !!ok,
          file: shown.path,
        };
      }
      const bad = withValue.find((i) => !spec.test(at(i.value, spec.property), i));
      const shown = bad ?? first;
      return {
        expected: spec.expected,
        current: display(at(shown.value, spec.property)),
        pass: !bad,
        file: shown.path,
      };
    },
  };
}

export const isTrue = (v: unknown): boolean => asBool(v) === true;
export const isFalse = (v: unknown): boolean => asBool(v) === false;
export const equalsCI =
  (...values: string[]) =>
  (v: unknown): boolean =>
    typeof v === 'string' && values.some((x) => x.toLowerCase() === v.toLowerCase());

/** Directory settings (Values of Name/Value pairs) by template id or display name. */
const directorySetting = (templateId: string, displayName: string): ItemPredicate =>
  either(
    (i) => textOf(prop(i.value, 'templateId') ?? '').toLowerCase() === templateId,
    (i) => textOf(prop(i.value, 'displayName') ?? '').toLowerCase() === displayName.toLowerCase(),
  );

export function directorySettingCheck(
  meta: CheckMeta,
  spec: {
    templateId: string;
    templateName: string;
    name: string;
    expected: string;
    test: (v: unknown) => boolean;
  },
): StandardCheck {
  return {
    ...meta,
    evaluate(config) {
      const items = find(config, directorySetting(spec.templateId, spec.templateName));
      for (const item of items) {
        const values = prop(item.value, 'values');
        if (!Array.isArray(values)) continue;
        const entry: unknown = values.find(
          (e: unknown) =>
            isObject(e) && textOf(prop(e, 'name') ?? '').toLowerCase() === spec.name.toLowerCase(),
        );
        const v = prop(entry, 'value');
        if (v === undefined || v === null) continue;
        return {
          expected: spec.expected,
          current: display(v),
          pass: spec.test(v),
          file: item.path,
        };
      }
      return { expected: spec.expected, current: MISSING, pass: false, file: items[0]?.path };
    },
  };
}

/** Conditional Access policies of the client (by shape, wherever they are stored). */
export const isConditionalAccess: ItemPredicate = (i) =>
  prop(i.value, 'conditions') !== undefined &&
  (prop(i.value, 'grantControls') !== undefined || prop(i.value, 'sessionControls') !== undefined);

const caEnabled = (p: unknown): boolean =>
  textOf(prop(p, 'state') ?? '').toLowerCase() === 'enabled';
export const grant = (p: unknown): string[] => lowerList(at(p, 'grantControls.builtInControls'));
export const requiresMfa = (p: unknown): boolean => {
  const strength = at(p, 'grantControls.authenticationStrength');
  return grant(p).includes('mfa') || (isObject(strength) && Object.keys(strength).length > 0);
};
export const blocks = (p: unknown): boolean => grant(p).includes('block');
export const users = (p: unknown, key: string): string[] =>
  lowerList(at(p, `conditions.users.${key}`));
export const apps = (p: unknown, key: string): string[] =>
  lowerList(at(p, `conditions.applications.${key}`));
export const allUsers = (p: unknown): boolean => users(p, 'includeUsers').includes('all');
export const allApps = (p: unknown): boolean => apps(p, 'includeApplications').includes('all');

/** Well-known privileged directory role template ids (Global, Privileged Role, Security, Exchange, SharePoint, User admins…). */
export const PRIVILEGED_ROLES = [
  '62e90394-69f5-4237-9190-012177145e10',
  'e8611ab8-c189-46e8-94e1-60213ab1f814',
  '194ae4cb-b126-40b2-bd5b-6091b380977d',
  '29232cdf-9323-42fd-ade2-1d097af3e4de',
  'f28a1f50-f6e7-4571-818b-6a12f2af6b6c',
  'fe930be7-5e62-47db-91af-98c3a49a38b1',
  '729827e3-9c14-49f7-bb1b-9608f156bbb8',
  'b0f54661-2d74-4c50-afa3-1ec803f12efe',
  '9b895d92-2cd3-44c7-9d02-a6ac2d5ea5c3',
  '158c047a-c907-4556-b7ef-446551a6b5f7',
  'b1be1c3e-b65d-4f19-8427-f6fa0d97feb9',
  'c4e39bd9-1100-46d3-8c65-fb160da0071f',
  '3a2c62db-5318-420d-8d74-23affee5d9d5',
];
const GLOBAL_ADMIN_ROLE = '62e90394-69f5-4237-9190-012177145e10';
export const targetsAdmins = (p: unknown): boolean =>
  users(p, 'includeRoles').includes(GLOBAL_ADMIN_ROLE);

/** A check passing when at least one enabled Conditional Access policy satisfies `test`. */
export function caCheck(
  meta: CheckMeta,
  expected: string,
  test: (policy: unknown) => boolean,
): StandardCheck {
  return {
    ...meta,
    evaluate(config): CheckEvaluation {
      const policies = find(config, isConditionalAccess);
      if (policies.length === 0) return { expected, current: MISSING, pass: false };
      const hits = policies.filter((p) => caEnabled(p.value) && test(p.value));
      const name = (i: ConfigItem): string => textOf(prop(i.value, 'displayName') ?? i.path);
      return hits.length > 0
        ? { expected, current: hits.map(name).join(', '), pass: true, file: hits[0]?.path }
        : { expected, current: 'No enabled policy matches', pass: false, file: policies[0]?.path };
    },
  };
}

/** Authentication method configuration (Sms, Voice, Email, MicrosoftAuthenticator, Fido2…), stand-alone or in the policy. */
export function authenticationMethod(config: ClientConfig, id: string): ConfigItem | undefined {
  const want = id.toLowerCase();
  const matches = (v: unknown): boolean =>
    textOf(prop(v, 'id') ?? '').toLowerCase() === want ||
    textOf(prop(v, '@odata.type') ?? '')
      .toLowerCase()
      .includes(`${want}authenticationmethodconfiguration`);
  for (const item of config.items) {
    if (matches(item.value)) return item;
    const nested = prop(item.value, 'authenticationMethodConfigurations');
    if (Array.isArray(nested)) {
      const hit: unknown = nested.find(matches);
      if (isObject(hit)) return { path: item.path, value: hit };
    }
  }
  return undefined;
}
