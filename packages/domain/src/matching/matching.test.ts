import { describe, expect, it } from 'vitest';

import {
  applyAcceptedDeviations,
  acceptDeviations,
  emptyAcceptedDeviations,
} from '../accepted-deviations';
import { evaluateCompliance } from '../comparison';
import { propertyChanges, reviewableItems } from '../drift';
import { displayArray, displayValue, truncate } from '../formatting';
import {
  baselineCompliancePercentage,
  complianceBand,
  passRateIcon,
  scoreDescription,
} from '../scores';
import { captureReviewSeverity, highestSeverity, severityByPropertyName } from '../severity';

import {
  dedupeMatches,
  applyMatches,
  findUnmatchedPolicies,
  autoMatches,
  cleanupMessage,
} from './matches';
import { detectPolicyKind, isSingletonPolicy, policyKindFromPath } from './policy-kind';
import {
  displayNameSimilarity,
  matchQuality,
  policySimilarity,
  explanationBand,
  displayNameBand,
  weightedScore,
} from './similarity';

const ca = (name: string, extra: Record<string, unknown> = {}) => ({
  id: name,
  displayName: name,
  state: 'enabled',
  conditions: {
    users: { includeUsers: ['All'] },
    applications: { includeApplications: ['All'] },
    clientAppTypes: ['all'],
  },
  grantControls: { operator: 'OR', builtInControls: ['mfa'] },
  sessionControls: null,
  ...extra,
});

describe('policy kinds', () => {
  it('detects every kind of spec 3 §3', () => {
    expect(detectPolicyKind(ca('x'))).toBe('conditionalAccess');
    expect(detectPolicyKind({ '@odata.type': '#microsoft.graph.windows10CompliancePolicy' })).toBe(
      'intuneCompliance',
    );
    expect(detectPolicyKind({ settings: [], templateReference: {} })).toBe('intuneConfiguration');
    expect(detectPolicyKind({ authenticationMethodConfigurations: [] })).toBe(
      'authenticationMethods',
    );
    expect(detectPolicyKind({ templateId: 't', values: [] })).toBe('groupSettings');
    expect(detectPolicyKind({ EnableSafeLinksForEmail: true })).toBe('exchangeSafeLinks');
    expect(detectPolicyKind({ AllowFederatedUsers: true })).toBe('teamsSettings');
    expect(detectPolicyKind({ sharingCapability: 'x' })).toBe('sharepointSettings');
    expect(detectPolicyKind({ ServicePlan: 'x' })).toBe('exchangeOrganizationConfig');
    expect(detectPolicyKind({ guestUserRoleId: 'x' })).toBe('azureADAuthorizationPolicy');
    expect(detectPolicyKind({ Identity: 'Global', AllowFederatedUsers: true })).toBe('singleton');
    expect(detectPolicyKind({ foo: 1 })).toBe('generic');
  });
  it('singletons are never matched', () => {
    expect(isSingletonPolicy({ isSingleton: true })).toBe(true);
    expect(
      isSingletonPolicy({
        '@odata.type': '#microsoft.graph.identitySecurityDefaultsEnforcementPolicy',
      }),
    ).toBe(true);
  });
});

/** An Exchange Online PowerShell export: the settings plus the organisation envelope every export carries. */
const exo = (name: string, tenant: string, props: Record<string, unknown>) => ({
  ...props,
  Identity: name,
  Id: name,
  Name: name,
  AdminDisplayName: '',
  IsValid: true,
  ExchangeVersion: '0.20 (15.0.0.0)',
  DistinguishedName: `CN=${name},CN=Configuration,CN=${tenant}.onmicrosoft.com`,
  ExchangeObjectId: `${tenant}-${name}-guid`,
  OrganizationalUnitRoot: `${tenant}.onmicrosoft.com`,
  OrganizationId: `EURPR01A001.PROD.OUTLOOK.COM/Microsoft Exchange Hosted Organizations/${tenant}`,
  Guid: `${tenant}-${name}-guid`,
  WhenChanged: `/Date(${tenant.length})/`,
});
const safeAttachments = (name: string, tenant: string) =>
  exo(name, tenant, {
    Enable: true,
    Action: 'Block',
    QuarantineTag: 'AdminOnlyAccessPolicy',
    Redirect: false,
    RedirectAddress: '',
    ActionOnError: true,
    IsDefault: false,
  });
