import { assertIfMatch } from '@custodian/messaging';
import {
  DomainError,
  LOCATION_DEPTH_MAX,
  LOCATION_PAGE_SIZE_DEFAULT,
  LOCATION_PAGE_SIZE_MAX,
  callerActivity,
  type ActivityChange,
  type CallerContext,
  type CreateLocationInput,
  type Location,
  type LocationListQuery,
  type Page,
  type UpdateLocationInput,
} from '@custodian/contracts';
import { ActivityLog, newId } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { pageParams } from '../listing/page-params';
import { ReadTransactions } from '../requests/read-transactions';
import { conflictsOf } from '../sql/constraint-errors';
import { WriteTransactions } from '../requests/write-transactions';
import { subtreeIds } from './location-tree';
import {
  findLocationRow,
  heightUnder,
  locationPage,
  siblingNamed,
  toLocation,
  type LocationRow,
} from './location.store';

/**
 * Locations: a tree of places (a building, its floors, their rooms) that assets and people
 * refer to. No event of the catalog is about a place; every change is in the activity feed.
 *
 * The tree's shape changes (create under a parent, move, delete) take one lock per workspace
 * (an advisory lock), so two moves cannot each pass the cycle check and together make a loop,
 * nor a child be created under a place being deleted. Renames and address changes only lock
 * their row.
 */
@Injectable()
export class LocationsService {
  constructor(
    private readonly reads: ReadTransactions,
    private readonly writes: WriteTransactions,
    private readonly activity: ActivityLog,
  ) {}

  get(caller: CallerContext, id: string): Promise<Location> {
    return this.reads.run(async (db) =>
      toLocation(await findLocationRow(db, caller.workspaceId, id)),
    );
  }

  list(caller: CallerContext, query: LocationListQuery): Promise<Page<Location>> {
    const { page, pageSize } = pageParams(
      query,
      LOCATION_PAGE_SIZE_DEFAULT,
      LOCATION_PAGE_SIZE_MAX,
    );
    const search = query.search?.trim();
    return this.reads.heavy(async (db) => {
      const { rows, total } = await locationPage(
        db,
        caller.workspaceId,
        {
          ...(query.parent_id ? { parentId: query.parent_id } : {}),
          ...(search ? { search } : {}),
        },
        page,
        pageSize,
      );
      return { data: rows.map(toLocation), page, pageSize, total };
    });
  }

