import { describe, expect, it } from 'vitest';

import {
  isClientPipelineFolder,
  matchesProjectSearch,
  PROJECT_ICON_NAMES,
  projectFromSelfLink,
  projectIconFor,
  shortProjectId,
  stripFolder,
} from './pipelines';

describe('pipeline folder rule', () => {
  it('strips the leading backslash', () => {
    expect(stripFolder('\\ABC')).toBe('ABC');
    expect(stripFolder(undefined)).toBe('');
  });
  it.each([
    ['\\ABC', true],
    ['ABC', true],
    ['\\AB', false],
    ['\\ABCD', false],
    ['\\', false],
    ['\\Tenants', false],
  ])('folder %j shown: %s', (folder, shown) => {
    expect(isClientPipelineFolder(folder)).toBe(shown);
  });
});

describe('project from self link', () => {
  it('is the 5th path segment', () => {
    expect(
      projectFromSelfLink(
        'https://dev.azure.com/contoso/Client%20Ops/_apis/pipelines/12?revision=3',
      ),
    ).toBe('Client Ops');
    expect(projectFromSelfLink('http://localhost:3102/aegis-msp/6f1a/_apis/pipelines/1')).toBe(
      '6f1a',
    );
  });
  it('is undefined for a malformed link', () => {
    expect(projectFromSelfLink('not a url')).toBeUndefined();
  });
});

describe('project cards', () => {
  it('shows the first 8 characters of the id and an ellipsis', () => {
    expect(shortProjectId('6ce954b1-ce1f-45d1-b94d-e6bf2464ba2c')).toBe('6ce954b1...');
  });
  it('picks one of 8 icons by first letter, the same for either case', () => {
    expect(PROJECT_ICON_NAMES).toHaveLength(8);
    expect(projectIconFor('alpha')).toBe(projectIconFor('Apple'));
    expect(projectIconFor('A')).not.toBe(projectIconFor('B'));
    expect(projectIconFor('')).toBe('folder');
  });
  it('searches name or id case-insensitively', () => {
    const project = { id: '6CE954B1-aaaa', name: 'Client Operations' };
    expect(matchesProjectSearch(project, 'client OPS'.slice(0, 6))).toBe(true);
    expect(matchesProjectSearch(project, '6ce954')).toBe(true);
    expect(matchesProjectSearch(project, 'zzz')).toBe(false);
    expect(matchesProjectSearch(project, '  ')).toBe(true);
  });
});