const safeAttachmentsRule = (name: string, tenant: string, policy: string) =>
  exo(name, tenant, {
    SafeAttachmentPolicy: policy,
    State: 'Enabled',
    Priority: 0,
    RecipientDomainIs: [`${tenant}.com`],
    ExceptIfSentTo: [],
  });
const safeLinksRule = (name: string, tenant: string, policy: string) =>
  exo(name, tenant, {
    SafeLinksPolicy: policy,
    State: 'Enabled',
    Priority: 0,
    RecipientDomainIs: [`${tenant}.com`],
    ExceptIfSentTo: [],
  });

describe('Exchange and Defender export kinds', () => {
  it('the organisation envelope every Exchange export carries does not make an organisation config', () => {
    expect(detectPolicyKind(safeAttachments('x', 'base'))).toBe('exchangeSafeAttachments');
    expect(detectPolicyKind(exo('Mystery', 'base', { Enabled: true }))).toBe('exchangeObject');
    expect(detectPolicyKind(exo('Org', 'base', { AuditDisabled: false }))).toBe(
      'exchangeOrganizationConfig',
    );
    expect(detectPolicyKind({ ServicePlan: 'x' })).toBe('exchangeOrganizationConfig');
    expect(
      detectPolicyKind({ OrganizationalUnitRoot: 'x', LegacyExchangeDN: '/o=ExchangeLabs' }),
    ).toBe('exchangeOrganizationConfig');
  });
  it('a rule (names its policy, has a priority or recipient condition) is a different kind from its policy', () => {
    const pairs: [Record<string, unknown>, Record<string, unknown>, string, string][] = [
      [
        { EnableSafeLinksForEmail: true },
        { SafeLinksPolicy: 'p', Priority: 0 },
        'exchangeSafeLinks',
        'exchangeSafeLinksRule',
      ],
      [
        { ActionOnError: true, Action: 'Block' },
        { SafeAttachmentPolicy: 'p', RecipientDomainIs: ['a.com'] },
        'exchangeSafeAttachments',
        'exchangeSafeAttachmentsRule',
      ],
      [
        { PhishThresholdLevel: 2 },
        { AntiPhishPolicy: 'p', Priority: 1 },
        'exchangeAntiPhish',
        'exchangeAntiPhishRule',
      ],
      [
        { BulkThreshold: 6, SpamAction: 'MoveToJmf' },
        { HostedContentFilterPolicy: 'p', Priority: 0, RecipientDomainIs: ['a.com'] },
        'exchangeHostedContentFilter',
        'exchangeHostedContentFilterRule',
      ],
      [
        { EnableFileFilter: true, FileTypes: ['exe'] },
        { MalwareFilterPolicy: 'p', Priority: 0 },
        'exchangeMalwareFilter',
        'exchangeMalwareFilterRule',
      ],
      [
        { AutoForwardingMode: 'Off' },
        { HostedOutboundSpamFilterPolicy: 'p', From: ['a@b.com'] },
        'exchangeHostedOutboundSpamFilter',
        'exchangeHostedOutboundSpamFilterRule',
      ],
    ];
    for (const [policy, rule, policyKind, ruleKind] of pairs) {
      expect(detectPolicyKind(exo('p', 'base', policy))).toBe(policyKind);
      expect(detectPolicyKind(exo('r', 'base', rule))).toBe(ruleKind);
    }
    expect(detectPolicyKind({ SafeAttachmentPolicy: 'a', SafeLinksPolicy: 'b', Priority: 0 })).toBe(
      'exchangeProtectionPolicyRule',
    );
  });
  it('tells the other exports apart by their settings', () => {
    expect(detectPolicyKind({ DomainName: '*', AutoForwardEnabled: false })).toBe(
      'exchangeRemoteDomain',
    );
    expect(
      detectPolicyKind({ Priority: 0, Mode: 'Enforce', SenderAddressLocation: 'Header' }),
    ).toBe('exchangeTransportRule');
    expect(detectPolicyKind({ WacExternalServicesEnabled: true, BlockedFileTypes: [] })).toBe(
      'exchangeOwaMailboxPolicy',
    );
    expect(detectPolicyKind({ SmtpClientAuthenticationDisabled: true })).toBe(
      'exchangeTransportConfig',
    );
    expect(detectPolicyKind({ EnableATPForSPOTeamsODB: true })).toBe('exchangeAtpPolicy');
  });
  it('the folder in the path names the kind when there is one (cmdlet noun, plural or EXO prefix)', () => {
    expect(policyKindFromPath('Defender/SafeAttachmentPolicy/Baseline Safe Attachments.json')).toBe(
      'exchangeSafeAttachments',
    );
    expect(
      policyKindFromPath('Defender/SafeAttachmentRule/Baseline Safe Attachments Rule.json'),
    ).toBe('exchangeSafeAttachmentsRule');
    expect(policyKindFromPath('Exchange\\TransportRules\\Block.json')).toBe(
      'exchangeTransportRule',
    );
    expect(policyKindFromPath('EXOSafeLinksPolicies/x.json')).toBe('exchangeSafeLinks');
    expect(policyKindFromPath('Exchange/OrganizationConfig/Organization Config.json')).toBe(
      'exchangeOrganizationConfig',
    );
    expect(policyKindFromPath('ConditionalAccess/Policy/CA000.json')).toBeUndefined();
    expect(policyKindFromPath('SafeLinksPolicy.json')).toBeUndefined();
    // the path decides an envelope-only export; singletons stay singletons
    const bare = exo('External In Outlook', 'base', { Enabled: true, AllowList: [] });
    expect(detectPolicyKind(bare)).toBe('exchangeObject');
    expect(detectPolicyKind(bare, undefined, 'Exchange/ExternalInOutlook/x.json')).toBe(
      'exchangeExternalInOutlook',
    );
    expect(
      detectPolicyKind({ Identity: 'Global' }, undefined, 'Exchange/OrganizationConfig/x.json'),
    ).toBe('singleton');
  });
});

