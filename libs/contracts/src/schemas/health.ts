import { Type } from '@sinclair/typebox';
import { StringEnum } from './common';

const CheckSchema = Type.Object(
  {
    status: StringEnum(['up', 'down'] as const),
    message: Type.Optional(Type.String({ description: 'Why it is down.' })),
  },
  { additionalProperties: false },
);

/** `GET /health` (outside `/api/v1`, no key): the gateway and its dependencies. */
export const HealthSchema = Type.Object(
  {
    status: StringEnum(['ok', 'degraded', 'error'] as const, {
      description:
        '`ok`; `degraded` (200) when only Redis is down and limits are not applied; `error` ' +
        '(503) when Postgres or RabbitMQ is down.',
    }),
    details: Type.Object(
      { postgres: CheckSchema, redis: CheckSchema, rabbitmq: CheckSchema },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    title: 'Health',
    description:
      'The body of `GET /health` (200 or 503; served without the `/api/v1` prefix and without a key).',
    examples: [
      {
        status: 'degraded',
        details: {
          postgres: { status: 'up' },
          redis: { status: 'down', message: 'not connected' },
          rabbitmq: { status: 'up' },
        },
      },
    ],
  },
);
