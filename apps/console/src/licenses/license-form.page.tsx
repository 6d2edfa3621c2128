import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ErrorNotice } from '../shared/notices';
import { usePageTitle } from '../shared/use-page-title';
import { useSaveLicense } from './licenses.queries';

/** Add a licence: name, vendor, seats (empty: unlimited), last valid day, cost, key, notes. */
export function LicenseFormPage() {
  usePageTitle('Add licence');
  const navigate = useNavigate();
  const saving = useSaveLicense();
  const [name, setName] = useState('');
  const [vendor, setVendor] = useState('');
  const [seats, setSeats] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [cost, setCost] = useState('');
  const [productKey, setProductKey] = useState('');
  const [notes, setNotes] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const count = seats.trim() === '' ? null : Number(seats);
    if (count !== null && (!Number.isInteger(count) || count < 1)) {
      return setProblem('Seats is a whole number from 1, or empty for unlimited.');
    }
    saving.mutate(
      {
        id: null,
        input: {
          name: name.trim(),
          ...(vendor.trim() ? { vendor: vendor.trim() } : {}),
          seats: count,
          ...(expiresOn ? { expires_on: expiresOn } : {}),
          ...(cost.trim() ? { cost: cost.trim() } : {}),
          ...(productKey.trim() ? { product_key: productKey.trim() } : {}),
          ...(notes.trim() ? { notes: notes.trim() } : {}),
        },
      },
      { onSuccess: (made) => void navigate(`/licenses/${made.id}`) },
    );
  }

  const field = (id: string, label: string, input: React.ReactNode, hint?: string) => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {input}
      {hint && <p className="hint">{hint}</p>}
    </div>
  );

  return (
    <div className="page page-narrow">
      <p className="breadcrumb">
        <Link to="/licenses">Licences</Link>
      </p>
      <h1>Add licence</h1>
      <form className="card" onSubmit={submit} aria-label="Add licence">
        {field(
          'license-name',
          'Name',
          <input
            id="license-name"
            required
            maxLength={200}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />,
        )}
        {field(
          'license-vendor',
          'Vendor',
          <input
            id="license-vendor"
            maxLength={200}
            value={vendor}
            onChange={(event) => setVendor(event.target.value)}
          />,
        )}
        {field(
          'license-seats',
          'Seats',
          <input
            id="license-seats"
            inputMode="numeric"
            value={seats}
            onChange={(event) => setSeats(event.target.value)}
          />,
          'Empty: unlimited.',
        )}
        {field(
          'license-expires',
          'Last valid day',
          <input
            id="license-expires"
            type="date"
            value={expiresOn}
            onChange={(event) => setExpiresOn(event.target.value)}
          />,
          'license.expiring fires 30 and 7 days before it ends (the notice settings), license.expired when it has.',
        )}
        {field(
          'license-cost',
          'Cost',
          <input
            id="license-cost"
            inputMode="decimal"
            placeholder="1299.00"
            value={cost}
            onChange={(event) => setCost(event.target.value)}
          />,
        )}
        {field(
          'license-key',
          'Product key',
          <input
            id="license-key"
            autoComplete="off"
            value={productKey}
            onChange={(event) => setProductKey(event.target.value)}
          />,
          'Stored encrypted; read only by owners and admins, each time in the activity feed.',
        )}
        {field(
          'license-notes',
          'Notes',
          <textarea
            id="license-notes"
            rows={3}
            maxLength={2000}
            value={notes}
            onChange={(event) => setNotes(event.target.value)}
          />,
        )}
        {problem && (
          <p className="notice notice-error" role="alert">
            {problem}
          </p>
        )}
        <ErrorNotice error={saving.error} />
        <button type="submit" className="button-primary" disabled={saving.isPending}>
          {saving.isPending ? 'Adding…' : 'Add licence'}
        </button>
      </form>
    </div>
  );
}
