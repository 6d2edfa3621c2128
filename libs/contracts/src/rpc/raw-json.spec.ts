import { RawJson } from './raw-json';

describe('RawJson', () => {
  const bytes = Buffer.from('[{"name":"é€\u{1F600}"}]');

  it('holds the bytes it was given, the same Buffer, and decodes them on demand', () => {
    const raw = new RawJson<Array<{ name: string }>>(bytes);
    expect(raw.bytes).toBe(bytes);
    expect(raw.parse()).toEqual([{ name: 'é€\u{1F600}' }]);
  });

  it('refuses to be serialised again, rather than writing its Buffer as an object', () => {
    expect(() => JSON.stringify({ reply: new RawJson(bytes) })).toThrow(
      'RawJson is sent as its bytes, never serialised again',
    );
  });
});
