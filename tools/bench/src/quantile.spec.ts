import { changeCell, median, quantile } from './quantile';

describe('median', () => {
  it('is the middle value of an odd count, in any order', () => {
    expect(median([0.9, 1.2, 0.8])).toBe(0.9);
  });

  it('is the mean of the two middle values of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('is NaN for no values', () => {
    expect(median([])).toBeNaN();
  });

  it('leaves its input unsorted', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe('quantile', () => {
  it('reads the ascending values at the quantile', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(3);
    expect(quantile([1, 2, 3, 4], 0.99)).toBe(4);
  });
});

describe('changeCell', () => {
  it('gives the median change in per cent and the middle half in points, in any order', () => {
    expect(changeCell([1.3, 0.9, 1.1, 1.0])).toBe('+5.0% (+0..+30)');
  });

  it('signs a fall with a minus only', () => {
    expect(changeCell([0.8])).toBe('-20.0% (-20..-20)');
  });

  it('is empty for no ratios', () => {
    expect(changeCell([])).toBe('');
  });
});