  create(caller: CallerContext, input: CreateLocationInput): Promise<Location> {
    const workspaceId = caller.workspaceId;
    const name = input.name.trim();
    return this.named(name, () =>
      this.writes.run(workspaceId, async (tx) => {
        await lockTree(tx, workspaceId);
        const parent = input.parent_id
          ? await findLocationRow(tx, workspaceId, input.parent_id, { field: 'parent_id' })
          : null;
        if (parent && parent.depth + 1 >= LOCATION_DEPTH_MAX) {
          throw tooDeep(parent.depth + 2);
        }
        await assertNameFree(tx, workspaceId, parent, name, null);
        const id = newId('loc');
        await tx.query(
          `INSERT INTO register.locations (id, workspace_id, name, parent_id, address, notes)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [id, workspaceId, name, parent?.id ?? null, input.address ?? null, input.notes ?? null],
        );
        const location = toLocation(await findLocationRow(tx, workspaceId, id));
        await this.record(tx, caller, location, 'created', locationChanges(null, location));
        return location;
      }),
    );
  }

  /** `ifMatch`: the client's If-Match, checked against the place under its row lock. */
  update(
    caller: CallerContext,
    id: string,
    input: UpdateLocationInput,
    ifMatch?: readonly string[],
  ): Promise<Location> {
    const workspaceId = caller.workspaceId;
    const name = input.name?.trim();
    return this.named(name ?? '', () =>
      this.writes.run(workspaceId, async (tx) => {
        const moving = input.parent_id !== undefined;
        if (moving) await lockTree(tx, workspaceId);
        const current = await findLocationRow(tx, workspaceId, id, { forUpdate: true });
        // Before any rule: a change meant for another version of the place is not looked at.
        assertIfMatch(ifMatch, toLocation(current), `Location ${id}`);
        let parent: LocationRow | null =
          current.parent_id === null
            ? null
            : await findLocationRow(tx, workspaceId, current.parent_id);
        if (moving && (input.parent_id ?? null) !== current.parent_id) {
          parent = await this.newParent(tx, workspaceId, current, input.parent_id ?? null);
        }
        if (name !== undefined || moving) {
          await assertNameFree(tx, workspaceId, parent, name ?? current.name, current.id);
        }
        const sets: string[] = [];
        const params: unknown[] = [id, workspaceId];
        const set = (column: string, value: unknown) => {
          params.push(value);
          sets.push(`${column} = $${params.length}`);
        };
        if (name !== undefined && name !== current.name) set('name', name);
        if (moving && (parent?.id ?? null) !== current.parent_id)
          set('parent_id', parent?.id ?? null);
        if (input.address !== undefined && input.address !== current.address) {
          set('address', input.address);
        }
        if (input.notes !== undefined && input.notes !== current.notes) set('notes', input.notes);
        const before = toLocation(current);
        if (sets.length === 0) return before;
        await tx.query(
          `UPDATE register.locations SET ${sets.join(', ')}, updated_at = now()
            WHERE id = $1 AND workspace_id = $2`,
          params,
        );
        const location = toLocation(await findLocationRow(tx, workspaceId, id));
        await this.record(tx, caller, location, 'updated', locationChanges(before, location));
        return location;
      }),
    );
  }

  /**
   * DELETE /locations/{id}: only an empty place goes (no asset, person or place in it); the
   * answer says how many are, so the caller knows what to move first. Assets in the bin keep
   * the id in their stored row and come back without a location (asset-bin.ts).
   */
  delete(caller: CallerContext, id: string, ifMatch?: readonly string[]): Promise<Location> {
    const workspaceId = caller.workspaceId;
    // An asset or person written between the count and the delete, by a write that does not
    // take the tree's lock: still referenced, so it stays.
    return conflictsOf(
      () =>
        this.writes.run(workspaceId, async (tx) => {
          await lockTree(tx, workspaceId);
          const row = await findLocationRow(tx, workspaceId, id, { forUpdate: true });
          assertIfMatch(ifMatch, toLocation(row), `Location ${id}`);
          const held = [
            counted(row.asset_count, 'asset'),
            counted(row.people_count, 'person', 'people'),
            counted(row.children_count, 'place'),
          ].filter(Boolean);
          if (held.length > 0) {
            throw new DomainError(
              'conflict',
              `Location ${row.name} (${id}) holds ${listed(held)}; move them elsewhere first`,
            );
          }
          await tx.query(`DELETE FROM register.locations WHERE id = $1 AND workspace_id = $2`, [
            id,
            workspaceId,
          ]);
          const location = toLocation(row);
          await this.record(tx, caller, location, 'deleted', []);
          return location;
        }),
      {
        foreignKey: `Location ${id} was just given an asset or a person; move them elsewhere first`,
      },
    );
  }

  /** The parent a move goes to: one of the workspace's, not the place or one under it. */
  private async newParent(
    tx: EntityManager,
    workspaceId: string,
    current: LocationRow,
    parentId: string | null,
  ): Promise<LocationRow | null> {
    if (parentId === null) return null;
    const parent = await findLocationRow(tx, workspaceId, parentId, { field: 'parent_id' });
    if ((await subtreeIds(tx, workspaceId, current.id)).includes(parent.id)) {
      throw new DomainError(
        'invalid_input',
        parent.id === current.id
          ? `parent_id: a place cannot be in itself (${current.name})`
          : `parent_id: ${parent.name} (${parent.id}) is under ${current.name}; a place cannot ` +
              'move into one of its own places',
      );
    }
    const levels = parent.depth + 2 + (await heightUnder(tx, workspaceId, current.id));
    if (levels > LOCATION_DEPTH_MAX) throw tooDeep(levels);
    return parent;
  }

  /** Runs a write that names a place; the index answers a race the check did not see. */
  private named<T>(name: string, write: () => Promise<T>): Promise<T> {
    return conflictsOf(write, { unique: `name: a place called ${name} is already there` });
  }

  private record(
    tx: EntityManager,
    caller: CallerContext,
    location: Location,
    action: 'created' | 'updated' | 'deleted',
    changes: ActivityChange[],
  ): Promise<void> {
    return this.activity.record(tx, caller.workspaceId, {
      ...callerActivity(caller),
      recordType: 'location',
      recordId: location.id,
      recordName: location.name,
      action,
      relatedId: location.parent?.id ?? null,
      relatedName: location.parent?.name ?? null,
      changes,
    });
  }
}

/** One lock per workspace for the tree's shape (see the class). */
async function lockTree(tx: EntityManager, workspaceId: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
    `locations:${workspaceId}`,
  ]);
}

async function assertNameFree(
  tx: EntityManager,
  workspaceId: string,
  parent: LocationRow | null,
  name: string,
  self: string | null,
): Promise<void> {
  const taken = await siblingNamed(tx, workspaceId, parent?.id ?? null, name);
  if (taken !== null && taken !== self) {
    throw new DomainError(
      'conflict',
      `name: a place called ${name} is already ${parent ? `in ${parent.name}` : 'at the top level'}` +
        ` (${taken})`,
    );
  }
}

function tooDeep(levels: number): DomainError {
  return new DomainError(
    'invalid_input',
    `parent_id: the tree would be ${levels} levels deep; it may be at most ${LOCATION_DEPTH_MAX}`,
  );
}

function counted(count: number, one: string, many = `${one}s`): string | null {
  return count === 0 ? null : `${count} ${count === 1 ? one : many}`;
}

function listed(parts: (string | null)[]): string {
  const items = parts.filter((part): part is string => part !== null);
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The feed's changes between two views of a place. */
function locationChanges(before: Location | null, after: Location): ActivityChange[] {
  const fields: Array<[string, string | null, string | null]> = [
    ['name', before?.name ?? null, after.name],
    ['parent', before?.parent?.name ?? null, after.parent?.name ?? null],
    ['address', before?.address ?? null, after.address],
    ['notes', before?.notes ?? null, after.notes],
  ];
  return fields
    .filter(([, from, to]) => from !== to)
    .map(([field, from, to]) => ({ field, from, to }));
}
