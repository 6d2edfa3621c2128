import { ContractSchema } from '../fields/contract-schema.decorator';
import { EnumField, NestedField, TextField } from '../fields/field.decorators';

@ContractSchema({ name: 'HealthCheck' })
export class HealthCheck {
  @EnumField(['up', 'down']) status!: 'up' | 'down';
  @TextField({ optional: true, description: 'Why it is down.' }) message?: string;
}

@ContractSchema({ name: 'HealthDetails' })
export class HealthDetails {
  @NestedField(HealthCheck) postgres!: HealthCheck;
  @NestedField(HealthCheck) redis!: HealthCheck;
  @NestedField(HealthCheck) rabbitmq!: HealthCheck;
}

/** `GET /health` (outside `/api/v1`, no key): the gateway and its dependencies. */
@ContractSchema({
  name: 'Health',
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
})
export class Health {
  @EnumField(['ok', 'degraded', 'error'], {
    description:
      '`ok`; `degraded` (200) when only Redis is down and limits are not applied; `error` ' +
      '(503) when Postgres or RabbitMQ is down.',
  })
  status!: 'ok' | 'degraded' | 'error';

  @NestedField(HealthDetails) details!: HealthDetails;
}
