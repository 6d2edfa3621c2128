import { REASON_PHRASES } from '../errors';
import { ContractSchema } from '../fields/contract-schema.decorator';
import { EnumField, IntField, TextField } from '../fields/field.decorators';

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
