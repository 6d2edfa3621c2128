import { DomainError } from '@custodian/contracts';

/**
 * The DomainError `work` rejects with. Fails (with what happened instead) when it resolves or
 * rejects with anything else, so a test asserting on a refusal cannot pass by accident.
 */
export async function domainRejection(work: Promise<unknown>): Promise<DomainError> {
  let outcome: unknown;
  try {
    outcome = await work;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw new Error(`expected a DomainError, got ${String(error)}`, { cause: error });
  }
  throw new Error(`expected a DomainError, but it resolved with ${JSON.stringify(outcome)}`);
}
