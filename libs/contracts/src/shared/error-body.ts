import { ContractSchema } from '../fields/contract-schema.decorator';
import { EnumField, IntField, TextField } from '../fields/field.decorators';
import { REASON_PHRASES, reasonPhrase, statusForCode, type DomainErrorCode } from './errors';

/** The error body of every failed response (spec 2.5). */
@ContractSchema({
  name: 'Error',
  description:
    'The body of every error response (4xx and 5xx), including unknown routes, malformed ' +
    'JSON and bodies over 1 MiB.',
  examples: [
    { statusCode: 403, error: 'Forbidden', message: 'Asset limit of 5000 reached on the pro plan' },
  ],
})
export class ErrorBody {
  @IntField({ min: 400, max: 599, description: 'The HTTP status code of the response.' })
  statusCode!: number;

  @EnumField([...new Set(Object.values(REASON_PHRASES))], {
    description: 'The HTTP reason phrase of the status.',
  })
  error!: string;

  @TextField({
    description:
      'What went wrong, for a person: names the failing field, or the limit and the plan.',
  })
  message!: string;
}

export function errorBody(status: number, message: string): ErrorBody {
  return { statusCode: status, error: reasonPhrase(status), message };
}

export function errorBodyForCode(code: DomainErrorCode, message: string): ErrorBody {
  return errorBody(statusForCode(code), message);
}
