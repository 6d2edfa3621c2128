import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { QueryState } from '../shared/query-state';
import { usePageTitle } from '../shared/use-page-title';
import { assetLink } from './asset-values';
import { assetQueries } from './assets.queries';
import { QrCode } from './qr-code';

/**
 * /assets/:id/label: a label to print and stick on the asset. Its QR code opens the asset in
 * the console (after signing in); the tag under it is what a barcode scanner or a person reads.
 */
export function LabelPage() {
  usePageTitle('Label');
  const { id = '' } = useParams();
  const asset = useQuery(assetQueries.detail(id));
  return (
    <div className="page">
      <p className="breadcrumb no-print">
        <Link to="/assets">Assets</Link> / <Link to={`/assets/${id}`}>Asset</Link>
      </p>
      <QueryState query={asset} what="the asset">
        {(shown) => (
          <>
            <div className="actions no-print">
              <button type="button" className="button-primary" onClick={() => window.print()}>
                Print label
              </button>
            </div>
            <figure className="label">
              <QrCode
                text={assetLink(window.location.origin, shown.id)}
                label={`QR code opening ${shown.name} in the console`}
              />
              <figcaption>
                <span className="label-tag mono">{shown.asset_tag}</span>
                <span className="label-name">{shown.name}</span>
              </figcaption>
            </figure>
          </>
        )}
      </QueryState>
    </div>
  );
}
