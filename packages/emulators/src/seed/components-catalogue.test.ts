// The component catalogues (domain, spec 2 §3) point into the company baseline: every path a
// deploy or off-board component names is a file, or a folder holding files, of the seeded baseline.
import { BASELINE_COMPONENTS, OFFBOARD_COMPONENTS } from '@aegis/domain';
import { describe, expect, it } from 'vitest';

import { generateSampleConfigRepo } from './sample-config';

const files = [...generateSampleConfigRepo().keys()];
const exists = (path: string) => files.some((f) => f === path || f.startsWith(`${path}/`));

describe('component catalogue paths', () => {
  it('every deploy component path exists in the seeded baseline', () => {
    const paths = Object.values(BASELINE_COMPONENTS).flatMap((c) => c.paths);
    expect(paths.length).toBeGreaterThan(60);
    expect(paths.filter((p) => !exists(p))).toEqual([]);
  });

  it('every off-board component path exists in the seeded baseline', () => {
    const paths = Object.values(OFFBOARD_COMPONENTS).flatMap((c) => c.paths);
    expect(paths.filter((p) => !exists(p))).toEqual([]);
  });

  it('a path that is not in the baseline is found missing', () => {
    expect(exists('M365Config/Resources/Intune/NoSuchKind')).toBe(false);
  });
});
