import type { AppTableEntityDto } from '@aegis/contracts';
import { APP_TABLE_MESSAGES, emptyNewAppForm } from '@aegis/domain';
import { describe, expect, it } from 'vitest';

import {
  chosenApp,
  initialUpdateTableState,
  shownNewAppForm,
  updateProblem,
  updateTableReducer,
  type UpdateTableAction,
  type UpdateTableState,
} from './update-table-flow';

const run = (...actions: UpdateTableAction[]): UpdateTableState =>
  actions.reduce(updateTableReducer, initialUpdateTableState);

const row = (rowKey: string, extra: Partial<AppTableEntityDto> = {}): AppTableEntityDto => ({
  PartitionKey: 'Apps',
  RowKey: rowKey,
  ...extra,
});

describe('updateTableReducer', () => {
  it('starts each update type empty and forgets the type when the table changes', () => {
    const selected = run(
      { type: 'chooseTable', table: 'ABCWorkstationApps' },
      { type: 'chooseType', updateType: 'delete' },
      { type: 'select', selected: new Set(['0001']) },
    );
    expect(selected.contents).toEqual({ type: 'delete', selected: new Set(['0001']) });

    const otherType = updateTableReducer(selected, { type: 'chooseType', updateType: 'existing' });
    expect(otherType.contents).toEqual({ type: 'existing', selected: new Set() });

    const otherTable = updateTableReducer(selected, {
      type: 'chooseTable',
      table: 'XYZWorkstationApps',
    });
    expect(otherTable).toEqual({ table: 'XYZWorkstationApps', contents: { type: '' } });
  });

  it('offers no update type before a table is chosen', () => {
    expect(run({ type: 'chooseType', updateType: 'new' })).toBe(initialUpdateTableState);
  });

  it('leaves the state as it is for an action of another type', () => {
    const property = run(
      { type: 'chooseTable', table: 'ABCWorkstationApps' },
      { type: 'chooseType', updateType: 'newProperty' },
    );
    expect(updateTableReducer(property, { type: 'select', selected: new Set(['1']) })).toBe(
      property,
    );
    expect(updateTableReducer(property, { type: 'chooseApp', appKey: 'Apps/0001' })).toBe(property);

    const deletion = run(
      { type: 'chooseTable', table: 'ABCWorkstationApps' },
      { type: 'chooseType', updateType: 'deleteProperty' },
    );
    // a property deletion has a name but no value
    expect(updateTableReducer(deletion, { type: 'editProperty', value: 'x' })).toBe(deletion);
    expect(updateTableReducer(deletion, { type: 'editProperty', name: 'Vendor' }).contents).toEqual(
      { type: 'deleteProperty', name: 'Vendor' },
    );
  });

  it('keeps what was typed of a new property when the other field changes', () => {
    const state = run(
      { type: 'chooseTable', table: 'ABCWorkstationApps' },
      { type: 'chooseType', updateType: 'newProperty' },
      { type: 'editProperty', name: 'Ring' },
      { type: 'editProperty', value: '2' },
    );
    expect(state.contents).toEqual({ type: 'newProperty', name: 'Ring', value: '2' });
  });

  it('drops an edited app when another app is chosen', () => {
    const state = run(
      { type: 'chooseTable', table: 'ABCWorkstationApps' },
      { type: 'chooseType', updateType: 'update' },
      { type: 'chooseApp', appKey: 'Apps/0001' },
      { type: 'editApp', edits: { AppName: 'Edited' } },
      { type: 'chooseApp', appKey: 'Apps/0002' },
    );
    expect(state.contents).toEqual({ type: 'update', appKey: 'Apps/0002', edits: undefined });
  });

  it('clears a copy or a new property only when every row went through', () => {
    const copying = run(
      { type: 'chooseTable', table: 'ABCWorkstationApps' },
      { type: 'chooseType', updateType: 'existing' },
      { type: 'select', selected: new Set(['0001', '0002']) },
    );
    const answer = {
      type: 'answered',
      table: 'ABCWorkstationApps',
      updateType: 'existing',
    } as const;
    expect(updateTableReducer(copying, { ...answer, complete: false })).toBe(copying);
    expect(updateTableReducer(copying, { ...answer, complete: true }).contents).toEqual({
      type: 'existing',
      selected: new Set(),
    });

    const property = run(
      { type: 'chooseTable', table: 'ABCWorkstationApps' },
      { type: 'chooseType', updateType: 'newProperty' },
      { type: 'editProperty', name: 'Ring', value: '2' },
    );
    const propertyAnswer = { ...answer, updateType: 'newProperty' } as const;
    expect(updateTableReducer(property, { ...propertyAnswer, complete: false })).toBe(property);
    expect(updateTableReducer(property, { ...propertyAnswer, complete: true }).contents).toEqual({
      type: 'newProperty',
      name: '',
      value: '',
    });
  });

  it('starts a delete over and keeps the chosen app after an update, whatever the answer', () => {
    const deleting = run(
      { type: 'chooseTable', table: 'ABCWorkstationApps' },
      { type: 'chooseType', updateType: 'delete' },
      { type: 'select', selected: new Set(['0001']) },
      { type: 'answered', table: 'ABCWorkstationApps', updateType: 'delete', complete: false },
    );
    expect(deleting.contents).toEqual({ type: 'delete', selected: new Set() });

    const updating = run(
      { type: 'chooseTable', table: 'ABCWorkstationApps' },
      { type: 'chooseType', updateType: 'update' },
      { type: 'chooseApp', appKey: 'Apps/0001' },
      { type: 'editApp', edits: { AppName: 'Edited' } },
      { type: 'answered', table: 'ABCWorkstationApps', updateType: 'update', complete: false },
    );
    expect(updating.contents).toEqual({ type: 'update', appKey: 'Apps/0001', edits: undefined });
  });

  it('lets a late answer for another table or type leave the current contents alone', () => {
    const state = run(
      { type: 'chooseTable', table: 'XYZWorkstationApps' },
      { type: 'chooseType', updateType: 'existing' },
      { type: 'select', selected: new Set(['0003']) },
    );
    expect(
      updateTableReducer(state, {
        type: 'answered',
        table: 'ABCWorkstationApps',
        updateType: 'existing',
        complete: true,
      }),
    ).toBe(state);
    expect(
      updateTableReducer(state, {
        type: 'answered',
        table: 'XYZWorkstationApps',
        updateType: 'delete',
        complete: true,
      }),
    ).toBe(state);
  });
});

