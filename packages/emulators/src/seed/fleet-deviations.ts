// Generated fleets of deviating settings (issue 32 item 5, ADR 090): what the fleet's deviation
// index holds for many clients, without computing their summaries. Shaped on the fleet bench's
// generated client (500 baseline policies, 99 of them deviating on 874 settings): most of a
// fleet's drift is shared (the same baseline, the same vendors' defaults), the rest each client's.
import type { FleetDeviation, Severity } from '@aegis/domain';

interface GeneratedClientDeviations {
  client: string;
  clientTreeId: string;
  computedAt: number;
  deviations: FleetDeviation[];
}

interface FleetDeviationsShape {
  clients: number;
  policies: number;
  /** policies each client deviates on */
  deviatingPolicies: number;
  /** of those, the share that is the client's own (the others every client shares) */
  ownShare: number;
  /** settings deviating per deviating policy */
  settingsPerPolicy: number;
}

/** The fleet bench's generated client, over 1,000 clients. */
export const THOUSAND_CLIENTS: FleetDeviationsShape = {
  clients: 1_000,
  policies: 500,
  deviatingPolicies: 99,
  ownShare: 1 / 3,
  settingsPerPolicy: 9,
};

const FOLDERS = [
  ['ConditionalAccess', 'ConditionalAccess/Policy'],
  ['Intune', 'Intune/DeviceConfiguration'],
  ['Exchange', 'Defender/AntiPhishPolicy'],
] as const;
const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low'];

/** A small seeded generator (mulberry32): the same fleet on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function setting(policy: number, n: number): FleetDeviation {
  const [category, folder] = FOLDERS[policy % FOLDERS.length] ?? FOLDERS[0];
  return {
    path: `${folder}/policy-${policy}.json`,
    policyName: `Baseline - ${category} - Settings ${policy}`,
    category,
    // one policy missing from the client deviates once, with no property
    property: n < 0 ? '' : `settings[id=${policy * 31 + n}].value`,
    severity: SEVERITIES[(policy + n + 4) % SEVERITIES.length] ?? 'low',
  };
}

/** Client codes RAA, RAB, … as the fleet bench names its clients. */
const codeOf = (i: number) => {
  const letter = (n: number) => String.fromCharCode(65 + (n % 26));
  return `${String.fromCharCode(82 + Math.floor(i / 676))}${letter(Math.floor(i / 26))}${letter(i)}`;
};

/** Every client's deviations, each with a tree id of its own, as a fleet of this shape has them. */
export function generateFleetDeviations(
  shape: FleetDeviationsShape,
  seed = 32,
): GeneratedClientDeviations[] {
  const random = seeded(seed);
  const pick = () => Math.floor(random() * shape.policies);
  const own = Math.round(shape.deviatingPolicies * shape.ownShare);
  const shared = new Set<number>();
  while (shared.size < shape.deviatingPolicies - own) shared.add(pick());
  return Array.from({ length: shape.clients }, (_, i) => {
    const policies = new Set(shared);
    while (policies.size < shape.deviatingPolicies) policies.add(pick());
    const deviations = [...policies].flatMap((policy) =>
      // about one policy in ten is missing from the client altogether
      random() < 0.1
        ? [setting(policy, -1)]
        : Array.from({ length: shape.settingsPerPolicy }, (_, n) =>
            setting(policy, n * 4 + Math.floor(random() * 4)),
          ),
    );
    const clientTreeId = Array.from({ length: 40 }, () =>
      Math.floor(random() * 16).toString(16),
    ).join('');
    return { client: codeOf(i), clientTreeId, computedAt: 1_764_300_000_000 + i, deviations };
  });
}
