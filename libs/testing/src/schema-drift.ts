import type { DataSource } from 'typeorm';
import { createMigratedDatabase } from './migrated-database';
import { createTestDatabase } from './test-database';

export interface SchemaDriftOptions {
  /** The app's schema: `register`. */
  schema: string;
  /** Runs the app's own migrations into the database at `url`. */
  migrate: (url: string) => Promise<unknown>;
  /** The app's data source (entities registered) on the database at `url`. */
  open: (url: string) => DataSource;
}

/** What separates an app's migrations from its entities; every list empty when they agree. */
export interface SchemaDrift {
  schema: string;
  /** What TypeORM's schema builder would run on the migrated schema to match the entities. */
  typeormSql: string[];
  /** Tables the migrations create that no entity maps (TypeORM never looks at those). */
  unmappedTables: string[];
  /** Indexes the entities declare with `synchronize: false` that no migration creates. */
  missingIndexes: string[];
  /**
   * Columns, constraints and indexes as Postgres prints them, in the migrated schema but not
   * in the schema TypeORM builds from the entities, and the reverse: what TypeORM's builder
   * does not compare (CHECK and generated-column expressions, index column order and
   * predicates, foreign-key actions, constraint names).
   */
  onlyInMigrations: string[];
  onlyInEntities: string[];
}

/** Tables of an app's schema that are TypeORM's own, not the app's. */
const TYPEORM_TABLES = ['migrations', 'typeorm_metadata'];

/**
 * Compares an app's entities with its migrations, on two fresh databases: one migrated with
 * the app's migrations, which TypeORM's schema builder is asked what it would change
 * (`createSchemaBuilder().log()`), and one built by TypeORM from the entities, whose catalog
 * Postgres prints next to the migrated one's.
 */
