// For the component tests (*.spec.tsx): a screen rendered as main.tsx renders it, with a fresh
// query cache of the console's own defaults, a router at `path`, and the session provider
// (whose getSession the test mocks). Not imported by the console itself.
import type { Role, Session } from '@custodian/console-client';
import { permissionsOf } from '@custodian/contracts/constants';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { createQueryClient } from '../shared/query-client';
import { SessionProvider } from '../shared/session';

/** A signed-in session in workspace `workspace` (Acme unless said), with the role's permissions. */
export function sessionFor(role: Role, workspace = { id: 'wsp_acme', name: 'Acme' }): Session {
  return {
    signed_in: true,
    csrf_token: 'csrf',
    email: 'ada@example.com',
    workspace: { ...workspace, plan: 'pro' },
    member: { id: `mem_${workspace.id}`, role, name: 'Ada' },
    permissions: permissionsOf(role),
    memberships: [
      { workspace_id: 'wsp_acme', workspace_name: 'Acme', plan: 'pro', role },
      { workspace_id: 'wsp_globex', workspace_name: 'Globex', plan: 'pro', role },
    ],
  };
}

export function renderScreen(screen: ReactNode, path = '/') {
  const queryClient = createQueryClient();
  const rendered = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <SessionProvider>{screen}</SessionProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...rendered, queryClient };
}

/**
 * jsdom has <dialog> without showModal() and close(): enough of them for the console's Dialog,
 * whose content shows while it is open.
 */
export function installDialogMethods(): void {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
}
