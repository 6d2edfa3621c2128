import { rotated } from './rotation';

describe('rotated', () => {
  it('starts round 1 with the first item and each later round with the next', () => {
    expect(rotated(['a', 'b', 'c'], 1)).toEqual(['a', 'b', 'c']);
    expect(rotated(['a', 'b', 'c'], 2)).toEqual(['b', 'c', 'a']);
    expect(rotated(['a', 'b', 'c'], 3)).toEqual(['c', 'a', 'b']);
  });

  it('goes around again after the last item', () => {
    expect(rotated(['a', 'b', 'c'], 4)).toEqual(['a', 'b', 'c']);
    expect(rotated(['a', 'b'], 6)).toEqual(['b', 'a']);
  });

  it('puts every item first equally often over whole turns', () => {
    const firsts = [1, 2, 3, 4, 5, 6].map((round) => rotated(['a', 'b', 'c'], round)[0]);
    expect(firsts.sort()).toEqual(['a', 'a', 'b', 'b', 'c', 'c']);
  });

  it('keeps every item once and leaves its input as it was', () => {
    const items = ['a', 'b', 'c', 'd'];
    expect([...rotated(items, 3)].sort()).toEqual(items);
    expect(items).toEqual(['a', 'b', 'c', 'd']);
  });

  it('gives nothing for nothing', () => {
    expect(rotated([], 2)).toEqual([]);
  });
});
