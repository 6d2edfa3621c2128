import type { CalendarFeed, IssuedCalendarFeed } from '@custodian/console-client';
import { CALENDAR_FEED_FUTURE_DAYS, CALENDAR_FEED_PAST_DAYS } from '@custodian/contracts/constants';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { formatDateTime } from '../shared/format';
import { ErrorNotice, Notice } from '../shared/notices';
import { PasswordCheck } from '../shared/password-check';
import { QueryState } from '../shared/query-state';
import { SecretField } from '../shared/secret-field';
import {
  calendarFeedQueries,
  useIssueCalendarFeed,
  useRevokeCalendarFeed,
} from './calendar-feed.queries';

/**
 * The same URL as webcal://, which a calendar app registers itself for: opening it offers to
 * subscribe. Null for anything but an http(s) URL.
 */
export function webcalUrl(url: string): string | null {
  const match = /^https?:\/\/(.+)$/i.exec(url);
  return match ? `webcal://${match[1]}` : null;
}

/** The card's one line about the feed: whether there is one, and its dates. */
export function feedSummary(feed: CalendarFeed, locale?: string, timeZone?: string): string {
  if (!feed.active) return 'You have no feed URL in this workspace.';
  const made = formatDateTime(feed.created_at, '—', locale, timeZone);
  const used = feed.last_used_at
    ? `last fetched ${formatDateTime(feed.last_used_at, '—', locale, timeZone)}`
    : 'not fetched yet';
  return `Your feed URL was made ${made}; ${used}.`;
}

/**
 * The signed-in member's calendar feed in this workspace: make the secret URL (shown once),
 * make a new one in its place, or revoke it.
 */
export function CalendarFeedCard({ workspaceName }: { workspaceName: string }) {
  const feed = useQuery(calendarFeedQueries.current());
  const issuing = useIssueCalendarFeed();
  const revoking = useRevokeCalendarFeed();
  const [issued, setIssued] = useState<IssuedCalendarFeed | null>(null);
  const [confirming, setConfirming] = useState<'renew' | 'revoke' | null>(null);
  const [revoked, setRevoked] = useState(false);

  function issue() {
    setRevoked(false);
    issuing.mutate(undefined, {
      onSuccess: (made) => {
        setIssued(made);
        setConfirming(null);
      },
    });
  }

  function revoke() {
    revoking.mutate(undefined, {
      onSuccess: () => {
        setIssued(null);
        setRevoked(true);
        setConfirming(null);
      },
    });
  }

  return (
    <section className="card" aria-labelledby="calendar-feed-heading">
      <h2 id="calendar-feed-heading">Calendar feed</h2>
      <p className="hint">
        Subscribe to {workspaceName}’s bookings and due dates in your calendar app (Google Calendar,
        Outlook, Apple Calendar), from {CALENDAR_FEED_PAST_DAYS} days back to{' '}
        {CALENDAR_FEED_FUTURE_DAYS} days ahead. Anyone with the URL can read them: keep it to
        yourself.
      </p>
      <QueryState query={feed} what="your calendar feed">
        {(current) => (
          <>
            <p>{feedSummary(current)}</p>
            {issued && current.active && (
              <>
                <SecretField label="Feed URL" value={issued.url} />
                <p className="hint">
                  Shown this once: add it to your calendar app now (“Subscribe from URL”, “From
                  web”).{' '}
                  {webcalUrl(issued.url) && (
                    <a href={webcalUrl(issued.url) ?? undefined}>Open in your calendar app</a>
                  )}
                </p>
              </>
            )}
            {!issued && current.active && (
              <p className="hint">
                The URL was shown when it was made. Lost it? Make a new one: the old one stops
                working.
              </p>
            )}
            {revoked && !current.active && (
              <Notice tone="success">
                Feed URL revoked: calendars subscribed to it stop updating.
              </Notice>
            )}
            {confirming === null && (
              <>
                <ErrorNotice error={issuing.error ?? revoking.error} />
                <PasswordCheck error={issuing.error} retry={issue} />
              </>
            )}
            <div className="actions">
              {current.active ? (
                <>
                  <button
                    type="button"
                    onClick={() => {
                      issuing.reset();
                      setConfirming('renew');
                    }}
                  >
                    Make a new URL
                  </button>
                  <button
                    type="button"
                    className="button-danger-quiet"
                    onClick={() => {
                      revoking.reset();
                      setConfirming('revoke');
                    }}
                  >
                    Revoke
                  </button>
                </>
              ) : (
                <button
                  type="button"
                  className="button-primary"
                  onClick={issue}
                  disabled={issuing.isPending}
                >
                  {issuing.isPending ? 'Making…' : 'Make a feed URL'}
                </button>
              )}
            </div>
          </>
        )}
      </QueryState>
      <ConfirmDialog
        open={confirming === 'renew'}
        title="Make a new feed URL?"
        confirmLabel="Make a new URL"
        busy={issuing.isPending}
        error={null}
        onConfirm={issue}
        onClose={() => setConfirming(null)}
      >
        <p>
          The current URL stops working at once: calendars subscribed to it stop updating until they
          subscribe to the new one.
        </p>
        <ErrorNotice error={issuing.error} />
        <PasswordCheck error={issuing.error} retry={issue} />
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === 'revoke'}
        title="Revoke your feed URL?"
        confirmLabel="Revoke URL"
        danger
        busy={revoking.isPending}
        error={revoking.error}
        onConfirm={revoke}
        onClose={() => setConfirming(null)}
      >
        <p>
          The URL stops working at once: calendars subscribed to it stop updating. You can make a
          new one later.
        </p>
      </ConfirmDialog>
    </section>
  );
}
