import type { ReactNode } from 'react';
import { describeFailure } from '../api/failure';
import { useSession } from './session';

/** An error in words: the API's message, the network sentence, or what the role cannot do. */
export function ErrorNotice({ error }: { error: unknown }) {
  const { session } = useSession();
  if (error === null || error === undefined) return null;
  return (
    <p className="notice notice-error" role="alert">
      {describeFailure(error, {
        role: session.member?.role ?? null,
        permissions: session.permissions,
      })}
    </p>
  );
}

export function Notice({
  tone = 'info',
  children,
}: {
  tone?: 'info' | 'success' | 'warning';
  children: ReactNode;
}) {
  return (
    <div className={`notice notice-${tone}`} role={tone === 'info' ? undefined : 'status'}>
      {children}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}
