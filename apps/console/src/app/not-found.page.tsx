import { Link } from 'react-router';
import { usePageTitle } from '../shared/use-page-title';

export function NotFoundPage() {
  usePageTitle('Not found');
  return (
    <div className="page page-narrow">
      <h1>No page here</h1>
      <p>The console has no page at this address.</p>
      <p>
        <Link to="/">Go to the overview</Link>
      </p>
    </div>
  );
}
