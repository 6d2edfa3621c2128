import type { ConsoleKey, CreatedConsoleKey } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { formatDate, formatDateTime } from '../shared/format';
import { Notice } from '../shared/notices';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { CreateKeyForm } from './create-key-form';
import { KeyCreatedDialog } from './key-created.dialog';
import { keyQueries, useRevokeKey } from './keys.queries';

const keyLabel = (key: ConsoleKey) => key.name ?? `${key.prefix}…`;

export function KeysPage() {
  usePageTitle('API keys');
  const { session } = useSession();
  const manage = can(session, 'keys.manage');
  const keys = useQuery(keyQueries.list());
  const [created, setCreated] = useState<CreatedConsoleKey | null>(null);
  const [revoking, setRevoking] = useState<ConsoleKey | null>(null);
  const [revoked, setRevoked] = useState<ConsoleKey | null>(null);
  const revocation = useRevokeKey();

  function confirmRevoke() {
    if (!revoking) return;
    revocation.mutate(revoking.id, {
      onSuccess: (done) => {
        setRevoked(done);
        setRevoking(null);
      },
    });
  }

  return (
    <div className="page">
      <h1>API keys</h1>
      <p className="lead">
        Keys let your integrations call the Custodian API for this workspace. Send one as{' '}
        <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
      {revoked && (
        <Notice tone="success">
          Key “{keyLabel(revoked)}” is revoked: requests with it are refused from now on.
        </Notice>
      )}
      <QueryState query={keys} what="API keys">
        {(list) => (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">API keys of the workspace</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Scope</th>
                  <th scope="col">Created</th>
                  <th scope="col">Created by</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Status</th>
                  {manage && (
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {list.length === 0 && (
                  <tr>
                    <td colSpan={manage ? 8 : 7} className="empty">
                      No keys yet.
                    </td>
                  </tr>
                )}
                {list.map((key) => (
                  <tr key={key.id} className={key.revoked_at ? 'row-muted' : undefined}>
                    <td>{key.name ?? <span className="muted">(no name)</span>}</td>
                    <td className="mono">{key.prefix}…</td>
                    <td>{key.scope}</td>
                    <td className="nowrap">{formatDate(key.created_at)}</td>
                    <td>{key.created_by ?? <span className="muted">admin CLI</span>}</td>
                    <td className="nowrap">{formatDateTime(key.last_used_at, 'Never')}</td>
                    <td>
                      {key.revoked_at ? (
                        <>
                          <span className="badge badge-off">Revoked</span>
                          <div className="muted small nowrap">{formatDateTime(key.revoked_at)}</div>
                        </>
                      ) : (
                        <span className="badge badge-on">Active</span>
                      )}
                    </td>
                    {manage && (
                      <td className="cell-actions">
                        {!key.revoked_at && (
                          <button
                            type="button"
                            className="button-small button-danger-quiet"
                            onClick={() => {
                              revocation.reset();
                              setRevoking(key);
                            }}
                          >
                            Revoke<span className="visually-hidden"> key {keyLabel(key)}</span>
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>

      {manage && <CreateKeyForm onCreated={setCreated} />}
      <KeyCreatedDialog created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        danger
        busy={revocation.isPending}
        error={revocation.error}
        onConfirm={confirmRevoke}
        onClose={() => setRevoking(null)}
      >
        {revoking && (
          <p>
            Key “{keyLabel(revoking)}” (<span className="mono">{revoking.prefix}…</span>,{' '}
            {revoking.scope}) stops working at once: the next request with it is refused. This
            cannot be undone.
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
