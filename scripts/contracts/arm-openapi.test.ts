import { describe, expect, it } from 'vitest';

import { extractOperations, type ArmSpecFile } from './arm-openapi';

/** A small file shaped like Microsoft's ARM OpenAPI files. */
function file(version: string, path = '/{scope}/providers/Microsoft.X/things/{name}'): ArmSpecFile {
  return {
    path: `specification/x/stable/${version}/x.json`,
    commit: `commit-${version}`,
    document: {
      swagger: '2.0',
      info: { version },
      paths: {
        [path]: {
          put: {
            operationId: 'Things_Create',
            parameters: [{ $ref: '#/parameters/ThingParameters' }, { $ref: '../common.json#/x' }],
            responses: { '201': {}, default: {} },
            'x-ms-long-running-operation': true,
          },
          get: {
            operationId: 'Things_List',
            parameters: [],
            responses: { '200': {} },
            'x-ms-pageable': { nextLinkName: null },
          },
        },
      },
      definitions: {
        Thing: {
          allOf: [{ $ref: '#/definitions/Base' }],
          properties: { properties: { $ref: '#/definitions/ThingProperties' } },
          required: ['properties'],
        },
        Base: { properties: { location: { type: 'string' } }, required: ['location'] },
        ThingProperties: { properties: { size: {} }, required: ['size'] },
      },
      parameters: {
        ThingParameters: {
          name: 'parameters',
          in: 'body',
          schema: { $ref: '#/definitions/Thing' },
        },
      },
    },
  };
}

describe('extractOperations', () => {
  it('reads path, method, required body (through allOf and nested schemas), LRO, statuses', () => {
    const [create, list] = extractOperations(
      [file('2023-01-01')],
      ['Things_Create', 'Things_List'],
    );
    expect(create).toMatchObject({
      method: 'PUT',
      path: '/{scope}/providers/Microsoft.X/things/{name}',
      apiVersions: ['2023-01-01'],
      requiredBody: ['location', 'properties', 'properties.size'],
      successStatuses: [201],
      longRunning: true,
    });
    expect(list).toMatchObject({
      method: 'GET',
      pageable: { nextLinkName: null },
      longRunning: false,
    });
  });

  it('gathers the api-versions of every file defining the operation, with their sources', () => {
    const [create] = extractOperations([file('2024-01-01'), file('2023-01-01')], ['Things_Create']);
    expect(create?.apiVersions).toEqual(['2023-01-01', '2024-01-01']);
    expect(create?.sources.map((s) => s.commit)).toEqual([
      'commit-2024-01-01',
      'commit-2023-01-01',
    ]);
  });

  it('fails on an operation no file defines, or one whose path differs between versions', () => {
    expect(() => extractOperations([file('2023-01-01')], ['Things_Delete'])).toThrow(
      /No specification file defines Things_Delete/,
    );
    const moved = file('2024-01-01', '/subscriptions/{subscriptionId}/things/{name}');
    expect(() => extractOperations([file('2023-01-01'), moved], ['Things_Create'])).toThrow(
      /differs/,
    );
  });
});
