import { median, quantile } from './quantile';

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
