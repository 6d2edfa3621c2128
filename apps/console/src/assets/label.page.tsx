import { Link, useParams } from 'react-router';
import { getAsset } from '../api/assets.api';
import { ErrorNotice, Loading } from '../shared/notices';
import { useLoad } from '../shared/use-load';
import { usePageTitle } from '../shared/use-page-title';
import { assetLink } from './asset-values';
import { QrCode } from './qr-code';

/**
 * /assets/:id/label: a label to print and stick on the asset. Its QR code opens the asset in
 * the console (after signing in); the tag under it is what a barcode scanner or a person reads.
 */
export function LabelPage() {
  usePageTitle('Label');
  const { id = '' } = useParams();
  const [asset] = useLoad(() => getAsset(id), [id]);
  return (
    <div className="page">
      <p className="breadcrumb no-print">
        <Link to="/assets">Assets</Link> / <Link to={`/assets/${id}`}>Asset</Link>
      </p>
      {asset.status === 'loading' && <Loading what="the asset" />}
      {asset.status === 'failed' && <ErrorNotice error={asset.error} />}
      {asset.status === 'ready' && (
        <>
          <div className="actions no-print">
            <button type="button" className="button-primary" onClick={() => window.print()}>
              Print label
            </button>
          </div>
          <figure className="label">
            <QrCode
              text={assetLink(window.location.origin, asset.data.id)}
              label={`QR code opening ${asset.data.name} in the console`}
            />
            <figcaption>
              <span className="label-tag mono">{asset.data.asset_tag}</span>
              <span className="label-name">{asset.data.name}</span>
            </figcaption>
          </figure>
        </>
      )}
    </div>
  );
}
