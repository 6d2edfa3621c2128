import { ApiFailure } from '../api/failure';
import { shouldRetry } from './query-client';

const failure = (status: number | null) => new ApiFailure('see assets', status, 'failed');

describe('shouldRetry', () => {
  it('tries a read again when no answer came or the server failed, twice at most', () => {
    for (const status of [null, 500, 502, 503]) {
      expect(shouldRetry(0, failure(status))).toBe(true);
      expect(shouldRetry(1, failure(status))).toBe(true);
      expect(shouldRetry(2, failure(status))).toBe(false);
    }
  });

  it('never retries a 4xx, which says the same the next time', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429]) {
      expect(shouldRetry(0, failure(status))).toBe(false);
    }
  });

  it('never retries an error of the console itself', () => {
    expect(shouldRetry(0, new TypeError('x is undefined'))).toBe(false);
  });
});
