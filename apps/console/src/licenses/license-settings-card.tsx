import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Notice, ErrorNotice } from '../shared/notices';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { licenseQueries, useSaveLicenseSettings } from './licenses.queries';

/**
 * The workspace's licence settings: whether offboarding a person releases their seats when
 * nobody says otherwise (the Offboard dialog starts from it). Everyone sees it;
 * licenses.manage changes it, saved as it is ticked.
 */
export function LicenseSettingsCard() {
  const { session } = useSession();
  const settings = useQuery(licenseQueries.settings());
  const manage = can(session, 'licenses.manage');
  return (
    <section className="card" aria-labelledby="license-settings">
      <h2 id="license-settings">Licence settings</h2>
      <QueryState query={settings} what="the licence settings">
        {(shown) =>
          manage ? (
            <ReleaseToggle initial={shown.release_on_offboard} />
          ) : (
            <p>
              {shown.release_on_offboard
                ? 'Offboarding a person releases their seats.'
                : 'Offboarding a person keeps their seats until someone releases them.'}
            </p>
          )
        }
      </QueryState>
    </section>
  );
}

/** The setting as a checkbox, saved as it is ticked; it shows the new state at once. */
function ReleaseToggle({ initial }: { initial: boolean }) {
  const [checked, setChecked] = useState(initial);
  const saving = useSaveLicenseSettings();
  return (
    <>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={checked}
          disabled={saving.isPending}
          onChange={(event) => {
            const next = event.target.checked;
            setChecked(next);
            saving.mutate({ release_on_offboard: next }, { onError: () => setChecked(!next) });
          }}
        />{' '}
        Release a person’s seats when they are offboarded
      </label>
      <p className="hint">
        The API does the same when an offboarding does not say (<code>release_licenses</code>).
      </p>
      {saving.isSuccess && <Notice tone="success">Licence settings saved.</Notice>}
      <ErrorNotice error={saving.error} />
    </>
  );
}
