import { useState } from 'react';
import { expiryBadge } from './expiry';

const BADGE = { none: 'badge-off', ok: 'badge-on', soon: 'badge-pending', expired: 'badge-failed' };

/** An expiry date's badge as of when the page opened: "Ends in 7 days", "Expired". */
export function ExpiryBadge({ expiresOn, none }: { expiresOn: string | null; none?: string }) {
  const [now] = useState(() => new Date());
  const badge = expiryBadge(expiresOn, now, none ? { none } : {});
  return <span className={`badge ${BADGE[badge.tone]}`}>{badge.text}</span>;
}
