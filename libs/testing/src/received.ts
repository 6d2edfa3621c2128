import { ContractValidationPipe } from '@custodian/validation';

const pipe = new ContractValidationPipe();

/** A body as a client may send it: the input's fields, any values (the pipe is under test too). */
export type ClientBody<T> = Partial<Record<keyof T, unknown>>;

/**
 * A client's JSON body as a service receives it in production: through the consumer's
 * validation pipe, as an instance of its input class, or the pipe's invalid_input error.
 */
export async function received<T extends object>(type: new () => T, body: unknown): Promise<T> {
  return (await pipe.transform(body, { type: 'body', metatype: type })) as T;
}
