import type {
  Maintenance,
  MaintenanceInput,
  MaintenanceResolution,
  MaintenanceStatus,
  MaintenanceType,
} from '@custodian/console-client';

export const MAINTENANCE_TYPES: readonly MaintenanceType[] = [
  'repair',
  'service',
  'inspection',
  'upgrade',
];

export const TYPE_LABEL: Record<MaintenanceType, string> = {
  repair: 'Repair',
  service: 'Service',
  inspection: 'Inspection',
  upgrade: 'Upgrade',
};

export const MAINTENANCE_STATUSES: readonly MaintenanceStatus[] = ['open', 'resolved'];

export const MAINTENANCE_STATUS_LABEL: Record<MaintenanceStatus, string> = {
  open: 'Open',
  resolved: 'Resolved',
};

/** Open (amber), resolved (green). */
export const MAINTENANCE_STATUS_BADGE: Record<MaintenanceStatus, string> = {
  open: 'badge-pending',
  resolved: 'badge-delivered',
};

export function isMaintenanceStatus(value: string | null): value is MaintenanceStatus {
  return value !== null && (MAINTENANCE_STATUSES as readonly string[]).includes(value);
}

/** What the API takes as a cost: a decimal with at most two places (`189`, `189.50`). */
const COST = /^\d{1,12}(\.\d{1,2})?$/;

/** The log form as typed. */
export interface MaintenanceForm {
  title: string;
  type: MaintenanceType;
  notes: string;
  /** `YYYY-MM-DD` from a date input, or ''. */
  scheduledFor: string;
  cost: string;
  setAssetStatus: boolean;
  /** Months between the repeating reminder's occurrences ("service every 6 months"), or ''. */
  repeatMonths: string;
}

export const EMPTY_FORM: MaintenanceForm = {
  title: '',
  type: 'repair',
  notes: '',
  scheduledFor: '',
  cost: '',
  setAssetStatus: false,
  repeatMonths: '',
};

/** A typed cost as the API takes it ("1,299.5" → "1299.5"), '' for none, or null if not one. */
export function costValue(typed: string): string | null {
  const cost = typed.trim().replace(/,/g, '');
  if (cost === '') return '';
  return COST.test(cost) ? cost : null;
}

const COST_PROBLEM = 'Cost: a number with at most two decimals, like 189.00';

/** The body of a new record, or what is wrong with the form. */
export function maintenanceInput(
  form: MaintenanceForm,
): { input: MaintenanceInput } | { problem: string } {
  const title = form.title.trim();
  if (!title) return { problem: 'Give it a title.' };
  const cost = costValue(form.cost);
  if (cost === null) return { problem: COST_PROBLEM };
  const input: MaintenanceInput = { title, type: form.type };
  if (form.notes.trim()) input.notes = form.notes.trim();
  if (form.scheduledFor) input.scheduled_for = form.scheduledFor;
  if (cost) input.cost = cost;
  if (form.setAssetStatus) input.set_asset_status = true;
  if (form.repeatMonths.trim()) {
    const every = Number(form.repeatMonths.trim());
    if (!Number.isInteger(every) || every < 1 || every > 365) {
      return { problem: 'Remind again every: a whole number of months from 1 to 365.' };
    }
    input.repeat = { every, unit: 'month' };
  }
  return { input };
}

/** The body of a resolve: notes if any, a cost if typed (none keeps the record's). */
export function resolution(
  notes: string,
  typedCost: string,
): { resolution: MaintenanceResolution } | { problem: string } {
  const cost = costValue(typedCost);
  if (cost === null) return { problem: COST_PROBLEM };
  const body: MaintenanceResolution = {};
  if (notes.trim()) body.notes = notes.trim();
  if (cost) body.cost = cost;
  return { resolution: body };
}

/** "Battery replacement (repair)". */
export function recordTitle(record: Pick<Maintenance, 'title' | 'type'>): string {
  return `${record.title} (${TYPE_LABEL[record.type].toLowerCase()})`;
}
