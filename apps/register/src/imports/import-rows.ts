import {
  ASSET_CSV_COLUMNS,
  CreateAssetInput,
  CreatePersonInput,
  DomainError,
  PERSON_CSV_COLUMNS,
  UpdateAssetInput,
  UpdatePersonInput,
  type AssetDetail,
  type CustomFieldType,
  type ImportType,
  type PersonDetail,
} from '@custodian/contracts';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { plainCell } from '../exports/csv-cells';

/** Columns an export writes that an import reads past: derived, or kept by the service. */
const READ_ONLY: Record<ImportType, readonly string[]> = {
  assets: ['assigned_to', 'created_at', 'updated_at'],
  people: ['created_at', 'updated_at'],
};

const EXPORTED: Record<ImportType, readonly string[]> = {
  assets: ASSET_CSV_COLUMNS,
  people: PERSON_CSV_COLUMNS,
};

/**
 * The columns an import writes, by type: the export's (one list, so an export imports back),
 * less `id` (it matches, never writes) and what is read-only.
 */
const WRITTEN: Record<ImportType, readonly string[]> = {
  assets: writtenOf('assets'),
  people: writtenOf('people'),
};

function writtenOf(type: ImportType): string[] {
  return EXPORTED[type].filter((column) => column !== 'id' && !READ_ONLY[type].includes(column));
}

/** The column a new record cannot do without. */
export const REQUIRED: Record<ImportType, string> = { assets: 'name', people: 'full_name' };

export interface CustomFieldColumn {
  key: string;
  label: string;
  type: CustomFieldType;
}

/** Where each column of a file goes. */
export interface ColumnMap {
  type: ImportType;
  /** A standard field → its index in the row. */
  fields: Map<string, number>;
  /** A custom field's key → its index and type. */
  custom: Map<string, { index: number; type: CustomFieldType }>;
  /** The `id` column's index, if the file has one (rows with an id update that record). */
  id: number | null;
}

