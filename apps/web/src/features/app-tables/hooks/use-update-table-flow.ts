import type { TableOperationResponse } from '@aegis/contracts';
import { GENERAL_APPS_TABLE, missingRequiredFields, type AppField } from '@aegis/domain';
import { useIsMutating } from '@tanstack/react-query';
import { useReducer } from 'react';

import { APP_TABLE_CHANGE, useTableRows } from '../api/app-tables';
import { failureMessage, operationMessage } from '../components/result-message';
import { useTableAlert } from '../components/use-table-alert';

import {
  chosenApp,
  editableProperties,
  initialUpdateTableState,
  shownNewAppForm,
  updateProblem,
  updateTableReducer,
  type UpdateType,
} from './update-table-flow';

/**
 * The Update Existing App Deploy Table flow: its state (`updateTableReducer`), the rows it shows,
 * the one message bar, and `submit`, which each panel calls with its own request.
 */
export function useUpdateTableFlow() {
  const [state, dispatch] = useReducer(updateTableReducer, initialUpdateTableState);
  const { table, contents } = state;
  const general = useTableRows(contents.type === 'existing' ? GENERAL_APPS_TABLE : undefined);
  const rows = useTableRows(
    table && contents.type && contents.type !== 'existing' ? table : undefined,
  );
  const tableRows = rows.data?.rows ?? [];
  const form = shownNewAppForm(contents, rows.data?.rows, rows.isPending);
  const app = chosenApp(contents, tableRows);
  const appValues =
    contents.type === 'update' ? (contents.edits ?? (app && editableProperties(app))) : undefined;
  const problem = (type: UpdateType) => () =>
    contents.type === type ? updateProblem(contents, { form, app }) : undefined;
  const alert = useTableAlert<UpdateType>({
    existing: problem('existing'),
    new: problem('new'),
    newProperty: problem('newProperty'),
    delete: problem('delete'),
    deleteProperty: problem('deleteProperty'),
    update: problem('update'),
  });
  // a change to a table may still be answering after the technician moved on to another type
  const busy = useIsMutating({ mutationKey: APP_TABLE_CHANGE }) > 0;

  /**
   * Sends a panel's request once its check passes (`send` undefined: nothing to send), shows the
   * answer in the message bar and lets the reducer clear what went through.
   */
  async function submit(
    updateType: UpdateType,
    send: (() => Promise<TableOperationResponse>) | undefined,
    errorText: (details: string) => string,
  ) {
    if (!alert.passes(updateType) || !send) return;
    try {
      const result = await send();
      dispatch({ type: 'answered', table, updateType, complete: result.failed.length === 0 });
      alert.show(operationMessage(result, errorText));
    } catch (error) {
      alert.show(failureMessage(error, errorText));
    }
  }

  return {
    table,
    contents,
    dispatch,
    chooseTable(next: string) {
      dispatch({ type: 'chooseTable', table: next });
      alert.clear();
    },
    chooseType(next: UpdateType | '') {
      dispatch({ type: 'chooseType', updateType: next });
      alert.clear();
    },
    general,
    rows,
    tableRows,
    form,
    app,
    appValues,
    // empty required fields are highlighted while the 'fill in' alert stands
    highlight: new Set<AppField>(
      alert.failing === 'new' && form ? missingRequiredFields(form) : [],
    ),
    message: alert.message,
    busy,
    submit,
  };
}

export type UpdateTableFlow = ReturnType<typeof useUpdateTableFlow>;
