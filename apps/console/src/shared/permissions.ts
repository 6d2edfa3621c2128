import type { Permission, Session } from '@custodian/console-client';

/** Whether the signed-in member may do this in the selected workspace (the API decides too). */
export function can(session: Session | null, permission: Permission): boolean {
  return session?.permissions.includes(permission) ?? false;
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
