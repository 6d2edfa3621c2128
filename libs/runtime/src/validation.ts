import { DomainError } from '@custodian/contracts';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Validates an untrusted JSON object against a class-validator class. Unknown fields are
 * refused by name; every message names the field (`name must be a string`). Throws
 * DomainError('invalid_input') listing every problem, so nothing half-valid is ever written.
 */
export function validateInput<T extends object>(
  type: ClassConstructor<T>,
  raw: unknown,
  what = 'body',
): T {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new DomainError('invalid_input', `${what} must be a JSON object`);
  }
  for (const key of Object.keys(raw)) {
    if (FORBIDDEN_KEYS.has(key)) {
      throw new DomainError('invalid_input', `${what} must not contain the key ${key}`);
    }
  }
  const withNul = findNul(raw, '');
  if (withNul !== null) {
    throw new DomainError('invalid_input', `${withNul || what} must not contain NUL characters`);
  }
  const instance = plainToInstance(type, raw, { enableImplicitConversion: false });
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  if (errors.length > 0) {
    throw new DomainError('invalid_input', describeErrors(errors));
  }
  return instance;
}

export function describeErrors(errors: ValidationError[], parent = ''): string {
  const messages: string[] = [];
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    // One message per field: class-validator lists constraints bottom-up, so the last is the
    // first decorator written, the type check ("name must be a string").
    const constraints = Object.entries(error.constraints ?? {});
    const [constraint, message] = constraints[constraints.length - 1] ?? [];
    if (constraint === 'whitelistValidation') messages.push(`unknown field ${path}`);
    else if (message) messages.push(message);
    if (error.children?.length) messages.push(describeErrors(error.children, path));
  }
  return messages.join('; ');
}

/**
 * Postgres text cannot hold U+0000; a NUL reaching SQL is a 500. Returns the path of the
 * first string (or key) holding one, '' for the value itself, or null.
 */
export function findNul(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, inner] of Object.entries(value)) {
    const innerPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return innerPath;
    const found = findNul(inner, innerPath);
    if (found !== null) return found;
  }
  return null;
}
