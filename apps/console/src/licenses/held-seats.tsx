import type { Person } from '@custodian/console-client';
import { Link } from 'react-router';
import { formatDateTime } from '../shared/format';

/** The licence seats a person or an asset holds, each linked to its licence. */
export function HeldSeats({ seats }: { seats: Person['seats'] }) {
  return (
    <section className="card" aria-labelledby="held-seats">
      <h2 id="held-seats">Licences</h2>
      {seats.length === 0 ? (
        <p className="muted">No licence seats.</p>
      ) : (
        <ul className="plain-list">
          {seats.map((seat) => (
            <li key={seat.id}>
              <Link to={`/licenses/${seat.license.id}`}>{seat.license.name}</Link>{' '}
              <span className="muted">since {formatDateTime(seat.assigned_at)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
