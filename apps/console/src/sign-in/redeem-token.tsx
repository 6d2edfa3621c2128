import type { Session } from '@custodian/console-client';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ErrorNotice } from '../shared/notices';
import { landingPath } from '../shared/permissions';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { tokenFromHash } from './token-from-hash';

interface RedeemTokenProps {
  title: string;
  working: string;
  missing: string;
  redeem: (token: string) => Promise<Session>;
}

/**
 * The page an e-mailed link opens: reads `#token=…`, removes it from the address (and so from
 * the history), sends it once, and goes on signed in.
 */
export function RedeemToken({ title, working, missing, redeem }: RedeemTokenProps) {
  usePageTitle(title);
  const { replace } = useSession();
  const navigate = useNavigate();
  const [token] = useState(() => tokenFromHash(window.location.hash));
  const redeeming = useMutation({
    mutationFn: (sent: string) => redeem(sent),
    onSuccess: (session) => {
      replace(session);
      void navigate(landingPath(session, null), { replace: true });
    },
  });
  const { mutate } = redeeming;
  const error = redeeming.error;
  // A token works once: React's development double effect must not send it twice.
  const sent = useRef(false);

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    window.history.replaceState(window.history.state, '', window.location.pathname);
    mutate(token);
  }, [token, mutate]);

  return (
    <div className="page page-narrow">
      <h1>{title}</h1>
      {!token && (
        <p className="notice notice-error" role="alert">
          {missing}
        </p>
      )}
      {token && !error && (
        <p className="loading" role="status">
          {working}
        </p>
      )}
      <ErrorNotice error={error} />
      {(!token || error !== null) && (
        <p>
          <Link to="/sign-in">Ask for a new sign-in link</Link>
        </p>
      )}
    </div>
  );
}
