import type { WebhookSecret } from '@custodian/console-client';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { formatDateTime } from '../shared/format';
import { ErrorNotice, Notice } from '../shared/notices';
import { PasswordCheck } from '../shared/password-check';
import { SecretField } from '../shared/secret-field';
import { useRevealSecret, useRotateSecret } from './webhooks.queries';

const OVERLAP_HOURS = [0, 1, 24, 72] as const;

function overlapLabel(hours: number): string {
  if (hours === 0) return 'No overlap: the old secret stops now';
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}

/**
 * Reveal the signing secret on demand; rotate it, both signatures sent during the overlap (the
 * rotation invalidates the endpoint, whose page then says until when).
 */
export function SecretPanel({ endpointId }: { endpointId: string }) {
  const selectId = useId();
  const [secret, setSecret] = useState<WebhookSecret | null>(null);
  const [rotated, setRotated] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [overlap, setOverlap] = useState(24);
  const revealing = useRevealSecret();
  const rotating = useRotateSecret();

  function reveal() {
    revealing.mutate(endpointId, {
      onSuccess: (answer) => {
        setSecret(answer);
        setRotated(false);
      },
    });
  }

  function rotate() {
    rotating.mutate(
      { id: endpointId, overlapHours: overlap },
      {
        onSuccess: (answer) => {
          setSecret(answer);
          setRotated(true);
          setConfirming(false);
        },
      },
    );
  }

  return (
    <section className="card" aria-labelledby="secret-heading">
      <h2 id="secret-heading">Signing secret</h2>
      <p className="hint">
        Each delivery carries a signature made with this secret; your receiver checks it.
      </p>
      {rotated && (
        <Notice tone="success">
          New secret in use.{' '}
          {secret?.previous
            ? `Deliveries also carry the old secret’s signature until ${formatDateTime(secret.previous.expires_at)}.`
            : 'The old secret no longer signs anything.'}
        </Notice>
      )}
      {secret && (
        <>
          <SecretField label="Current secret" value={secret.secret} />
          {secret.previous && (
            <SecretField
              label={`Previous secret (until ${formatDateTime(secret.previous.expires_at)})`}
              value={secret.previous.secret}
            />
          )}
        </>
      )}
      <ErrorNotice error={revealing.error} />
      <PasswordCheck error={revealing.error} retry={reveal} />
      <div className="actions">
        {!secret && (
          <button type="button" onClick={reveal} disabled={revealing.isPending}>
            {revealing.isPending ? 'Revealing…' : 'Reveal secret'}
          </button>
        )}
        <button
          type="button"
          onClick={() => {
            rotating.reset();
            setConfirming(true);
          }}
        >
          Rotate secret
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        busy={rotating.isPending}
        error={rotating.error}
        onConfirm={rotate}
        onClose={() => setConfirming(false)}
      >
        <PasswordCheck error={rotating.error} retry={rotate} />
        <p>
          A new secret signs every delivery from now on. During the overlap, deliveries carry both
          signatures, so your receiver keeps working while you update it.
        </p>
        <div className="field">
          <label htmlFor={selectId}>Overlap</label>
          <select
            id={selectId}
            value={overlap}
            onChange={(event) => setOverlap(Number(event.target.value))}
          >
            {OVERLAP_HOURS.map((hours) => (
              <option key={hours} value={hours}>
                {overlapLabel(hours)}
              </option>
            ))}
          </select>
        </div>
      </ConfirmDialog>
    </section>
  );
}
