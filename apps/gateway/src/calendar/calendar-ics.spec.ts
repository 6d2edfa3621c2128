import type { CalendarFeedEvents } from '@custodian/contracts';
import ICAL from 'ical.js';
import { bookingTitle, renderCalendarFeed } from './calendar-ics';

const NOW = new Date('2026-12-01T12:00:00.000Z');

const FEED: CalendarFeedEvents = {
  base_url: 'https://custodian.example',
  from: '2026-11-01T12:00:00.000Z',
  to: '2027-05-30T12:00:00.000Z',
  bookings: [
    {
      id: 'bkg_01jd8z4a5b6c7d8e9f0g1h2j3k',
      status: 'confirmed',
      starts_at: '2026-12-04T09:00:00.000Z',
      ends_at: '2026-12-04T18:00:00.000Z',
      person_name: 'Margaret Hamilton',
      assets: [{ name: 'Sony A7 IV', asset_tag: 'CAM-0042' }],
      // What a person may type: commas, semicolons, backslashes, new lines, a long line.
      notes: `Shoot; bring the "big" tripod, spare batteries\\charger\nSecond line ${'x'.repeat(120)}`,
      completed_at: null,
      updated_at: '2026-11-28T10:00:00.000Z',
    },
    {
      id: 'bkg_01jd8z4a5b6c7d8e9f0g1h2j3m',
      status: 'requested',
      starts_at: '2026-12-10T09:00:00.000Z',
      ends_at: '2026-12-11T09:00:00.000Z',
      person_name: 'Ada Lovelace',
      assets: [
        { name: 'Lamp', asset_tag: '' },
        { name: 'Tripod', asset_tag: 'TRI-1' },
        { name: 'Lens', asset_tag: 'L-1' },
        { name: 'Bag', asset_tag: '' },
        { name: 'Card', asset_tag: '' },
      ],
      notes: null,
      completed_at: null,
      updated_at: '2026-11-29T10:00:00.000Z',
    },
  ],
  check_outs: [
    {
      asset_id: 'ast_01jd8x2b6c8e0g2j4m6p8r0t2x',
      asset_name: 'MacBook Pro',
      asset_tag: 'LAP-7',
      person_name: 'Grace Hopper',
      assigned_at: '2026-11-20T08:00:00.000Z',
      due_at: '2026-12-05T17:00:00.000Z',
    },
  ],
  truncated: false,
};

/** The VCALENDAR of a feed, as ical.js reads it. */
function component(text: string): ICAL.Component {
  return new ICAL.Component(ICAL.parse(text) as unknown[]);
}

function parse(text: string) {
  const calendar = component(text);
  return calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      summary: event.summary,
      description: event.description,
      status: vevent.getFirstPropertyValue('status'),
      start: event.startDate.toJSDate().toISOString(),
      startIsUtc: event.startDate.zone?.tzid === 'UTC',
      end: vevent.hasProperty('dtend') ? event.endDate.toJSDate().toISOString() : null,
      url: vevent.getFirstPropertyValue('url'),
    };
  });
}

describe('renderCalendarFeed', () => {
  const text = renderCalendarFeed(FEED, 'Acme; Films', NOW);

  it('is iCalendar a parser reads back: one VEVENT per booking and check-out, UTC times, stable UIDs', () => {
    const events = parse(text);
    expect(events).toEqual([
      {
        uid: 'bkg_01jd8z4a5b6c7d8e9f0g1h2j3k@custodian.example',
        summary: 'Sony A7 IV for Margaret Hamilton (confirmed)',
        description: expect.stringContaining(FEED.bookings[0]!.notes!) as string,
        status: 'CONFIRMED',
        start: '2026-12-04T09:00:00.000Z',
        startIsUtc: true,
        end: '2026-12-04T18:00:00.000Z',
        url: 'https://custodian.example/console/bookings/bkg_01jd8z4a5b6c7d8e9f0g1h2j3k',
      },
      {
        uid: 'bkg_01jd8z4a5b6c7d8e9f0g1h2j3m@custodian.example',
        summary: 'Lamp, Tripod, Lens +2 more for Ada Lovelace (requested)',
        description: expect.stringContaining(
          'Assets: Lamp, Tripod (TRI-1), Lens (L-1), Bag, Card',
        ) as string,
        status: 'TENTATIVE',
        start: '2026-12-10T09:00:00.000Z',
        startIsUtc: true,
        end: '2026-12-11T09:00:00.000Z',
        url: 'https://custodian.example/console/bookings/bkg_01jd8z4a5b6c7d8e9f0g1h2j3m',
      },
      {
        uid: `checkout-ast_01jd8x2b6c8e0g2j4m6p8r0t2x-${Date.parse('2026-11-20T08:00:00.000Z')}@custodian.example`,
        summary: 'MacBook Pro (LAP-7) due back from Grace Hopper',
        description: expect.stringContaining('due back 2026-12-05T17:00:00.000Z') as string,
        status: 'CONFIRMED',
        start: '2026-12-05T17:00:00.000Z',
        startIsUtc: true,
        end: null,
        url: 'https://custodian.example/console/assets/ast_01jd8x2b6c8e0g2j4m6p8r0t2x',
      },
    ]);
  });

  it('escapes and folds what people typed (RFC 5545: lines of 75 octets, CRLF)', () => {
    expect(text).toContain('\r\n');
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    expect(text).toContain('Shoot\\; bring the "big" tripod\\, spare batteries\\\\charger\\n');
  });

  it('keeps a line break in the workspace name from starting a line of its own', () => {
    const injected = renderCalendarFeed(FEED, 'Acme\r\nBEGIN:VEVENT\nUID:evil', NOW);
    const calendar = component(injected);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe(
      'Acme BEGIN:VEVENT UID:evil: bookings',
    );
    expect(parse(injected).map((event) => event.uid)).toEqual(
      parse(text).map((event) => event.uid),
    );
  });

  it('links the console and names the calendar after the workspace', () => {
    const calendar = component(text);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Acme; Films: bookings');
    expect(parse(text)[0]!.description).toContain(
      'Open in Custodian: https://custodian.example/console/bookings/bkg_01jd8z4a5b6c7d8e9f0g1h2j3k',
    );
  });

  it('says in its description when the cap left events out', () => {
    const capped = renderCalendarFeed({ ...FEED, truncated: true }, 'Acme', NOW);
    const description = (calendar: string) =>
      component(calendar).getFirstPropertyValue('x-wr-caldesc');
    expect(description(capped)).toContain('the first 2,000 only');
    expect(description(text)).not.toContain('2,000');
  });
});

describe('bookingTitle', () => {
  it.each([
    ['checked_out', 'checked out'],
    ['overdue', 'overdue'],
    ['completed', 'returned'],
  ] as const)('names a %s booking "%s"', (status, word) => {
    expect(
      bookingTitle({ assets: [{ name: 'Camera', asset_tag: '' }], person_name: 'Ada', status }),
    ).toBe(`Camera for Ada (${word})`);
  });
});
