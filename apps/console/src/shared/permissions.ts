import type { Permission, Session } from '@custodian/console-client';

/** Whether the signed-in member may do this in the selected workspace (the API decides too). */
export function can(session: Session | null, permission: Permission): boolean {
  return session?.permissions.includes(permission) ?? false;
}

export interface NavItem {
  to: string;
  label: string;
}

/** The header's links: only the screens the member's role opens. */
export function navItems(session: Session): NavItem[] {
  const items: NavItem[] = [{ to: '/', label: 'Overview' }];
  if (can(session, 'assets.view')) items.push({ to: '/assets', label: 'Assets' });
  if (can(session, 'people.view')) items.push({ to: '/people', label: 'People' });
  if (can(session, 'assets.scan')) items.push({ to: '/scan', label: 'Scan' });
  if (can(session, 'members.view')) items.push({ to: '/members', label: 'Members' });
  if (can(session, 'keys.view')) items.push({ to: '/keys', label: 'API keys' });
  if (can(session, 'webhooks.view')) {
    items.push({ to: '/webhooks', label: 'Webhooks' });
    items.push({ to: '/deliveries', label: 'Delivery log' });
  }
  if (can(session, 'workspace.view')) {
    items.push({ to: '/activity', label: 'Activity' });
    items.push({ to: '/usage', label: 'Plan & usage' });
  }
  items.push({ to: '/account', label: 'Account' });
  return items;
}

/** Where a signed-in person goes next: the workspace picker until a workspace is selected. */
export function landingPath(session: Session, next: string | null): string {
  if (!session.workspace)
    return next ? `/workspaces?next=${encodeURIComponent(next)}` : '/workspaces';
  return next ?? '/';
}

/**
 * `next` from a query string, only when it is a path inside the console: never another origin
 * (`//evil.example`, `https://…`), so a crafted sign-in link cannot send anyone elsewhere.
 */
export function safeNextPath(value: string | null): string | null {
  if (!value?.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  return value;
}