describe('similarity', () => {
  it('display names: letters and digits only, lower case, edit-distance ratio × 100', () => {
    expect(displayNameSimilarity('CA-001 MFA', 'ca001mfa')).toBe(100);
    expect(displayNameSimilarity('abcde', 'abcdx')).toBe(80);
  });
  it('identical name, conditions, grant and session controls give 100', () => {
    expect(policySimilarity(ca('A'), ca('A', { state: 'disabled' })).score).toBe(100);
    expect(policySimilarity(ca('A'), ca('A', { state: 'disabled' })).stateMismatch).toBe(true);
  });
  it('display names that are objects are compared by what they hold, not as [object Object]', () => {
    const named = (text: string) => ca('A', { displayName: { 'en-GB': text } });
    const same = policySimilarity(
      named('Block legacy authentication'),
      named('Block legacy authentication'),
    );
    expect(same.score).toBe(100);
    const other = policySimilarity(
      named('Block legacy authentication'),
      named('Require MFA for admins'),
    );
    expect(other.score).toBeLessThan(100);
  });
  it('grant operators that are objects are compared by what they hold', () => {
    const grant = (operator: unknown) =>
      ca('A', { grantControls: { operator, builtInControls: ['mfa'] } });
    expect(policySimilarity(grant({ value: 'OR' }), grant({ value: 'OR' })).score).toBe(100);
    expect(policySimilarity(grant({ value: 'OR' }), grant({ value: 'AND' })).score).toBeLessThan(
      100,
    );
  });
  it("different kinds score 0 with 'Different policy types'", () => {
    const s = policySimilarity(ca('A'), { guestUserRoleId: 'x' });
    expect(s.score).toBe(0);
    expect(s.explanation).toBe('Different policy types');
  });
  it("a Safe Attachments policy and a Safe Attachments rule are 'Different policy types' (score 0)", () => {
    const policy = safeAttachments('Baseline Safe Attachments', 'base');
    const rule = safeAttachmentsRule('Baseline Safe Attachments Rule', 'fab', 'x');
    expect(policySimilarity(policy, rule)).toMatchObject({
      score: 0,
      explanation: 'Different policy types',
    });
    // and by their folders alone, even for exports that carry nothing but the envelope
    const bare = (name: string, tenant: string) => exo(name, tenant, {});
    expect(
      policySimilarity(
        bare('Baseline Safe Attachments', 'base'),
        bare('Baseline Safe Attachments Rule', 'fab'),
        {
          baselinePath: 'Defender/SafeAttachmentPolicy/Baseline Safe Attachments.json',
          clientPath: 'Defender/SafeAttachmentRule/Baseline Safe Attachments Rule.json',
        },
      ).score,
    ).toBe(0);
    // rules of different policies are different kinds too
    expect(
      policySimilarity(
        safeLinksRule('Links', 'base', 'L'),
        safeAttachmentsRule('Links', 'fab', 'L'),
      ).score,
    ).toBe(0);
  });
  it('a category with no field on either side is left out and the other weights renormalised', () => {
    expect(
      weightedScore([
        [0.5, 0],
        [0.3, undefined],
        [0.2, undefined],
      ]),
    ).toBe(0);
    expect(
      weightedScore([
        [0.4, 50],
        [0.4, undefined],
        [0.2, 100],
      ]),
    ).toBeCloseTo(66.667, 2);
    expect(weightedScore([[0.5, undefined]])).toBeUndefined();
    // Exchange organisation: only the critical category (AuditDisabled) is present, and it differs
    const org = (audit: boolean) => exo('Org', audit ? 'fab' : 'base', { AuditDisabled: audit });
    expect(policySimilarity(org(false), org(true)).score).toBe(0);
    expect(policySimilarity(org(false), org(false)).score).toBe(100);
    // Intune compliance: password settings only (half equal); no security or OS settings to count as equal
    const compliance = (length: number) => ({
      '@odata.type': '#microsoft.graph.windows10CompliancePolicy',
      displayName: 'W',
      passwordRequired: true,
      passwordMinimumLength: length,
    });
    expect(policySimilarity(compliance(8), compliance(12)).score).toBe(50);
    // Azure AD authorisation: absent listed fields are not compared
    expect(
      policySimilarity(
        { guestUserRoleId: 'a', defaultUserRolePermissions: { allowedToCreateApps: false } },
        { guestUserRoleId: 'b', defaultUserRolePermissions: { allowedToCreateApps: false } },
      ).score,
    ).toBe(57);
  });
  it('with nothing to compare the score is the display-name similarity, or 0 without names', () => {
    const bare = (name: string, tenant: string) => exo(name, tenant, {});
    expect(policySimilarity(bare('Mail Filter', 'base'), bare('Mail Filter', 'fab')).score).toBe(
      100,
    );
    expect(policySimilarity(bare('abcde', 'base'), bare('abcdx', 'fab')).score).toBe(80);
    expect(policySimilarity({ OrganizationId: 'a' }, { OrganizationId: 'b' }).score).toBe(0);
  });
  it('bands at their edges (59/60, 74/75, 89/90)', () => {
    expect(matchQuality(90)).toBe('excellent');
    expect(matchQuality(89)).toBe('good');
    expect(matchQuality(75)).toBe('good');
    expect(matchQuality(60)).toBe('fair');
    expect(matchQuality(59)).toBe('poor');
    expect(explanationBand(70)).toBe('partial');
    expect(explanationBand(69)).toBe('differ significantly');
    expect(displayNameBand(100)).toBe('Exact name match');
    expect(displayNameBand(80)).toBe('Very similar names');
    expect(displayNameBand(60)).toBe('Somewhat similar names');
  });
});

