import { describeSchemaDrift, findSchemaDrift } from '@custodian/testing';
import { migrateGateway } from '../migrate';
import { GATEWAY_SCHEMA, gatewayDataSource } from './data-source';

/**
 * The entities are the row types of this app's SQL; its migrations make the schema. On a fresh
 * database migrated from scratch, they must agree: otherwise the report names what differs
 * and the SQL TypeORM would run to make the schema match the entities.
 */
it('the entities describe the schema the migrations create', async () => {
  const drift = await findSchemaDrift({
    schema: GATEWAY_SCHEMA,
    migrate: migrateGateway,
    open: (url) => gatewayDataSource(url, 2),
  });
  expect(describeSchemaDrift(drift)).toBe('');
}, 60_000);
