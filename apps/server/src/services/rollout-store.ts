import type { SharedRows } from '@aegis/connectors/tables';
import {
  ConflictError,
  NotFoundError,
  rolloutReducer,
  type AppTableEntity,
  type RolloutEvent,
  type RolloutState,
} from '@aegis/domain';

/** The partition of the shared rows that holds one row per rollout. */
const PARTITION = 'rollout';

const keysOf = (id: string) => ({ partitionKey: PARTITION, rowKey: id });

function stateOf(id: string, row: AppTableEntity | undefined): RolloutState {
  if (typeof row?.State !== 'string') throw new NotFoundError(`Rollout ${id} not found`);
  return JSON.parse(row.State) as RolloutState;
}

/**
 * Rollouts in Table storage (issue 30 §3, ADR 069): one shared row per rollout holding its state,
 * changed only through the domain's reducer and a conditional write. Two instances that apply
 * events to one rollout at once each decide on the latest row, so a tenant's deploy is claimed
 * once and a ring is never advanced twice; the state outlives any server.
 */
export class RolloutStore {
  constructor(private readonly rows: SharedRows) {}

  /** Records a new rollout; ConflictError when its id is taken. */
  async create(state: RolloutState): Promise<RolloutState> {
    return this.rows.update(keysOf(state.id), (current) => {
      if (current) throw new ConflictError(`Rollout ${state.id} already exists`);
      return { write: { State: JSON.stringify(state) }, result: state };
    });
  }

  /** The rollout as every instance sees it; NotFoundError when there is none. */
  async get(id: string): Promise<RolloutState> {
    return stateOf(id, await this.rows.read(keysOf(id)));
  }

  /** Every rollout, newest first. */
  async list(): Promise<RolloutState[]> {
    const rows = await this.rows.list(PARTITION);
    return rows
      .map((row) => stateOf(row.RowKey, row))
      .sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
  }

  /** The rollout with its row's etag: the version a person's decision names (ADR 087). */
  async read(id: string): Promise<{ state: RolloutState; etag: string | undefined }> {
    const row = await this.rows.read(keysOf(id));
    return { state: stateOf(id, row), etag: row?.etag };
  }

  /**
   * The rollout after the event, written only if nobody changed it since it was read. With
   * `ifEtag`, the event is a person's answer to the rollout as they saw it: ConflictError when the
   * row is no longer at that version, rather than applying it to a rollout they have not seen.
   */
  async apply(id: string, event: RolloutEvent, ifEtag?: string): Promise<RolloutState> {
    return this.rows.update(keysOf(id), (current) => {
      if (ifEtag !== undefined && current && current.etag !== ifEtag) {
        throw new ConflictError(
          `Rollout ${id} changed since you read it: read it again, then decide.`,
        );
      }
      const next = rolloutReducer(stateOf(id, current), event);
      return { write: { State: JSON.stringify(next) }, result: next };
    });
  }
}
