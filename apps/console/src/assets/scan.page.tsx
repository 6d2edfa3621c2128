import { type FormEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ErrorNotice } from '../shared/notices';
import { usePageTitle } from '../shared/use-page-title';
import type { AssetPageNotice } from './asset.page';
import { useScanAsset } from './assets.queries';

/**
 * /scan: a barcode scanner is a keyboard that types the code and presses Enter. The field has
 * the focus from the start and again after a miss, so scan after scan needs no mouse.
 */
export function ScanPage() {
  usePageTitle('Scan');
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
    <div className="page page-narrow">
      <h1>Scan</h1>
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
    </div>
  );
}
