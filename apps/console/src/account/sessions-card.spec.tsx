import { deviceOf } from './sessions-card';

describe('deviceOf', () => {
  it.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1', 'Safari on iOS'],
    ['Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0.0.0 Safari/537.36', 'Chrome on Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64) Firefox/131.0', 'Firefox on Windows'],
    ['Mozilla/5.0 (Windows NT 10.0) Chrome/130.0 Safari/537.36 Edg/130.0', 'Edge on Windows'],
    ['curl/8.4.0', 'curl/8.4.0'],
    [null, 'Unknown device'],
  ])('%s reads as %s', (agent, device) => {
    expect(deviceOf(agent)).toBe(device);
  });
});
