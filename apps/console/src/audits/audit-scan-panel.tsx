import type { Audit, AuditScan } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { Link } from 'react-router';
import { treeLabel } from '../locations/location-values';
import { WHOLE_TREE, locationQueries } from '../locations/locations.queries';
import { ErrorNotice } from '../shared/notices';
import { outcomeText } from './audit-values';
import { auditQueries, useRecordAuditScan } from './audits.queries';

/**
 * The open audits, for the Scan screen's "Record into" choice. A list, not <option>s: the
 * <select> that shows them must re-render with them, or the browser keeps showing an option
 * that was replaced.
 */
export function useOpenAudits(enabled: boolean): Array<Pick<Audit, 'id' | 'name'>> {
  const audits = useQuery({
    ...auditQueries.list({ status: 'open', page: '1', pageSize: '100' }),
    enabled,
  });
  return audits.data?.data ?? [];
}

interface Logged {
  code: string;
  scan: AuditScan;
}

/**
 * Scanning into an audit: each code (a tag or a serial, as the scanner types it) is recorded
 * where the scanner says it is, the line says what it was, and the counts follow. The field
 * keeps the focus, so scan after scan needs no mouse.
 */
export function AuditScanPanel({ auditId }: { auditId: string }) {
  const audit = useQuery(auditQueries.detail(auditId));
  const shown = audit.data;
  return shown ? <ScanInto audit={shown} /> : <ErrorNotice error={audit.error} />;
}

function ScanInto({ audit }: { audit: Audit }) {
  const tree = useQuery(locationQueries.list(WHOLE_TREE));
  const recording = useRecordAuditScan(audit.id);
  const field = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [place, setPlace] = useState(audit.location?.id ?? '');
  const [log, setLog] = useState<Logged[]>([]);
  const root = audit.location?.id ?? null;
  // Where a scanner can be: the audited place and those under it (any place for a category).
  const places = (tree.data?.data ?? []).filter(
    (option) =>
      root === null ||
      option.id === root ||
      (audit.include_children && option.path.some((above) => above.id === root)),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    const typed = code.trim();
    if (!typed) return;
    recording.mutate(
      { code: typed, ...(place ? { location_id: place } : {}) },
      {
        onSuccess: (scan) => setLog((lines) => [{ code: typed, scan }, ...lines].slice(0, 50)),
        onSettled: () => {
          setCode('');
          field.current?.focus();
        },
      },
    );
  }

  if (audit.status !== 'open') {
    return (
      <p className="notice">
        {audit.name} is {audit.status}: it takes no more scans.{' '}
        <Link to={`/audits/${audit.id}`}>See the audit</Link>
      </p>
    );
  }
  const { counts } = audit;
  return (
    <>
      <form className="card" onSubmit={submit} aria-label={`Scan into ${audit.name}`}>
        {places.length > 0 && (
          <div className="field">
            <label htmlFor="scan-place">Where you are</label>
            <select
              id="scan-place"
              value={place}
              onChange={(event) => setPlace(event.target.value)}
            >
              {root === null && <option value="">Not said</option>}
              {places.map((option) => (
                <option key={option.id} value={option.id}>
                  {treeLabel(option)}
                </option>
              ))}
            </select>
          </div>
        )}
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
        <ErrorNotice error={recording.error} />
        <button type="submit" className="button-primary" disabled={recording.isPending}>
          {recording.isPending ? 'Recording…' : 'Record scan'}
        </button>
      </form>
      <p className="hint" aria-live="polite">
        {audit.name}: found {counts.found} of {counts.expected}, {counts.unexpected} unexpected,{' '}
        {counts.misplaced} misplaced. <Link to={`/audits/${audit.id}`}>See the audit</Link>
      </p>
      {log.length > 0 && (
        <section className="card" aria-labelledby="scan-log">
          <h2 id="scan-log">Scanned</h2>
          <ul className="plain-list scan-log">
            {log.map(({ code: scanned, scan }, index) => (
              <li key={`${scan.asset.id}-${index}`}>
                <span>
                  <span className="mono">{scanned}</span> {scan.asset.name}
                </span>
                <span className={scan.outcome === 'found' && !scan.repeated ? '' : 'muted'}>
                  {outcomeText(scan)}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
