import { DomainError } from '@custodian/contracts';

/** Where a page of the delivery log ended: its last delivery's creation time and id. */
export interface DeliveryCursor {
  /** As Postgres prints it in UTC, with microseconds (a JS Date would lose them). */
  createdAt: string;
  id: string;
}

const CREATED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Opaque to the client: base64url of `<created_at>|<id>`. */
export function encodeCursor(cursor: DeliveryCursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`, 'utf8').toString('base64url');
}

/** The cursor `before` carries, or invalid_input naming it. */
export function decodeCursor(raw: string): DeliveryCursor {
  const [createdAt = '', id = '', ...rest] = Buffer.from(raw, 'base64url')
    .toString('utf8')
    .split('|');
  if (rest.length > 0 || !CREATED_AT.test(createdAt) || !ID.test(id)) {
    throw new DomainError(
      'invalid_input',
      'before must be the next_cursor of a previous page of the delivery log',
    );
  }
  return { createdAt, id };
}
