import { Component, type ReactNode } from 'react';
import { NO_READER, describeFailure } from '../api/failure';

interface State {
  failed: boolean;
  error: unknown;
}

/** A screen that throws while rendering shows what happened instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false, error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { failed: true, error };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="page page-narrow">
        <h1>This page could not be shown</h1>
        <p className="notice notice-error" role="alert">
          {describeFailure(this.state.error, NO_READER)}
        </p>
        <div className="actions">
          <button type="button" className="button-primary" onClick={() => window.location.reload()}>
            Reload the page
          </button>
          <a href="/console/">Go to the overview</a>
        </div>
      </div>
    );
  }
}
