import { describe, expect, it } from 'vitest';

import { policyKindFolder } from './paths';

describe('policyKindFolder', () => {
  it('names the folders between the category and the file, which tell same-named policies apart', () => {
    expect(policyKindFolder('Exchange/RemoteDomain/Default.json')).toBe('RemoteDomain');
    expect(policyKindFolder('Exchange/HostedOutboundSpamFilterPolicy/Default.json')).toBe(
      'HostedOutboundSpamFilterPolicy',
    );
    expect(
      policyKindFolder('Clients/ABC/M365Config/Resources/Intune/Compliance/Windows/Default.json'),
    ).toBe('Compliance/Windows');
    expect(policyKindFolder('Exchange/Default.json')).toBe('');
  });
});
