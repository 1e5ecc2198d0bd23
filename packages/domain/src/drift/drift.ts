import { diffDocuments } from '../comparison/diff-documents';
import { createPropertyFilter } from '../comparison/exclusions';

/** A property-level change between two versions of a policy file (spec 3 §3). */
export interface DriftPropertyChange {
  property: string;
  oldValue: unknown;
  newValue: unknown;
  changeType: 'added' | 'removed' | 'modified';
}

/**
 * Property changes between the previous and current version of a policy (e.g. main vs capture branch), with
 * the same exclusions and array rules as the comparison. Absent values are `undefined`.
 */
export function propertyChanges(
  previous: unknown,
  current: unknown,
  excludedProperties: readonly string[] = [],
): DriftPropertyChange[] {
  const out: DriftPropertyChange[] = [];
  diffDocuments(
    previous,
    current,
    { filter: createPropertyFilter(excludedProperties), emitEqual: false },
    (property, kind, oldValue, newValue) => {
      const changeType =
        kind === 'added' || kind === 'itemAdded'
          ? 'added'
          : kind === 'modified'
            ? 'modified'
            : 'removed';
      out.push({ property, oldValue, newValue, changeType });
    },
  );
  return out;
}

/**
 * Reviewable items (spec 3 §4): the unique paths across drift changes and compliance deviations.
 */
export function reviewableItems(
  driftChanges: readonly { item: { path: string } }[],
  deviations: readonly { path: string }[],
): string[] {
  return [...new Set([...driftChanges.map((c) => c.item.path), ...deviations.map((d) => d.path)])];
}

/** Review progress text: 'N of M policies reviewed (P%)'. */
export function reviewProgressText(reviewed: number, total: number): string {
  const pct = total === 0 ? 0 : Math.round((reviewed / total) * 100);
  return `${reviewed} of ${total} policies reviewed (${pct}%)`;
}
