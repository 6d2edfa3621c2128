import { monotonicFactory } from 'ulid';

export type IdPrefix =
  | 'ast'
  | 'per'
  | 'usr'
  | 'wsp'
  | 'key'
  | 'whe'
  | 'evt'
  | 'dlv'
  | 'cat'
  | 'loc'
  | 'dep'
  | 'inv'
  | 'cfd'
  | 'act'
  | 'bkg'
  | 'lic'
  | 'lst'
  | 'req'
  | 'mnt'
  | 'rem'
  | 'aud'
  | 'imp';

const nextUlid = monotonicFactory();

/** Opaque, time-ordered ids with a type prefix: `ast_01J...`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${nextUlid().toLowerCase()}`;
}
