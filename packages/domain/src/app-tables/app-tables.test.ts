import { describe, expect, it } from 'vitest';

import { InputError } from '../errors';

import { copyAppsToTable } from './copy-apps';
import {
  deletablePropertyNames,
  isPropertyName,
  isProtectedKey,
  viewerColumns,
} from './properties';
import { compareCellValues, sortRows, toggleSort } from './sort';
import {
  clientAppsTableName,
  clientCodeOfTable,
  filterTablesByPrefix,
  isTableName,
  parseTableName,
} from './table-names';

describe('table names', () => {
  it("makes '{ClientCode}WorkstationApps'", () => {
    expect(clientAppsTableName('ABC')).toBe('ABCWorkstationApps');
    expect(clientCodeOfTable('ABCWorkstationApps')).toBe('ABC');
    expect(clientCodeOfTable('GENWorkstationApps')).toBe('GEN');
    expect(clientCodeOfTable('Other')).toBeUndefined();
  });

  it('validates Azure table names', () => {
    expect(isTableName('ABCWorkstationApps')).toBe(true);
    expect(isTableName('ab')).toBe(false);
    expect(isTableName('1abc')).toBe(false);
    expect(isTableName('abc-def')).toBe(false);
    expect(isTableName('Tables')).toBe(false);
    expect(() => parseTableName('a b', 'tableName')).toThrow(InputError);
  });

  it('finds tables by prefix, ignoring case', () => {
    const names = ['ABCWorkstationApps', 'abdWorkstationApps', 'GENWorkstationApps', 'XABC'];
    expect(filterTablesByPrefix(names, 'ab')).toEqual(['ABCWorkstationApps', 'abdWorkstationApps']);
    expect(filterTablesByPrefix(names, 'ABC')).toEqual(['ABCWorkstationApps']);
    expect(filterTablesByPrefix(names, '')).toEqual(names);
    expect(filterTablesByPrefix(names, 'workstation')).toEqual([]);
  });
});

describe('sorting', () => {
  it('compares numbers by value and strings naturally, ignoring case', () => {
    expect(compareCellValues(9, 10)).toBeLessThan(0);
    expect(compareCellValues('9', '10')).toBeLessThan(0);
    expect(compareCellValues('v2', 'v10')).toBeLessThan(0);
    expect(compareCellValues('apple', 'Banana')).toBeLessThan(0);
    expect(compareCellValues('b', 'A')).toBeGreaterThan(0);
  });

  it('sorts rows ascending and descending, blanks last', () => {
    const rows = [{ v: '10' }, { v: '' }, { v: '9' }, { v: '100' }];
    expect(sortRows(rows, 'v', 'ascending').map((r) => r.v)).toEqual(['9', '10', '100', '']);
    expect(sortRows(rows, 'v', 'descending').map((r) => r.v)).toEqual(['100', '10', '9', '']);
  });

  it('toggles a header between ascending and descending', () => {
    const first = toggleSort(undefined, 'AppName');
    expect(first).toEqual({ column: 'AppName', direction: 'ascending' });
    expect(toggleSort(first, 'AppName').direction).toBe('descending');
    expect(toggleSort(toggleSort(first, 'AppName'), 'AppName').direction).toBe('ascending');
    expect(toggleSort(first, 'Version')).toEqual({ column: 'Version', direction: 'ascending' });
  });
});

describe('properties', () => {
  it('protects PartitionKey, RowKey, timestamp and etag', () => {
    for (const key of [
      'PartitionKey',
      'RowKey',
      'timestamp',
      'etag',
      'partitionKey',
      'Timestamp',
    ]) {
      expect(isProtectedKey(key)).toBe(true);
    }
    expect(isProtectedKey('AppName')).toBe(false);
    const rows = [
      { PartitionKey: 'p', RowKey: '0001', timestamp: 't', etag: 'e', AppName: 'a' },
      { PartitionKey: 'p', RowKey: '0002', Extra: 'x' },
    ];
    expect(deletablePropertyNames(rows)).toEqual(['AppName', 'Extra']);
    expect(viewerColumns(rows)).toEqual([
      'Status',
      'AppName',
      'PartitionKey',
      'RowKey',
      'Extra',
      'timestamp',
    ]);
  });

  it('validates property names', () => {
    expect(isPropertyName('Detection')).toBe(true);
    expect(isPropertyName('has space')).toBe(false);
    expect(isPropertyName('1x')).toBe(false);
    expect(isPropertyName('RowKey')).toBe(false);
  });
});

describe('copying apps', () => {
  it('gives fresh RowKeys after the target and drops service metadata', () => {
    const selected = [
      { PartitionKey: 'appinfo-pk1', RowKey: '0005', timestamp: 't', etag: 'e', AppName: '7-Zip' },
      { PartitionKey: 'appinfo-pk1', RowKey: '0006', AppName: 'VLC' },
    ];
    const copies = copyAppsToTable(selected, [{ PartitionKey: 'appinfo-pk1', RowKey: '0002' }]);
    expect(copies).toEqual([
      { PartitionKey: 'appinfo-pk1', RowKey: '0003', AppName: '7-Zip' },
      { PartitionKey: 'appinfo-pk1', RowKey: '0004', AppName: 'VLC' },
    ]);
  });
});
