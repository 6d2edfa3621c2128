import { Type } from '@sinclair/typebox';
import { REASON_PHRASES } from '../errors';
import { StringEnum } from './common';

/** The error body of every failed response (spec 2.5). */
export const ErrorSchema = Type.Object(
  {
    statusCode: Type.Integer({
      minimum: 400,
      maximum: 599,
      description: 'The HTTP status code of the response.',
    }),
    error: StringEnum([...new Set(Object.values(REASON_PHRASES))], {
      description: 'The HTTP reason phrase of the status.',
    }),
    message: Type.String({
      description:
        'What went wrong, for a person: names the failing field, or the limit and the plan.',
    }),
  },
  {
    additionalProperties: false,
    title: 'Error',
    description:
      'The body of every error response (4xx and 5xx), including unknown routes, malformed ' +
      'JSON and bodies over 1 MiB.',
    examples: [
      {
        statusCode: 403,
        error: 'Forbidden',
        message: 'Asset limit of 5000 reached on the pro plan',
      },
    ],
  },
);
