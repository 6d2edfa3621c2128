import type { MemberRole } from '../members/member.constants';

/** What a member may do in the console; each route names the one it needs. */
export const CONSOLE_PERMISSIONS = [
  'workspace.view',
  'keys.view',
  'keys.manage',
  'webhooks.view',
  'webhooks.manage',
  'webhooks.secrets',
  'assets.view',
  'assets.manage',
  'assets.scan',
  'people.view',
  'people.manage',
  'members.view',
  'members.manage',
  'requests.view',
  'requests.decide',
  'bookings.view',
  'bookings.request',
  'bookings.manage',
  'licenses.view',
  'licenses.manage',
  'maintenance.view',
  'maintenance.manage',
  'reminders.view',
  'reminders.manage',
  'locations.view',
  'locations.manage',
  'categories.view',
  'categories.manage',
  'audits.view',
  'audits.manage',
  'imports.manage',
] as const;
export type ConsolePermission = (typeof CONSOLE_PERMISSIONS)[number];

/**
 * The role matrix (docs/decisions.md). Owners and admins manage keys and webhooks, as an API
 * key acting as admin would; managers see keys and the delivery log but change neither, and
 * run the register (assets: create, edit, custody, condition, bin; people: create, edit,
 * offboard); members see assets and people and scan tags. Everyone sees who the members are;
 * owners and admins remove them. Every member asks for assets (`requests.view`: their own
 * requests); managers and above see the inbox and decide (`requests.decide`). Every role sees
 * bookings and books (a member's booking is `requested` while approval is on, and members
 * change only their own: the register decides that on each call); owners, admins and managers
 * confirm, reject, hand out and take back, and change the booking settings. Every role sees
 * licences; owners, admins and managers add, change and delete them and assign their seats
 * (reading a product key stays the owner's and admins', decided by the register). Every role
 * sees maintenance records; owners, admins and managers log, change and resolve them. Every
 * role sees reminders; owners, admins and managers create, change and cancel them. Every role
 * sees locations and categories; owners, admins and managers add, rename, move and delete them.
 * Every role sees audits (stock-takes); owners, admins and managers start them, scan into them,
 * complete and cancel them (`audits.manage`, as `assets.manage`). Owners, admins and managers
 * import assets and people from CSV files and follow their imports (`imports.manage`: an
 * import creates and changes both, so it goes with running the register).
 */
const GRANTS: Record<MemberRole, readonly ConsolePermission[]> = {
  owner: CONSOLE_PERMISSIONS,
  admin: CONSOLE_PERMISSIONS,
  manager: [
    'workspace.view',
    'keys.view',
    'webhooks.view',
    'assets.view',
    'assets.manage',
    'assets.scan',
    'people.view',
    'people.manage',
    'members.view',
    'requests.view',
    'requests.decide',
    'bookings.view',
    'bookings.request',
    'bookings.manage',
    'licenses.view',
    'licenses.manage',
    'maintenance.view',
    'maintenance.manage',
    'reminders.view',
    'reminders.manage',
    'locations.view',
    'locations.manage',
    'categories.view',
    'categories.manage',
    'audits.view',
    'audits.manage',
    'imports.manage',
  ],
  member: [
    'workspace.view',
    'assets.view',
    'assets.scan',
    'people.view',
    'members.view',
    'requests.view',
    'bookings.view',
    'bookings.request',
    'licenses.view',
    'maintenance.view',
    'reminders.view',
    'locations.view',
    'categories.view',
    'audits.view',
  ],
};

export function permissionsOf(role: MemberRole): ConsolePermission[] {
  return [...GRANTS[role]];
}

export function roleMay(role: MemberRole, permission: ConsolePermission): boolean {
  return GRANTS[role].includes(permission);
}
