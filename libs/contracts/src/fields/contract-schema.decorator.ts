import { ApiSchema } from '@nestjs/swagger';
import type { ContractClass } from './field.decorators';

export interface ContractSchemaOptions {
  /** The component name in the document; the class name when not given. */
  name?: string;
  description?: string;
  /** Whole, valid values of the class, shown in the document and checked by the tests. */
  examples?: readonly object[];
}

const examplesByClass = new WeakMap<object, readonly object[]>();
/** Examples by component name, for the document (which @ApiSchema cannot carry them to). */
const examplesByName = new Map<string, readonly object[]>();

/**
 * A class of the contract: its component name and description (@nestjs/swagger's @ApiSchema)
 * and its examples. Every such class is closed: the pipes refuse unknown fields and the
 * document sets `additionalProperties: false` on its component.
 */
export function ContractSchema(options: ContractSchemaOptions): ClassDecorator {
  return (target) => {
    ApiSchema({ name: options.name, description: options.description })(target);
    if (!options.examples) return;
    const name = options.name ?? target.name;
    if (examplesByName.has(name)) throw new Error(`two contract classes are named ${name}`);
    examplesByName.set(name, options.examples);
    examplesByClass.set(target, options.examples);
  };
}

/** The examples of a contract class (none when it declares none). */
export function examplesOf(model: ContractClass): readonly object[] {
  return examplesByClass.get(model) ?? [];
}

/** The examples of every contract class that has some, by component name. */
export function componentExamples(): ReadonlyMap<string, readonly object[]> {
  return examplesByName;
}
