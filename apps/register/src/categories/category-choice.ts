import { DomainError } from '@custodian/contracts';
import { queryRows, type Queryable } from '@custodian/persistence';
import { resolveNamedRef } from '../sql/named-refs';

/** What an asset write says of its category: a name, an id, or neither. */
export interface CategoryChoice {
  category?: string | null;
  category_id?: string | null;
}

/**
 * The category id a write asks for; undefined when it says nothing, null when it clears it.
 * `category_id` must be one of the workspace's (else 400 naming the field); `category` by name
 * finds or creates one, as v1 always did. Both at once are refused: one field says which.
 */
export async function chooseCategory(
  db: Queryable,
  workspaceId: string,
  input: CategoryChoice,
): Promise<string | null | undefined> {
  if (input.category !== undefined && input.category_id !== undefined) {
    throw new DomainError(
      'invalid_input',
      'category and category_id: send one of them (category_id, or category by name)',
    );
  }
  if (input.category_id !== undefined) {
    if (input.category_id === null) return null;
    const [row] = await queryRows<{ id: string }>(
      db,
      `SELECT id FROM register.categories WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, input.category_id],
    );
    if (!row) {
      throw new DomainError(
        'invalid_input',
        `category_id: ${input.category_id} is not a category of this workspace`,
      );
    }
    return row.id;
  }
  if (input.category === undefined) return undefined;
  if (input.category === null) return null;
  return resolveNamedRef(db, 'categories', workspaceId, input.category);
}
