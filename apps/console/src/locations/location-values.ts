import type { Location } from '@custodian/console-client';

/** A place as a <select> option shows it: indented by its depth, so the list reads as a tree. */
export function treeLabel(place: Pick<Location, 'name' | 'depth'>): string {
  return `${'\u2003'.repeat(place.depth)}${place.name}`;
}

/** "HQ › Floor 1 › Room 101": where a place is, from the top down. */
export function pathText(place: Pick<Location, 'name' | 'path'>): string {
  return [...place.path.map((above) => above.name), place.name].join(' › ');
}

/**
 * The places `self` may move into: every place but itself and those under it (the API would
 * refuse them with a 400 naming `parent_id`). `self` null: a new place, any parent will do.
 */
export function possibleParents(tree: Location[], self: Location | null): Location[] {
  if (self === null) return tree;
  return tree.filter(
    (place) => place.id !== self.id && !place.path.some((above) => above.id === self.id),
  );
}

/** The places directly in `parentId`, in tree order (the list is in tree order already). */
export function childrenOf(tree: Location[], parentId: string): Location[] {
  return tree.filter((place) => place.parent?.id === parentId);
}

/** "1 asset, 2 people": what a place holds, or "Empty". */
export function holdsText(
  place: Pick<Location, 'asset_count' | 'people_count' | 'children_count'>,
) {
  const parts = [
    count(place.children_count, 'place', 'places'),
    count(place.asset_count, 'asset', 'assets'),
    count(place.people_count, 'person', 'people'),
  ].filter((part): part is string => part !== null);
  return parts.length === 0 ? 'Empty' : parts.join(', ');
}

function count(value: number, one: string, many: string): string | null {
  return value === 0 ? null : `${value} ${value === 1 ? one : many}`;
}

/**
 * A location as a form holds it: one of the places (`id`, null for none), or a new place by
 * name (`newName`, not null), which the API creates at the top level.
 */
export interface PlaceChoice {
  id: string | null;
  newName: string | null;
}

export function placeChoiceOf(place: { id: string } | null | undefined): PlaceChoice {
  return { id: place?.id ?? null, newName: null };
}

/**
 * What a write sends for the place chosen, against the place it has (`currentId`; null for a
 * new record): nothing when it is the same, `location_id` for another place or none (null), or
 * `location` for a new name. By id, so two places of the same name are never confused.
 */
export function placeFields(
  choice: PlaceChoice,
  currentId: string | null,
): { location?: string; location_id?: string | null } {
  if (choice.newName !== null) {
    const name = choice.newName.trim();
    return name ? { location: name } : {};
  }
  return choice.id === currentId ? {} : { location_id: choice.id };
}
