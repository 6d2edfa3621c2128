import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describeErrors } from '@custodian/validation';

/**
 * Parses the environment into one typed, validated object; an app refuses to start with a
 * message naming every bad variable rather than failing later on first use.
 */
export function loadConfig<T extends object>(
  type: ClassConstructor<T>,
  env: NodeJS.ProcessEnv = process.env,
): T {
  // An empty variable (`PORT=`) means "not set": it takes the default instead of becoming 0.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const instance = plainToInstance(type, given, { enableImplicitConversion: true });
  const errors = validateSync(instance, { whitelist: true, forbidUnknownValues: true });
  if (errors.length > 0) {
    throw new Error(`Invalid configuration: ${describeErrors(errors)}`);
  }
  return instance;
}

/**
 * Whether the app runs where the relaxed defaults are meant: NODE_ENV `development` (npm start)
 * or `test`. Everywhere else, an unset NODE_ENV included, every default is the secure one
 * (private webhook targets refused, secret keys required, Secure cookies, no mail in logs).
 */
export function relaxedDefaults(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV === 'development' || env.NODE_ENV === 'test';
}
