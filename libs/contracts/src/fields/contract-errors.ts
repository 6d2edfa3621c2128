import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import type { ContractClass } from './field.decorators';

/**
 * What is wrong with a JSON value as an instance of a contract class: every failing check of
 * its fields at every level, and every field the class does not declare, as `<path> <message>`
 * lines; none when it conforms. The checks are the ones the field decorators declare, the same
 * that their @ApiProperty documents.
 */
export function contractErrors(model: ContractClass, value: unknown, path = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [`${path || '/'} must be an object`];
  }
  const errors = validateSync(plainToInstance(model, value), {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  return flatten(errors, path);
}

/** None when the value is an instance of one of `models`; else what each of them refuses. */
export function oneOfErrors(models: readonly ContractClass[], value: unknown, path = ''): string[] {
  const failures = models.map((model) => contractErrors(model, value, path));
  if (failures.some((errors) => errors.length === 0)) return [];
  if (models.length === 1) return failures[0] ?? [];
  return failures.flatMap((errors, i) => errors.map((error) => `(as ${models[i]?.name}) ${error}`));
}

function flatten(errors: ValidationError[], parent: string): string[] {
  return errors.flatMap((error) => {
    const path = `${parent}/${error.property}`;
    const own = Object.values(error.constraints ?? {}).map((message) => `${path} ${message}`);
    return [...own, ...flatten(error.children ?? [], path)];
  });
}
