import { type FormEvent, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { AuditScanPanel, useOpenAudits } from '../audits/audit-scan-panel';
import { can } from '../shared/permissions';
import { useSession } from '../shared/session';
import { ErrorNotice } from '../shared/notices';
import { usePageTitle } from '../shared/use-page-title';
import type { AssetPageNotice } from './asset.page';
import { useScanAsset } from './assets.queries';

/**
 * /scan: a barcode scanner is a keyboard that types the code and presses Enter. "Record into"
 * picks an open audit (`?audit=`), whose scans stay on this screen; without one a scan looks
 * the asset up and opens its page.
 */
export function ScanPage() {
  usePageTitle('Scan');
  const { session } = useSession();
  const [params, setParams] = useSearchParams();
  const auditId = params.get('audit') ?? '';
  const audits = can(session, 'audits.manage');
  const open = useOpenAudits(audits);
  return (
    <div className="page page-narrow">
      <h1>Scan</h1>
      {audits && (
        <div className="field">
          <label htmlFor="scan-audit">Record into</label>
          <select
            id="scan-audit"
            value={auditId}
            onChange={(event) => setParams(event.target.value ? { audit: event.target.value } : {})}
          >
            <option value="">No audit: look the asset up</option>
            {auditId && !open.some((audit) => audit.id === auditId) && (
              <option value={auditId}>The audit chosen</option>
            )}
            {open.map((audit) => (
              <option key={audit.id} value={audit.id}>
                {audit.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {audits && auditId ? <AuditScanPanel key={auditId} auditId={auditId} /> : <LookUp />}
    </div>
  );
}

/** A scan that finds the asset and opens its page (recorded on it, `asset.scanned`). */
function LookUp() {
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const field = useRef<HTMLInputElement>(null);
  const scanning = useScanAsset();

  function submit(event: FormEvent) {
    event.preventDefault();
    const typed = code.trim();
    if (!typed) return;
    scanning.mutate(typed, {
      onSuccess: (found) => {
        const matched = found.matched === 'asset_tag' ? 'asset tag' : 'serial number';
        const state: AssetPageNotice = {
          notice: `Scanned ${typed}: the ${matched} of this asset.`,
        };
        void navigate(`/assets/${found.asset.id}`, { state });
      },
      onError: () => {
        setCode('');
        field.current?.focus();
      },
    });
  }

  return (
    <>
      <p className="lead">
        Scan an asset tag or serial number, or type it and press Enter. The scan is recorded on the
        asset and sent to webhooks as <code>asset.scanned</code>.
      </p>
      <form className="card" onSubmit={submit}>
        <div className="field">
          <label htmlFor="scan-code">Asset tag or serial number</label>
          <input
            id="scan-code"
            ref={field}
            autoFocus
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            className="scan-input mono"
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        </div>
        <ErrorNotice error={scanning.error} />
        <button type="submit" className="button-primary" disabled={scanning.isPending}>
          {scanning.isPending ? 'Looking up…' : 'Look up'}
        </button>
      </form>
    </>
  );
}
