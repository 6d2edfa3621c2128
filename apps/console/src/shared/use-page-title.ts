import { useEffect } from 'react';

/** The tab's title, so that history and screen readers name the screen. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Custodian`;
  }, [title]);
}
