import { DomainError } from '@custodian/contracts';
import { isForeignKeyViolation, isUniqueViolation } from '@custodian/persistence';

/**
 * Runs a write whose checks a concurrent write may slip past, and answers what the database's
 * constraint then caught as the 409 the check would have given: a name taken between the check
 * and the insert (`unique`), a row referenced between the count and the delete (`foreignKey`).
 */
export async function conflictsOf<T>(
  write: () => Promise<T>,
  messages: { unique?: string; foreignKey?: string },
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (messages.unique !== undefined && isUniqueViolation(error)) {
      throw new DomainError('conflict', messages.unique);
    }
    if (messages.foreignKey !== undefined && isForeignKeyViolation(error)) {
      throw new DomainError('conflict', messages.foreignKey);
    }
    throw error;
  }
}
