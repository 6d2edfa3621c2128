import type { DomainError } from '@custodian/contracts';
import type { AccessRecord } from './access-record';

/**
 * What admission decided about one request: the headers the answer carries whatever happens
 * next, and either the caller's access record or the refusal to answer with.
 */
export type Admission =
  | { headers: Record<string, string>; record: AccessRecord; refusal?: undefined }
  | { headers: Record<string, string>; refusal: DomainError; record?: undefined };

/**
 * What AccessHook asks of the limits about a request that presents an API key (`readKey`
 * throws for a missing or malformed one). limits/admission.service.ts implements it and
 * RateLimitsModule provides it under this class; declared here so that the front door
 * imports nothing from the limits and keys it is wired to (app.module.ts passes that module
 * to AccessModule.admittingWith).
 */
export abstract class KeyAdmission {
  abstract admitKey(
    readKey: () => string,
    address: string,
    countsTowardQuota: boolean,
  ): Promise<Admission>;
}