export async function findSchemaDrift(options: SchemaDriftOptions): Promise<SchemaDrift> {
  const migrated = await createMigratedDatabase(options.migrate, options.open);
  try {
    const db = migrated.db;
    await describeGeneratedColumns(db, options.schema);
    const memory = await db.driver.createSchemaBuilder().log();
    const typeormSql = memory.upQueries.map((query) =>
      query.parameters?.length
        ? `${query.query} -- ${JSON.stringify(query.parameters)}`
        : query.query,
    );
    const mapped = new Set(
      db.entityMetadatas
        .filter((metadata) => (metadata.schema ?? options.schema) === options.schema)
        .map((metadata) => metadata.tableName),
    );
    const unsynchronized = new Set(
      db.entityMetadatas.flatMap((metadata) =>
        metadata.indices
          .filter((index) => !index.synchronize)
          .map((index) => `${metadata.tableName}.${index.name ?? ''}`),
      ),
    );
    const migratedCatalog = await catalog(db, options.schema);
    const built = await entityCatalog(options);
    const fromMigrations = migratedCatalog
      .filter((entry) => !unsynchronized.has(entry.object))
      .map((entry) => entry.line);
    const fromEntities = built.map((entry) => entry.line);
    const tables = await db.query<Array<{ name: string }>>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY 1`,
      [options.schema],
    );
    return {
      schema: options.schema,
      typeormSql,
      unmappedTables: tables
        .map((table) => table.name)
        .filter((name) => !mapped.has(name) && !TYPEORM_TABLES.includes(name)),
      missingIndexes: [...unsynchronized].filter(
        (object) => !migratedCatalog.some((entry) => entry.object === object),
      ),
      onlyInMigrations: fromMigrations.filter((line) => !fromEntities.includes(line)),
      onlyInEntities: fromEntities.filter((line) => !fromMigrations.includes(line)),
    };
  } finally {
    await migrated.close();
  }
}

/** The drift as a report naming what differs and what TypeORM would run; '' when none. */
export function describeSchemaDrift(drift: SchemaDrift): string {
  const sections: Array<[string, string[]]> = [
    ['TypeORM would run, to make the migrated schema match the entities:', drift.typeormSql],
    ['Tables no entity maps:', drift.unmappedTables],
    ['Indexes declared with synchronize: false that no migration creates:', drift.missingIndexes],
    ['Only the migrations create (as Postgres prints it):', drift.onlyInMigrations],
    ['Only the entities declare (as Postgres prints it):', drift.onlyInEntities],
  ];
  const found = sections.filter(([, lines]) => lines.length > 0);
  if (found.length === 0) return '';
  return [
    `Schema "${drift.schema}": the entities and the migrations disagree.`,
    ...found.flatMap(([title, lines]) => [title, ...lines.map((line) => `  ${line}`)]),
  ].join('\n');
}

/**
 * TypeORM reads the expression of a generated column from its own table typeorm_metadata
 * (its migration runner creates the table, empty, once an entity has a generated column);
 * it writes the expression there only when it creates the column itself, and our migrations
 * do. Without the row the schema builder takes the expression for '' and would recreate the
 * column; given the entities' expressions it compares everything else about the column, and
 * the catalog comparison compares the expressions themselves, as Postgres parsed them.
 */
async function describeGeneratedColumns(db: DataSource, schema: string): Promise<void> {
  const generated = db.entityMetadatas.flatMap((metadata) =>
    metadata.columns
      .filter((column) => column.generatedType !== undefined)
      .map((column) => ({
        table: metadata.tableName,
        name: column.databaseName,
        value: column.asExpression ?? '',
      })),
  );
  if (generated.length === 0) return;
  await db.query(`CREATE TABLE IF NOT EXISTS "${schema}".typeorm_metadata (
    type varchar NOT NULL, database varchar, schema varchar, "table" varchar, name varchar,
    value text)`);
  for (const column of generated) {
    await db.query(
      `INSERT INTO "${schema}".typeorm_metadata (type, database, schema, "table", name, value)
       VALUES ('GENERATED_COLUMN', current_database(), $1, $2, $3, $4)`,
      [schema, column.table, column.name, column.value],
    );
  }
}

/** The catalog of the schema TypeORM builds from the entities alone, on a database of its own. */
async function entityCatalog(options: SchemaDriftOptions): Promise<CatalogEntry[]> {
  const database = await createTestDatabase();
  try {
    const db = await options.open(database.url).initialize();
    try {
      await db.query(`CREATE SCHEMA "${options.schema}"`);
      await db.synchronize();
      return await catalog(db, options.schema);
    } finally {
      await db.destroy();
    }
  } finally {
    await database.drop();
  }
}

interface CatalogEntry {
  /** `table.column` or `table.constraint_or_index`. */
  object: string;
  line: string;
}

/** Every column, constraint and index of the schema's own tables, as Postgres prints them. */
async function catalog(db: DataSource, schema: string): Promise<CatalogEntry[]> {
  const rows = await db.query<Array<{ kind: string; object: string; definition: string }>>(
    `SELECT 'column' AS kind, t.relname || '.' || a.attname AS object,
       format_type(a.atttypid, a.atttypmod)
       || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
       || CASE WHEN a.attgenerated = 's'
            THEN ' GENERATED ALWAYS AS (' || pg_get_expr(d.adbin, d.adrelid) || ') STORED'
            WHEN d.adbin IS NOT NULL THEN ' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid)
            ELSE '' END AS definition
     FROM pg_attribute a
     JOIN pg_class t ON t.oid = a.attrelid AND t.relkind = 'r'
     JOIN pg_namespace n ON n.oid = t.relnamespace
     LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE n.nspname = $1 AND t.relname <> ALL ($2::text[]) AND a.attnum > 0
       AND NOT a.attisdropped
     UNION ALL
     SELECT 'constraint', t.relname || '.' || c.conname, pg_get_constraintdef(c.oid)
     FROM pg_constraint c
     JOIN pg_class t ON t.oid = c.conrelid
     JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = $1 AND t.relname <> ALL ($2::text[])
     UNION ALL
     SELECT 'index', t.relname || '.' || i.relname, pg_get_indexdef(i.oid)
     FROM pg_index x
     JOIN pg_class i ON i.oid = x.indexrelid
     JOIN pg_class t ON t.oid = x.indrelid
     JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = $1 AND t.relname <> ALL ($2::text[])
       AND NOT EXISTS (
         SELECT 1 FROM pg_constraint c
         WHERE c.conrelid = x.indrelid AND c.conindid = x.indexrelid
           AND c.contype IN ('p', 'u', 'x'))
     ORDER BY 1, 2`,
    [schema, TYPEORM_TABLES],
  );
  return rows.map((row) => ({
    object: row.object,
    line: `${row.kind} ${row.object}: ${row.definition.replace(QUOTED_NUMBER, '$1')}`,
  }));
}

/**
 * A number default as TypeORM writes it (`DEFAULT '0'`), which Postgres keeps as a cast
 * (`'0'::bigint`) where `DEFAULT 0` stays `0`: the same value, printed apart.
 */
const QUOTED_NUMBER = /'(-?\d+(?:\.\d+)?)'::(?:bigint|integer|smallint|numeric)\b/g;