describe('matching and accepted deviations on compliance data', () => {
  const baseline = [
    { path: 'ConditionalAccess/Policy/a.json', content: ca('CA001 MFA all users') },
  ];
  const client = [
    { path: 'ConditionalAccess/Policy/b.json', content: ca('CA-001 MFA all-users', { id: 'c1' }) },
  ];
  const data = evaluateCompliance(baseline, client);
  it('an unmatched missing policy gets suggestions at 60 or more, best first; auto-match at 90', () => {
    const unmatched = findUnmatchedPolicies(data);
    expect(unmatched).toHaveLength(1);
    expect(unmatched[0]?.suggestions[0]?.score).toBeGreaterThanOrEqual(90);
    expect(autoMatches(unmatched)).toHaveLength(1);
  });
  it('a matched baseline policy is compared with its client policy instead of counting as missing', () => {
    const matches = autoMatches(findUnmatchedPolicies(data));
    const applied = applyMatches(data, matches);
    expect(applied.matchingApplied).toBe(true);
    expect(applied.matchesAppliedCount).toBe(1);
    expect(applied.clientOnlyPolicies).toHaveLength(0);
    expect(applied.deviations[0]?.matchStatus).toBe('matched');
    expect(applied.deviations[0]?.deviations.map((d) => d.property)).toEqual(['displayName']);
    const accepted = applyAcceptedDeviations(
      applied,
      acceptDeviations(emptyAcceptedDeviations('ABC'), {
        path: 'ConditionalAccess/Policy/a.json',
        policyName: 'x',
        category: 'ConditionalAccess',
        properties: ['displayName'],
      }),
    );
    expect(accepted.compliancePercentage).toBe(100);
    expect(accepted.acceptedDeviationsApplied).toBe(true);
    expect(accepted.acceptedDeviationsCount).toBe(1);
  });
  it('a missing Safe Attachments policy gets no suggestion at 90 or more from a rule; its renamed copy wins', () => {
    const baselineFiles = [
      {
        path: 'Defender/SafeAttachmentPolicy/Baseline Safe Attachments.json',
        content: safeAttachments('Baseline Safe Attachments', 'base'),
      },
      {
        path: 'Defender/SafeAttachmentRule/Baseline Safe Attachments Rule.json',
        content: safeAttachmentsRule(
          'Baseline Safe Attachments Rule',
          'base',
          'Baseline Safe Attachments',
        ),
      },
      {
        path: 'Defender/SafeLinksRule/Baseline Safe Links Rule.json',
        content: safeLinksRule('Baseline Safe Links Rule', 'base', 'Baseline Safe Links'),
      },
    ];
    const rules = baselineFiles.slice(1).map((f) => ({
      ...f,
      content: { ...f.content, ...exo(f.content.Name, 'fab', {}), RecipientDomainIs: ['fab.com'] },
    }));
    const fab = evaluateCompliance(baselineFiles, rules);
    const missing = 'Defender/SafeAttachmentPolicy/Baseline Safe Attachments.json';
    expect(fab.deviations.find((g) => g.path === missing)?.changeType).toBe('missing');
    const unmatched = findUnmatchedPolicies(fab);
    const best = unmatched.find((u) => u.path === missing)?.suggestions[0]?.score ?? 0;
    expect(best).toBeLessThan(90);
    expect(autoMatches(unmatched)).toEqual([]);

    const renamed = {
      path: 'Defender/SafeAttachmentPolicy/Fabrikam Safe Attachments.json',
      content: safeAttachments('Fabrikam Safe Attachments', 'fab'),
    };
    const withCopy = findUnmatchedPolicies(evaluateCompliance(baselineFiles, [...rules, renamed]));
    const suggestions = withCopy.find((u) => u.path === missing)?.suggestions ?? [];
    expect(suggestions.map((x) => [x.clientName, x.score])).toEqual([
      ['Fabrikam Safe Attachments', 100],
    ]);
    expect(autoMatches(withCopy).map((m) => m.clientName)).toEqual(['Fabrikam Safe Attachments']);
  });
  it('accepting on a path replaces an earlier entry for that path (earlier properties in force carried, ADR 028)', () => {
    let cfg = emptyAcceptedDeviations('ABC');
    cfg = acceptDeviations(cfg, { path: 'p', policyName: 'n', category: 'c', properties: ['a'] });
    cfg = acceptDeviations(cfg, { path: 'p', policyName: 'n', category: 'c', properties: ['b'] });
    expect(cfg.acceptedDeviations).toHaveLength(1);
    expect(cfg.acceptedDeviations[0]?.properties).toEqual(['b', 'a']);
    expect(cfg.acceptedDeviations[0]?.acceptedBy).toBe('user');
  });
  it('de-duplicates matches by baselineId, or baselineName plus clientId', () => {
    const m = {
      baselineName: 'A',
      clientName: 'B',
      clientId: 'c',
      score: 90,
      scores: { conditions: 0, grantControls: 0, sessionControls: 0 },
      confirmedAt: '',
    };
    expect(dedupeMatches([m, { ...m }]).removed).toBe(1);
    expect(
      dedupeMatches([
        { ...m, baselineId: '1' },
        { ...m, baselineId: '1', baselineName: 'Z' },
      ]).removed,
    ).toBe(1);
    expect(cleanupMessage(2)).toBe('✅ Removed 2 duplicate matches!');
    expect(cleanupMessage(0)).toBe('ℹ️ No duplicates found.');
  });
});

