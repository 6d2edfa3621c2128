import { IsIn } from 'class-validator';
import { Field, type FieldOptions } from '../fields/field.decorators';

/** A query string that says true or false. */
export function BooleanString(options: Omit<FieldOptions, 'optional'> = {}): PropertyDecorator {
  return (target, key) =>
    Field(
      { type: 'string', enum: ['true', 'false'] },
      [IsIn(['true', 'false'], { message: `${String(key)} must be true or false` })],
      { ...options, optional: true },
    )(target, key);
}
