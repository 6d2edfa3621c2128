import type { Reminder } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { AssetPicker } from '../assets/asset-picker';
import { PersonPicker } from '../assets/person-picker';
import { fromLocalInput, toLocalInput } from '../bookings/booking-values';
import { ErrorNotice } from '../shared/notices';
import { QueryState } from '../shared/query-state';
import { usePageTitle } from '../shared/use-page-title';
import { type RepeatForm, repeatOfForm, subjectOf } from './reminder-values';
import { reminderQueries, useSaveReminder } from './reminders.queries';

/** /reminders/new (`?asset=`, `?person=` or `?license=` for what it is about) and /:id/edit. */
export function ReminderFormPage() {
  const { id } = useParams();
  usePageTitle(id ? 'Change reminder' : 'Add reminder');
  const reminder = useQuery({ ...reminderQueries.detail(id ?? ''), enabled: id !== undefined });
  return (
    <div className="page page-narrow">
      <p className="breadcrumb">
        <Link to="/reminders">Reminders</Link>
      </p>
      <h1>{id ? 'Change reminder' : 'Add reminder'}</h1>
      {id === undefined ? (
        <ReminderForm reminder={null} />
      ) : (
        <QueryState query={reminder} what="the reminder">
          {(shown) => <ReminderForm reminder={shown} />}
        </QueryState>
      )}
    </div>
  );
}

type About = 'none' | 'asset' | 'person' | 'license';

/** The next full hour: a sensible first due time. */
function nextHour(): string {
  const at = new Date();
  at.setMinutes(0, 0, 0);
  at.setHours(at.getHours() + 1);
  return toLocalInput(at);
}

function ReminderForm({ reminder }: { reminder: Reminder | null }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const saving = useSaveReminder();
  const given = {
    asset: params.get('asset') ?? '',
    person: params.get('person') ?? '',
    license: params.get('license') ?? '',
  };
  const [title, setTitle] = useState(reminder?.title ?? '');
  const [notes, setNotes] = useState(reminder?.notes ?? '');
  const [due, setDue] = useState(reminder ? toLocalInput(reminder.due_at) : nextHour());
  const [repeat, setRepeat] = useState<RepeatForm>({
    repeats: reminder?.repeat != null,
    every: String(reminder?.repeat?.every ?? 1),
    unit: reminder?.repeat?.unit ?? 'month',
  });
  const [about, setAbout] = useState<About>(
    given.asset ? 'asset' : given.person ? 'person' : given.license ? 'license' : 'none',
  );
  const [assetId, setAssetId] = useState(given.asset);
  const [personId, setPersonId] = useState(given.person);
  const [problem, setProblem] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const dueAt = fromLocalInput(due);
    if (!dueAt) return setProblem('Give the due date and time.');
    const repeated = repeatOfForm(repeat);
    if ('problem' in repeated) return setProblem(repeated.problem);
    const done = { onSuccess: (saved: Reminder) => void navigate(`/reminders/${saved.id}`) };
    if (reminder) {
      saving.mutate(
        {
          id: reminder.id,
          changes: {
            title: title.trim(),
            notes: notes.trim() || null,
            ...(dueAt !== reminder.due_at ? { due_at: dueAt } : {}),
            repeat: repeated.repeat,
          },
        },
        done,
      );
      return;
    }
    if (about === 'asset' && !assetId) return setProblem('Choose the asset.');
    if (about === 'person' && !personId) return setProblem('Choose the person.');
    saving.mutate(
      {
        id: null,
        input: {
          title: title.trim(),
          due_at: dueAt,
          ...(notes.trim() ? { notes: notes.trim() } : {}),
          ...(repeated.repeat ? { repeat: repeated.repeat } : {}),
          ...(about === 'asset' ? { asset_id: assetId } : {}),
          ...(about === 'person' ? { person_id: personId } : {}),
          ...(about === 'license' ? { license_id: given.license } : {}),
        },
      },
      done,
    );
  }

  const subject = reminder ? subjectOf(reminder) : null;
  return (
    <form
      className="card"
      onSubmit={submit}
      aria-label={reminder ? 'Change reminder' : 'Add reminder'}
    >
      <div className="field">
        <label htmlFor="reminder-title">What to do</label>
        <input
          id="reminder-title"
          required
          maxLength={200}
          value={title}
          onChange={(event) => setTitle(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="reminder-due">{reminder ? 'Next due' : 'First due'}</label>
        <input
          id="reminder-due"
          type="datetime-local"
          required
          value={due}
          onChange={(event) => setDue(event.target.value)}
        />
      </div>
      <fieldset className="field">
        <legend>Repeats</legend>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={repeat.repeats}
            onChange={(event) => setRepeat({ ...repeat, repeats: event.target.checked })}
          />{' '}
          Repeat
        </label>
        {repeat.repeats && (
          <div className="inline-fields">
            <label htmlFor="reminder-every">Every</label>
            <input
              id="reminder-every"
              type="number"
              min={1}
              max={365}
              value={repeat.every}
              onChange={(event) => setRepeat({ ...repeat, every: event.target.value })}
            />
            <label htmlFor="reminder-unit" className="visually-hidden">
              Unit
            </label>
            <select
              id="reminder-unit"
              value={repeat.unit}
              onChange={(event) =>
                setRepeat({ ...repeat, unit: event.target.value as RepeatForm['unit'] })
              }
            >
              <option value="day">days</option>
              <option value="week">weeks</option>
              <option value="month">months</option>
            </select>
          </div>
        )}
      </fieldset>
      {reminder ? (
        <p className="hint">About: {subject ? subject.name : 'nothing in particular'}</p>
      ) : (
        <div className="field">
          <label htmlFor="reminder-about">About</label>
          <select
            id="reminder-about"
            value={about}
            onChange={(event) => setAbout(event.target.value as About)}
          >
            <option value="none">Nothing in particular</option>
            <option value="asset">An asset</option>
            <option value="person">A person</option>
            {given.license && <option value="license">This licence</option>}
          </select>
        </div>
      )}
      {!reminder && about === 'asset' && (
        <AssetPicker id="reminder-asset" label="Asset" value={assetId} onChange={setAssetId} />
      )}
      {!reminder && about === 'person' && (
        <PersonPicker id="reminder-person" label="Person" value={personId} onChange={setPersonId} />
      )}
      <div className="field">
        <label htmlFor="reminder-notes">Notes</label>
        <textarea
          id="reminder-notes"
          maxLength={2000}
          value={notes}
          onChange={(event) => setNotes(event.target.value)}
        />
      </div>
      {problem && <p className="field-error">{problem}</p>}
      <ErrorNotice error={saving.error} />
      <div className="actions">
        <button type="submit" className="button-primary" disabled={saving.isPending}>
          {saving.isPending ? 'Saving…' : reminder ? 'Save changes' : 'Add reminder'}
        </button>
        <Link to={reminder ? `/reminders/${reminder.id}` : '/reminders'} className="button">
          Cancel
        </Link>
      </div>
    </form>
  );
}
