import { assertIfMatch } from '@custodian/messaging';
import {
  CATEGORY_PAGE_SIZE_DEFAULT,
  CATEGORY_PAGE_SIZE_MAX,
  DomainError,
  callerActivity,
  type ActivityChange,
  type CallerContext,
  type Category,
  type CategoryListQuery,
  type CreateCategoryInput,
  type Page,
  type UpdateCategoryInput,
} from '@custodian/contracts';
import { ActivityLog, newId } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { pageParams } from '../listing/page-params';
import { ReadTransactions } from '../requests/read-transactions';
import { conflictsOf } from '../sql/constraint-errors';
import { WriteTransactions } from '../requests/write-transactions';
import { categoryNamed, categoryPage, findCategoryRow, toCategory } from './category.store';

/**
 * Categories: a flat list of names that assets refer to by id. A rename shows on every asset at
 * once (they join the name; the list's rows version is bumped by a trigger on the name, so no
 * cached list bytes keep the old one). No event of the catalog is about a category, and a
 * rename does not fire `asset.updated` for each of its assets; the feed records it.
 */
@Injectable()
export class CategoriesService {
  constructor(
    private readonly reads: ReadTransactions,
    private readonly writes: WriteTransactions,
    private readonly activity: ActivityLog,
  ) {}

  get(caller: CallerContext, id: string): Promise<Category> {
    return this.reads.run(async (db) =>
      toCategory(await findCategoryRow(db, caller.workspaceId, id)),
    );
  }

  list(caller: CallerContext, query: CategoryListQuery): Promise<Page<Category>> {
    const { page, pageSize } = pageParams(
      query,
      CATEGORY_PAGE_SIZE_DEFAULT,
      CATEGORY_PAGE_SIZE_MAX,
    );
    const search = query.search?.trim() || null;
    return this.reads.heavy(async (db) => {
      const { rows, total } = await categoryPage(db, caller.workspaceId, search, page, pageSize);
      return { data: rows.map(toCategory), page, pageSize, total };
    });
  }

  create(caller: CallerContext, input: CreateCategoryInput): Promise<Category> {
    const workspaceId = caller.workspaceId;
    const name = input.name.trim();
    return this.named(name, () =>
      this.writes.run(workspaceId, async (tx) => {
        await assertNameFree(tx, workspaceId, name, null);
        const id = newId('cat');
        await tx.query(
          `INSERT INTO register.categories (id, workspace_id, name) VALUES ($1, $2, $3)`,
          [id, workspaceId, name],
        );
        const category = toCategory(await findCategoryRow(tx, workspaceId, id));
        await this.record(tx, caller, category, 'created', [
          { field: 'name', from: null, to: category.name },
        ]);
        return category;
      }),
    );
  }

  /** `ifMatch`: the client's If-Match, checked against the category under its row lock. */
  update(
    caller: CallerContext,
    id: string,
    input: UpdateCategoryInput,
    ifMatch?: readonly string[],
  ): Promise<Category> {
    const workspaceId = caller.workspaceId;
    const name = input.name?.trim();
    return this.named(name ?? '', () =>
      this.writes.run(workspaceId, async (tx) => {
        const current = await findCategoryRow(tx, workspaceId, id, true);
        assertIfMatch(ifMatch, toCategory(current), `Category ${id}`);
        if (name === undefined || name === current.name) return toCategory(current);
        await assertNameFree(tx, workspaceId, name, id);
        await tx.query(
          `UPDATE register.categories SET name = $3, updated_at = now()
            WHERE id = $1 AND workspace_id = $2`,
          [id, workspaceId, name],
        );
        const category = toCategory(await findCategoryRow(tx, workspaceId, id));
        await this.record(tx, caller, category, 'updated', [
          { field: 'name', from: current.name, to: category.name },
        ]);
        return category;
      }),
    );
  }

  /**
   * DELETE /categories/{id}: only an unused one goes; the answer says how many assets use it.
   * Assets in the bin keep the id in their stored row and come back without it (asset-bin.ts).
   */
  delete(caller: CallerContext, id: string, ifMatch?: readonly string[]): Promise<Category> {
    const workspaceId = caller.workspaceId;
    // An asset given the category between the count and the delete: still used, so it stays.
    return conflictsOf(
      () =>
        this.writes.run(workspaceId, async (tx) => {
          const row = await findCategoryRow(tx, workspaceId, id, true);
          assertIfMatch(ifMatch, toCategory(row), `Category ${id}`);
          if (row.asset_count > 0) {
            throw new DomainError(
              'conflict',
              `Category ${row.name} (${id}) has ${row.asset_count} ` +
                `${row.asset_count === 1 ? 'asset' : 'assets'}; give them another category first`,
            );
          }
          await tx.query(`DELETE FROM register.categories WHERE id = $1 AND workspace_id = $2`, [
            id,
            workspaceId,
          ]);
          const category = toCategory(row);
          await this.record(tx, caller, category, 'deleted', []);
          return category;
        }),
      { foreignKey: `Category ${id} was just given to an asset; give it another category first` },
    );
  }

  /** Runs a write that names a category; the index answers a race the check did not see. */
  private named<T>(name: string, write: () => Promise<T>): Promise<T> {
    return conflictsOf(write, { unique: `name: a category called ${name} already exists` });
  }

  private record(
    tx: EntityManager,
    caller: CallerContext,
    category: Category,
    action: 'created' | 'updated' | 'deleted',
    changes: ActivityChange[],
  ): Promise<void> {
    return this.activity.record(tx, caller.workspaceId, {
      ...callerActivity(caller),
      recordType: 'category',
      recordId: category.id,
      recordName: category.name,
      action,
      changes,
    });
  }
}

async function assertNameFree(
  tx: EntityManager,
  workspaceId: string,
  name: string,
  self: string | null,
): Promise<void> {
  const taken = await categoryNamed(tx, workspaceId, name);
  if (taken !== null && taken !== self) {
    throw new DomainError('conflict', `name: a category called ${name} already exists (${taken})`);
  }
}
