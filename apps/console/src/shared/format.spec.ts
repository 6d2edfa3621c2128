import {
  formatDate,
  formatDateTime,
  formatDuration,
  formatRate,
  plural,
  prettyJson,
  progressText,
} from './format';

describe('formatDateTime', () => {
  it('writes a timestamp in the given locale and zone', () => {
    expect(formatDateTime('2026-11-23T17:05:00Z', '—', 'en-GB', 'UTC')).toBe('23 Nov 2026, 17:05');
    expect(formatDateTime('2026-11-23T17:05:00Z', '—', 'en-GB', 'Europe/Paris')).toBe(
      '23 Nov 2026, 18:05',
    );
  });

  it('writes a day without the time', () => {
    expect(formatDate('2026-11-23T12:00:00Z', '—', 'en-GB')).toBe('23 Nov 2026');
    expect(formatDate(null)).toBe('—');
  });

  it('writes the empty text for null, and an unreadable value as it came', () => {
    expect(formatDateTime(null, 'Never')).toBe('Never');
    expect(formatDateTime('soon')).toBe('soon');
  });
});

describe('formatRate', () => {
  it('writes a percentage with at most one decimal', () => {
    expect(formatRate(1)).toBe('100%');
    expect(formatRate(0)).toBe('0%');
    expect(formatRate(0.5)).toBe('50%');
    expect(formatRate(0.9876)).toBe('98.7%');
    expect(formatRate(0.29)).toBe('29%');
  });

  it('never rounds a failure away', () => {
    expect(formatRate(0.99996)).toBe('99.9%');
  });

  it('writes a dash when nothing finished', () => {
    expect(formatRate(null)).toBe('—');
  });
});

describe('formatDuration', () => {
  it('uses ms below a second and seconds above', () => {
    expect(formatDuration(42.4)).toBe('42 ms');
    expect(formatDuration(1234)).toBe('1.23 s');
    expect(formatDuration(10_000)).toBe('10.0 s');
  });
});

describe('prettyJson and plural', () => {
  it('indents JSON by two spaces', () => {
    expect(prettyJson({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}');
  });

  it('picks the word by count', () => {
    expect(plural(1, 'delivery', 'deliveries')).toBe('1 delivery');
    expect(plural(1200, 'delivery', 'deliveries')).toBe('1,200 deliveries');
  });
});

describe('progressText', () => {
  it('counts done of total with a percentage rounded down', () => {
    expect(progressText({ done: 40_000, total: 100_000 })).toBe('40,000 of 100,000 (40%)');
    expect(progressText({ done: 99_999, total: 100_000 })).toBe('99,999 of 100,000 (99%)');
    expect(progressText({ done: 0, total: 0 })).toBe('0 of 0 (100%)');
  });
});
