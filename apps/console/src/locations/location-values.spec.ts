import type { Location } from '@custodian/console-client';
import {
  childrenOf,
  holdsText,
  pathText,
  placeChoiceOf,
  placeFields,
  possibleParents,
  treeLabel,
} from './location-values';

function place(id: string, name: string, path: Location[] = []): Location {
  return {
    id,
    name,
    parent: path.length ? { id: path.at(-1)!.id, name: path.at(-1)!.name } : null,
    path: path.map((above) => ({ id: above.id, name: above.name })),
    depth: path.length,
    address: null,
    notes: null,
    children_count: 0,
    asset_count: 0,
    people_count: 0,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };
}

const hq = place('loc_hq', 'HQ');
const floor = place('loc_f1', 'Floor 1', [hq]);
const room = place('loc_r1', 'Room 101', [hq, floor]);
const annex = place('loc_an', 'Annex');
const tree = [annex, hq, floor, room];

describe('location values', () => {
  it('indents a place by its depth and spells its path', () => {
    expect(treeLabel(room)).toBe('\u2003\u2003Room 101');
    expect(treeLabel(hq)).toBe('HQ');
    expect(pathText(room)).toBe('HQ › Floor 1 › Room 101');
  });

  it('offers every parent but the place itself and those under it', () => {
    expect(possibleParents(tree, floor).map((one) => one.name)).toEqual(['Annex', 'HQ']);
    expect(possibleParents(tree, null)).toHaveLength(4);
    expect(childrenOf(tree, hq.id).map((one) => one.name)).toEqual(['Floor 1']);
  });

  it('says what a place holds', () => {
    expect(holdsText({ children_count: 0, asset_count: 0, people_count: 0 })).toBe('Empty');
    expect(holdsText({ children_count: 2, asset_count: 1, people_count: 3 })).toBe(
      '2 places, 1 asset, 3 people',
    );
  });
});

describe('placeFields', () => {
  it('sends nothing for the same place, an id for another or none, a name for a new one', () => {
    expect(placeFields(placeChoiceOf(room), room.id)).toEqual({});
    expect(placeFields({ id: hq.id, newName: null }, room.id)).toEqual({ location_id: hq.id });
    expect(placeFields({ id: null, newName: null }, room.id)).toEqual({ location_id: null });
    expect(placeFields({ id: null, newName: null }, null)).toEqual({});
    expect(placeFields({ id: null, newName: ' Loft ' }, room.id)).toEqual({ location: 'Loft' });
    expect(placeFields({ id: null, newName: '  ' }, null)).toEqual({});
  });
});
