import { DomainError } from '@custodian/contracts';
import type { EntityManager } from 'typeorm';
import type { PersonEntity } from '../people/person.entity';

export interface Holder {
  id: string;
  name: string;
}

/**
 * The person an asset is checked out to: of the caller's workspace and active. Another
 * workspace's person is a 400 (the id is not one the caller can use), never a 404.
 */
export async function checkoutTarget(
  tx: EntityManager,
  workspaceId: string,
  personId: string,
): Promise<Holder> {
  const rows = await tx.query<Array<Pick<PersonEntity, 'id' | 'full_name' | 'status'>>>(
    `SELECT id, full_name, status FROM register.people
     WHERE id = $1 AND workspace_id = $2 FOR SHARE`,
    [personId, workspaceId],
  );
  const person = rows[0];
  if (!person) {
    throw new DomainError(
      'invalid_input',
      `assigned_to_id ${personId} is not a person of this workspace`,
    );
  }
  if (person.status !== 'active') {
    throw new DomainError(
      'invalid_input',
      `assigned_to_id ${personId} is inactive; assets are checked out to active people only`,
    );
  }
  return { id: person.id, name: person.full_name };
}