describe('severity schemes', () => {
  it('by property name', () => {
    expect(severityByPropertyName('passwordMinimumLength')).toBe('critical');
    expect(severityByPropertyName('ZapEnabled')).toBe('high');
    expect(severityByPropertyName('configValue')).toBe('medium');
    expect(severityByPropertyName('displayName')).toBe('low');
  });
  it('capture review by path, highest wins, order critical…prerequisite', () => {
    expect(captureReviewSeverity('state')).toBe('critical');
    expect(captureReviewSeverity('conditions.x')).toBe('high');
    expect(captureReviewSeverity('sessionControls.x')).toBe('medium');
    expect(captureReviewSeverity('displayName')).toBe('low');
    expect(highestSeverity(['low', 'prerequisite', 'medium'])).toBe('medium');
  });
});

describe('scores and formatting', () => {
  it('compliance percentage of spec 3 §5', () => {
    expect(baselineCompliancePercentage(0, 0, 0)).toBe(0);
    expect(baselineCompliancePercentage(0, 2, 2)).toBe(100);
    expect(baselineCompliancePercentage(2, 4, 1)).toBe(67);
  });
  it('ticks at 90/70 and bands at 80/50; 0 is a full red bar', () => {
    expect(passRateIcon(90)).toBe('tick');
    expect(passRateIcon(89)).toBe('warning');
    expect(passRateIcon(70)).toBe('warning');
    expect(passRateIcon(69)).toBe('cross');
    expect(complianceBand(80).band).toBe('excellent');
    expect(complianceBand(79).band).toBe('moderate');
    expect(complianceBand(49).band).toBe('poor');
    expect(complianceBand(0)).toEqual({ band: 'poor', colour: 'red', barWidth: 100 });
    expect(scoreDescription(75)).toBe('Good compliance with some deviations to review.');
  });
  it('truncates at 50 characters (47 plus ...), Missing and Empty', () => {
    expect(truncate('x'.repeat(50))).toHaveLength(50);
    expect(truncate('x'.repeat(51))).toBe(`${'x'.repeat(47)}...`);
    expect(displayValue(undefined)).toBe('Missing');
    expect(displayValue('')).toBe('Empty');
  });
  it('array display', () => {
    expect(displayArray([])).toBe('None');
    expect(displayArray(['a', 'b', 'c'])).toBe('a, b, c');
    expect(displayArray(['a', 'b', 'c', 'd'])).toBe('a, b +2 more');
  });
});

describe('drift', () => {
  it('property changes with old and new values; reviewable items are unique paths', () => {
    expect(propertyChanges({ a: 1, b: 2 }, { a: 2, c: 3 })).toEqual([
      { property: 'a', oldValue: 1, newValue: 2, changeType: 'modified' },
      { property: 'b', oldValue: 2, newValue: undefined, changeType: 'removed' },
      { property: 'c', oldValue: undefined, newValue: 3, changeType: 'added' },
    ]);
    expect(
      reviewableItems([{ item: { path: 'a' } }, { item: { path: 'b' } }], [{ path: 'a' }]),
    ).toEqual(['a', 'b']);
  });
});
