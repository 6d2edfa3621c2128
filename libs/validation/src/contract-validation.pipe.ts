import {
  CLIENT_BODY,
  CallerMessage,
  DomainError,
  type AcceptsInPlainCode,
} from '@custodian/contracts';
import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { describeErrors, findUnstorableText } from './validation';

/**
 * Nest's ValidationPipe, set up the way every Custodian consumer checks what it receives: an
 * HTTP body in the gateway, a message on any RPC queue. Unknown fields are refused by name,
 * nothing is converted implicitly, and the error is a DomainError('invalid_input') whose message
 * names each field as the client wrote it (`unknown field colour; name must be a string`).
 *
 * Before the class is applied it refuses what Postgres or class-transformer cannot take (U+0000,
 * lone surrogates, `__proto__`-style keys) and a body that is not a JSON object. A message on
 * the register's API queue carries the client's JSON as `body`: it gets the same checks, and
 * its fields are named relative to it.
 */
export class ContractValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      validationError: { target: false, value: false },
      transformOptions: { enableImplicitConversion: false },
      exceptionFactory: (errors) =>
        new DomainError('invalid_input', describeErrors(errors, '', CLIENT_BODY)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype } = metadata;
    if (metatype && Object.hasOwn(metatype, 'accepts')) {
      if ((metatype as unknown as AcceptsInPlainCode).accepts(value)) return value;
    }
    if (metatype && this.toValidate(metadata)) {
      if (metatype.prototype instanceof CallerMessage || metatype === CallerMessage) {
        if (isObject(value) && CLIENT_BODY in value)
          assertStorable(value[CLIENT_BODY], CLIENT_BODY);
      } else {
        assertStorable(value, metadata.type === 'body' ? 'body' : 'payload');
      }
    }
    return (await super.transform(value, metadata)) as unknown;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function assertStorable(value: unknown, what: string): void {
  if (!isObject(value)) throw new DomainError('invalid_input', `${what} must be a JSON object`);
  const problem = findUnstorableText(value, '');
  if (problem !== null) {
    throw new DomainError('invalid_input', `${problem.path || what} ${problem.reason}`);
  }
}
