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
  const problem = findUnstorableText(raw, '');
  if (problem !== null) {
    throw new DomainError('invalid_input', `${problem.path || what} ${problem.reason}`);
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

/**
 * One message for every field at fault, joined by `; `. Fields are named by their path from the
 * root; `transparent` names a top-level property whose children are named as if they were the
 * root (the client's body inside a message).
 */
export function describeErrors(
  errors: ValidationError[],
  parent = '',
  transparent?: string,
): string {
  const messages: string[] = [];
  for (const error of errors) {
    if (!parent && error.property === transparent && error.children?.length) {
      messages.push(describeErrors(error.children));
      continue;
    }
    const path = parent ? `${parent}.${error.property}` : error.property;
    // One message per field: class-validator lists constraints bottom-up, so the last is the
    // first decorator written, the type check ("name must be a string").
    const constraints = Object.entries(error.constraints ?? {});
    const [constraint, message] = constraints[constraints.length - 1] ?? [];
    if (constraint === 'whitelistValidation') messages.push(`unknown field ${path}`);
    // A nested field's decorator names it alone ("every must ..."): the path says where.
    else if (message && parent && message.startsWith(`${error.property} `)) {
      messages.push(`${path}${message.slice(error.property.length)}`);
    } else if (message) messages.push(message);
    if (error.children?.length) messages.push(describeErrors(error.children, path));
  }
  return messages.join('; ');
}

export interface TextProblem {
  path: string;
  reason: string;
}

/** An unpaired UTF-16 surrogate: valid in a JS string, refused by Postgres jsonb. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What Postgres or the validator cannot take, anywhere in a JSON value: U+0000 and lone
 * surrogates (Postgres refuses them: a 500), and the keys `__proto__`, `constructor`,
 * `prototype` at any depth (class-transformer throws on them). Walks with an explicit stack.
 */
export function findUnstorableText(value: unknown, path: string): TextProblem | null {
  const stack: Array<[unknown, string]> = [[value, path]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [current, at] = item;
    if (typeof current === 'string') {
      const reason = textReason(current);
      if (reason) return { path: at, reason };
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    const isArray = Array.isArray(current);
    for (const [key, inner] of Object.entries(current)) {
      const innerPath = isArray ? `${at}[${key}]` : at ? `${at}.${key}` : key;
      if (!isArray && FORBIDDEN_KEYS.has(key)) {
        return { path: at, reason: `must not contain the key ${key}` };
      }
      const keyReason = textReason(key);
      if (keyReason) return { path: innerPath, reason: keyReason };
      stack.push([inner, innerPath]);
    }
  }
  return null;
}

function textReason(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode text';
  return null;
}
