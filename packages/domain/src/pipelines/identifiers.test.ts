import { describe, expect, it } from 'vitest';

import { isProjectId, parseNumericId, projectIdProblem } from './identifiers';

describe('project ids', () => {
  it.each([
    'Tenant Management',
    'Aegis',
    'Client-App_Deployments 2',
    '6ce954b1-ce1f-45d1-b94d-e6bf2464ba2c',
    'Ünïcode Projekt',
  ])('accepts %j', (value) => expect(isProjectId(value)).toBe(true));

  it.each([
    ['', 'must be a project GUID or name'],
    ['..', 'must not start or end with a period'],
    ['.', 'must not start or end with a period'],
    ['a/b', 'must not contain'],
    ['..\\x', 'must not contain'],
    ['a?b', 'must not contain'],
    ['a#b', 'must not contain'],
    ['_hidden', 'must not start with _'],
    ['x'.repeat(65), 'at most 64'],
    ['tab\there', 'control characters'],
    ['COM1', 'reserved'],
    ['nul', 'reserved'],
    [' padded', 'space'],
  ])('refuses %j', (value, problem) => expect(projectIdProblem(value)).toContain(problem));
});

describe('numeric ids', () => {
  it.each([
    ['1', 1],
    ['55', 55],
    ['2147483647', 2147483647],
  ])('reads %j as %d', (value, id) => expect(parseNumericId(value)).toBe(id));

  it.each(['1e3', '0x10', '+1', ' 1', '1 ', '-1', '0', '01', '1.0', '2147483648', '', 'Infinity'])(
    'refuses %j',
    (value) => expect(parseNumericId(value)).toBeUndefined(),
  );
});