/** `Asset tag` and `asset_tag` alike: lower case, spaces and dashes as underscores. */
function normal(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/**
 * The file's header read against the type's fields and the workspace's custom fields (by key
 * or label, any case): an unknown, empty or repeated column is a 400 naming it, before any row
 * is stored. A file without the required column (name, full_name) may still update records
 * matched by id, tag, serial number, e-mail or employee number; a row that would create one is
 * refused by the dry run.
 */
export function mapColumns(
  type: ImportType,
  header: readonly string[],
  customFields: readonly CustomFieldColumn[],
): ColumnMap {
  const map: ColumnMap = { type, fields: new Map(), custom: new Map(), id: null };
  const seen = new Map<string, number>();
  header.forEach((raw, index) => {
    const name = normal(raw);
    if (name === '') {
      throw new DomainError('invalid_input', `column ${index + 1} of the header has no name`);
    }
    const custom = customFields.find(
      (field) => field.key.toLowerCase() === name || normal(field.label) === name,
    );
    const target = WRITTEN[type].includes(name)
      ? name
      : name === 'id' || READ_ONLY[type].includes(name)
        ? name
        : custom
          ? `custom:${custom.key}`
          : null;
    if (target === null) {
      throw new DomainError(
        'invalid_input',
        `column ${raw.trim()} is neither a field of ${type} nor a custom field (the columns are ` +
          `id, ${WRITTEN[type].join(', ')}${type === 'assets' ? " and each custom field's key or label" : ''})`,
      );
    }
    const earlier = seen.get(target);
    if (earlier !== undefined) {
      throw new DomainError(
        'invalid_input',
        `columns ${earlier + 1} and ${index + 1} of the header are both ${raw.trim()}`,
      );
    }
    seen.set(target, index);
    if (target === 'id') map.id = index;
    else if (custom && target.startsWith('custom:')) {
      map.custom.set(custom.key, { index, type: custom.type });
    } else if (WRITTEN[type].includes(target)) map.fields.set(target, index);
  });
  return map;
}

/** A row read: the record's id if the file names one, and the fields it gives (non-empty cells). */
export interface RowValues {
  id: string | null;
  fields: Record<string, unknown>;
}

/**
 * A row's cells as the fields of a write: an empty cell leaves the field as it is (a new
 * record: without it); an export's apostrophe before a formula-like cell is taken off; custom
 * fields are turned into their type (a number, true/false) so the custom fields' own checks
 * see what a JSON body would send. A cell the type cannot take is refused naming its column.
 */
export function rowValues(map: ColumnMap, cells: readonly string[]): RowValues {
  const cell = (index: number) => plainCell((cells[index] ?? '').trim());
  const fields: Record<string, unknown> = {};
  for (const [name, index] of map.fields) {
    const value = cell(index);
    if (value !== '') fields[name] = value;
  }
  const custom: Record<string, unknown> = {};
  for (const [key, { index, type }] of map.custom) {
    const value = cell(index);
    if (value !== '') custom[key] = customValue(key, type, value);
  }
  if (Object.keys(custom).length > 0) fields.custom_fields = custom;
  const id = map.id === null ? '' : cell(map.id);
  return { id: id === '' ? null : id, fields };
}

function customValue(key: string, type: CustomFieldType, value: string): unknown {
  if (type === 'number') {
    const number = Number(value.replace(/,/g, ''));
    if (!Number.isFinite(number)) {
      throw new DomainError('invalid_input', `${key} must be a number (the cell says ${value})`);
    }
    return number;
  }
  if (type === 'boolean') {
    const lower = value.toLowerCase();
    if (['true', 'yes', 'y', '1'].includes(lower)) return true;
    if (['false', 'no', 'n', '0'].includes(lower)) return false;
    throw new DomainError('invalid_input', `${key} must be true or false (the cell says ${value})`);
  }
  return value;
}

/** The first thing class-validator finds wrong, in words that name the field. */
function firstProblem(errors: ValidationError[]): string | null {
  for (const error of errors) {
    const message = Object.values(error.constraints ?? {})[0];
    if (message) return message;
    const nested = firstProblem(error.children ?? []);
    if (nested) return nested;
  }
  return null;
}

/**
 * The fields checked as the API's body for a create (or an update) would be: null when they
 * pass, else the problem naming the field.
 */
export function fieldProblem(
  type: ImportType,
  fields: Record<string, unknown>,
  creating: boolean,
): string | null {
  if (creating && fields[REQUIRED[type]] === undefined) {
    return `${REQUIRED[type]} is required to create ${type === 'assets' ? 'an asset' : 'a person'}`;
  }
  const model =
    type === 'assets'
      ? creating
        ? CreateAssetInput
        : UpdateAssetInput
      : creating
        ? CreatePersonInput
        : UpdatePersonInput;
  const instance = plainToInstance(model as new () => object, fields);
  return firstProblem(validateSync(instance, { forbidUnknownValues: true }));
}

/**
 * The fields of an update that would change the record: those equal to what it holds go
 * (custom fields one by one), so a file imported again changes nothing and fires nothing.
 */
export function changedFields(
  type: ImportType,
  fields: Record<string, unknown>,
  current: AssetDetail | PersonDetail,
): Record<string, unknown> {
  const now = current as unknown as Record<string, unknown>;
  const named = (ref: unknown) => (ref as { name?: string } | null)?.name ?? null;
  const held = (ref: unknown) => (ref as { id?: string } | null)?.id ?? null;
  const currentOf: Record<string, () => unknown> = {
    category: () => named(now.category),
    category_id: () => held(now.category),
    location: () => named(now.location),
    location_id: () => held(now.location),
    department: () => named(now.department),
    assigned_to_id: () => held(now.assigned_to),
    due_at: () => (now.custody as { due_at?: string } | null)?.due_at ?? null,
  };
  const changed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'custom_fields') {
      const held = (now.custom_fields ?? {}) as Record<string, unknown>;
      const differing = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).filter(
          ([key, given]) => JSON.stringify(held[key]) !== JSON.stringify(given),
        ),
      );
      if (Object.keys(differing).length > 0) changed.custom_fields = differing;
      continue;
    }
    const before = (currentOf[name] ?? (() => now[name]))();
    if (name === 'due_at' && typeof value === 'string' && typeof before === 'string') {
      if (Date.parse(value) === Date.parse(before)) continue;
    }
    if (before !== value) changed[name] = value;
  }
  if (type === 'assets' && changed.due_at !== undefined && changed.assigned_to_id === undefined) {
    // A due date is the check-out's: it goes with the holder the row names.
    const holder = fields.assigned_to_id;
    if (holder !== undefined) changed.assigned_to_id = holder;
  }
  return changed;
}
