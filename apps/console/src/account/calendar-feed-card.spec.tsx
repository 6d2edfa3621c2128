/** @jest-environment jsdom */
import type { CalendarFeed } from '@custodian/console-client';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ApiFailure } from '../api/failure';
import { getCalendarFeed, issueCalendarFeed, revokeCalendarFeed } from '../api/calendar-feed.api';
import { getSession } from '../api/session.api';
import { installDialogMethods, renderScreen, sessionFor } from '../testing/render-screen';
import { CalendarFeedCard, feedSummary, webcalUrl } from './calendar-feed-card';

jest.mock('../api/calendar-feed.api');
jest.mock('../api/session.api');

const NONE: CalendarFeed = { active: false, created_at: null, last_used_at: null };
const MADE: CalendarFeed = {
  active: true,
  created_at: '2026-11-28T10:00:00.000Z',
  last_used_at: null,
};
const URL = `https://custodian.example/calendar/${'a'.repeat(43)}.ics`;

beforeAll(installDialogMethods);

beforeEach(() => {
  jest.resetAllMocks();
  jest.mocked(getSession).mockResolvedValue(sessionFor('member'));
});

describe('webcalUrl', () => {
  it.each([
    [URL, `webcal://custodian.example/calendar/${'a'.repeat(43)}.ics`],
    ['http://127.0.0.1:3000/calendar/x.ics', 'webcal://127.0.0.1:3000/calendar/x.ics'],
    ['ftp://example.com/x.ics', null],
  ])('%s -> %s', (url, webcal) => {
    expect(webcalUrl(url)).toBe(webcal);
  });
});

describe('feedSummary', () => {
  it('says there is none, or when it was made and last fetched', () => {
    expect(feedSummary(NONE)).toBe('You have no feed URL in this workspace.');
    expect(feedSummary(MADE, 'en-GB', 'UTC')).toBe(
      'Your feed URL was made 28 Nov 2026, 10:00; not fetched yet.',
    );
    expect(feedSummary({ ...MADE, last_used_at: '2026-11-29T07:12:00.000Z' }, 'en-GB', 'UTC')).toBe(
      'Your feed URL was made 28 Nov 2026, 10:00; last fetched 29 Nov 2026, 07:12.',
    );
  });
});

describe('CalendarFeedCard', () => {
  it('makes a URL and shows it once, with a link that opens a calendar app', async () => {
    jest.mocked(getCalendarFeed).mockResolvedValueOnce(NONE).mockResolvedValue(MADE);
    jest.mocked(issueCalendarFeed).mockResolvedValue({ ...MADE, url: URL });
    renderScreen(<CalendarFeedCard workspaceName="Acme" />, '/account');

    expect(await screen.findByText('You have no feed URL in this workspace.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Make a feed URL' }));

    const field = await screen.findByLabelText('Feed URL');
    expect((field as HTMLInputElement).value).toBe(URL);
    expect(
      screen.getByRole('link', { name: 'Open in your calendar app' }).getAttribute('href'),
    ).toBe(webcalUrl(URL));
    expect(screen.getByRole('button', { name: 'Make a new URL' })).toBeTruthy();
    expect(issueCalendarFeed).toHaveBeenCalledTimes(1);
  });

  it('without the URL at hand, says it was shown once; a new one is confirmed first', async () => {
    jest.mocked(getCalendarFeed).mockResolvedValue(MADE);
    jest.mocked(issueCalendarFeed).mockResolvedValue({ ...MADE, url: URL });
    renderScreen(<CalendarFeedCard workspaceName="Acme" />, '/account');

    expect(await screen.findByText(/The URL was shown when it was made/)).toBeTruthy();
    expect(screen.queryByLabelText('Feed URL')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Make a new URL' }));
    const dialog = await screen.findByRole('dialog', { name: 'Make a new feed URL?' });
    expect(issueCalendarFeed).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make a new URL' }));

    expect((await screen.findByLabelText<HTMLInputElement>('Feed URL')).value).toBe(URL);
    expect(issueCalendarFeed).toHaveBeenCalledTimes(1);
  });

  it('asks for the password when the sign-in is old, then makes the URL', async () => {
    jest.mocked(getCalendarFeed).mockResolvedValueOnce(NONE).mockResolvedValue(MADE);
    jest
      .mocked(issueCalendarFeed)
      .mockRejectedValueOnce(
        new ApiFailure('make a calendar feed URL', 403, 'Confirm your password: it is old'),
      )
      .mockResolvedValue({ ...MADE, url: URL });
    renderScreen(<CalendarFeedCard workspaceName="Acme" />, '/account');

    fireEvent.click(await screen.findByRole('button', { name: 'Make a feed URL' }));
    const password = await screen.findByLabelText('Your password');
    fireEvent.change(password, { target: { value: 'correct horse battery staple' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and continue' }));

    await waitFor(() => expect(issueCalendarFeed).toHaveBeenCalledTimes(2));
    expect((await screen.findByLabelText<HTMLInputElement>('Feed URL')).value).toBe(URL);
  });

  it('revokes after confirming, and says so', async () => {
    jest.mocked(getCalendarFeed).mockResolvedValueOnce(MADE).mockResolvedValue(NONE);
    jest.mocked(revokeCalendarFeed).mockResolvedValue(NONE);
    renderScreen(<CalendarFeedCard workspaceName="Acme" />, '/account');

    fireEvent.click(await screen.findByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke your feed URL?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke URL' }));

    expect(await screen.findByText(/Feed URL revoked/)).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Make a feed URL' })).toBeTruthy();
    expect(revokeCalendarFeed).toHaveBeenCalledTimes(1);
  });
});