describe('what the update screen shows', () => {
  it('numbers the empty new-app form only once the rows are known', () => {
    const contents = { type: 'new', form: undefined } as const;
    expect(shownNewAppForm(contents, undefined, true)).toBeUndefined();
    expect(shownNewAppForm(contents, [row('0007'), row('0002')], false)?.RowKey).toBe('0008');
    const typed = { ...emptyNewAppForm('0003'), AppName: 'Typed' };
    expect(shownNewAppForm({ type: 'new', form: typed }, [row('0007')], false)).toBe(typed);
  });

  it('finds the chosen app by partition and row key', () => {
    const rows = [row('0001', { PartitionKey: 'Other' }), row('0001')];
    expect(chosenApp({ type: 'update', appKey: 'Apps/0001', edits: undefined }, rows)).toBe(
      rows[1],
    );
  });

  it('names what stops each request, and nothing once it is given', () => {
    const none = { form: undefined, app: undefined };
    expect(updateProblem({ type: 'delete', selected: new Set() }, none)).toBe(
      APP_TABLE_MESSAGES.selectApplication,
    );
    expect(updateProblem({ type: 'newProperty', name: 'Ring', value: '  ' }, none)).toBe(
      APP_TABLE_MESSAGES.fillProperty,
    );
    expect(updateProblem({ type: 'deleteProperty', name: 'rowkey' }, none)).toBe(
      APP_TABLE_MESSAGES.protectedProperty('rowkey'),
    );
    expect(updateProblem({ type: 'deleteProperty', name: 'Vendor' }, none)).toBeUndefined();
    const update = { type: 'update', appKey: 'Apps/0009', edits: undefined } as const;
    expect(updateProblem(update, none)).toBe(APP_TABLE_MESSAGES.selectAppToUpdate);
    expect(updateProblem(update, { form: undefined, app: row('0009') })).toBeUndefined();
    const form = emptyNewAppForm('0001');
    expect(updateProblem({ type: 'new', form: undefined }, { form, app: undefined })).toBe(
      APP_TABLE_MESSAGES.fillRequired,
    );
  });
});
