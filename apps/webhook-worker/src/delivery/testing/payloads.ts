import type { Queryable } from '@custodian/persistence';

/*
 * For tests that store deliveries by hand: a delivery references its event's payload
 * (delivery.event_payloads, foreign key on event_id), so the payload row goes in first.
 */

type Payload = Record<string, unknown>;

/**
 * Stores each event's payload (`payload`, or what it gives for the event id) and context, in
 * one statement; an event already stored is left as it is.
 */
export async function insertPayloads(
  db: Queryable,
  eventIds: readonly string[],
  payload: Payload | ((eventId: string) => Payload) = {},
  context: Record<string, string> | null = null,
): Promise<void> {
  const payloadOf = typeof payload === 'function' ? payload : () => payload;
  await db.query(
    `INSERT INTO delivery.event_payloads (event_id, payload, context)
     SELECT p.event_id, p.payload::jsonb, $3::jsonb
     FROM unnest($1::text[], $2::text[]) AS p (event_id, payload)
     ON CONFLICT (event_id) DO NOTHING`,
    [
      eventIds,
      eventIds.map((id) => JSON.stringify(payloadOf(id))),
      context === null ? null : JSON.stringify(context),
    ],
  );
}

/** Stores the event's payload (insertPayloads, for one event). */
export function insertPayload(
  db: Queryable,
  eventId: string,
  payload: Payload = {},
  context: Record<string, string> | null = null,
): Promise<void> {
  return insertPayloads(db, [eventId], payload, context);
}
